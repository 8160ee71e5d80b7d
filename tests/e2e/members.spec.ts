/**
 * An admin manages the members of the workspace in settings: gives an agent the admin role, removes a member after
 * a confirmation, and cannot take the role or the seat of the only admin (disabled, with the reason shown).
 */
import { randomUUID } from 'node:crypto';
import { adminApi, createAdmin, expect, pick, signInUi, stack, test, verifyAddress } from './support/fixtures';

/** A colleague who joins the admin's workspace by invitation, as an agent. */
async function colleagueJoins(admin: { email: string; password: string; workspaceId: string }, name: string) {
  const call = await adminApi(admin);
  const colleague = { email: `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@members-e2e.com`, password: 'parley-e2e-pass-3' };
  await call('POST', '/invitee', { email: colleague.email, role: 'agent', workspaceId: admin.workspaceId });
  const invites = await call<{ items: { email: string; token: string }[] }>('GET', `/workspace/${admin.workspaceId}/invitees`);
  const token = invites.items.find((i) => i.email === colleague.email)!.token;
  const joined = await fetch(`${stack.apiUrl}/auth/sign-up/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(colleague) });
  expect(joined.status).toBe(201);
  await verifyAddress(colleague.email);
  return colleague;
}

/** With PARLEY_MEMBERS_SHOTS=<folder> the flow also saves pictures of the screen at both reference widths. */
async function shots(page: import('@playwright/test').Page, name: string) {
  const dir = process.env.PARLEY_MEMBERS_SHOTS;
  if (!dir) return;
  for (const width of [1024, 1440]) {
    await page.setViewportSize({ width, height: width === 1440 ? 900 : 700 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${dir}/members-${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('an admin changes a member role and removes a member; the only admin keeps theirs', async ({ page }) => {
  test.setTimeout(120_000);
  const admin = await createAdmin({ organizationName: 'Members Works' });
  const bea = await colleagueJoins(admin, 'Bea');
  const cal = await colleagueJoins(admin, 'Cal');

  await signInUi(page, admin, '/settings/members');
  const table = page.getByRole('table', { name: 'Members' });
  await expect(table.getByText(bea.email)).toBeVisible();
  // The only admin: role and removal disabled, and the screen says why. No Remove on one's own row.
  const myRole = table.getByRole('combobox', { name: `Role of ${admin.name}` });
  await expect(myRole).toBeDisabled();
  await expect(table.getByText('The only admin: make another member admin first.')).toBeVisible();
  await expect(table.getByRole('button', { name: `Remove ${admin.name}` })).toHaveCount(0);
  await shots(page, 'list');

  // Bea becomes an admin: stored, and the only-admin lock is lifted.
  await pick(page, table.getByRole('combobox', { name: `Role of ${bea.email}` }), 'Admin');
  await expect(page.getByText(`${bea.email} is now an admin`)).toBeVisible();
  await expect(myRole).toBeEnabled();
  await expect(table.getByText('The only admin: make another member admin first.')).toHaveCount(0);
  const call = await adminApi(admin);
  const members = await call<{ items: { email: string; role: string }[] }>('GET', `/workspace/${admin.workspaceId}/members`);
  expect(members.items.find((m) => m.email === bea.email)?.role).toBe('admin');

  // Cal is removed after confirming; cancelling first changes nothing.
  await table.getByRole('button', { name: `Remove ${cal.email}` }).click();
  let dialog = page.getByRole('alertdialog', { name: `Remove ${cal.email}?` });
  await expect(dialog.getByText('Their open conversations go back to the queue, unassigned.')).toBeVisible();
  await shots(page, 'remove-confirm');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(table.getByText(cal.email)).toBeVisible();
  await table.getByRole('button', { name: `Remove ${cal.email}` }).click();
  dialog = page.getByRole('alertdialog', { name: `Remove ${cal.email}?` });
  await dialog.getByRole('button', { name: 'Remove member' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`${cal.email} was removed from the workspace`)).toBeVisible();
  await expect(table.getByText(cal.email)).toHaveCount(0);
  const after = await call<{ items: { email: string }[] }>('GET', `/workspace/${admin.workspaceId}/members`);
  expect(after.items.map((m) => m.email)).not.toContain(cal.email);
  // Cal's own session can no longer read the workspace.
  const calls = await adminApi(cal);
  await expect(calls('GET', `/workspace/${admin.workspaceId}/conversations`)).rejects.toThrow(/403/);
});
