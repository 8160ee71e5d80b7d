import { adminApi, createAdmin, expect, signInUi, stack, test } from './support/fixtures';

test('an existing user accepts an invitation after signing in, then switches between workspaces', async ({ page }) => {
  const host = await createAdmin({ organizationName: 'Host Workspace' });
  const guest = await createAdmin({ organizationName: 'Guest Home' });
  const call = await adminApi(host);
  await call('POST', '/invitee', { email: guest.email, role: 'agent', workspaceId: host.workspaceId });
  const invites = await call<{ items: { id: string; email: string; token: string }[] }>('GET', `/workspace/${host.workspaceId}/invitees`);
  const invite = invites.items.find((i) => i.email === guest.email)!;

  await page.goto(`${stack.webUrl}/invite/${invite.token}`);
  await expect(page.getByRole('heading', { name: 'Join Host Workspace' })).toBeVisible();
  await page.getByRole('link', { name: 'Sign in to accept' }).click();
  await expect(page).toHaveURL(/\/login\?redirect=/);
  await page.getByLabel('Email').fill(guest.email);
  await page.getByLabel('Password', { exact: true }).fill(guest.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`/invite/${invite.token}$`));
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(page).toHaveURL(/\/live-chat\?tab=closed/);
  await expect(page.getByRole('button', { name: /^Host Workspace.*switch workspace$/ })).toBeVisible();

  // The role is per workspace: an agent here.
  await page.goto('/settings/members');
  await expect(page.getByRole('button', { name: 'Invite member' })).toHaveCount(0);

  // Switch back home, where the guest is admin.
  await page.getByRole('button', { name: /^Host Workspace.*switch workspace$/ }).click();
  await page.getByRole('menuitem', { name: 'Guest Home' }).click();
  await expect(page.getByRole('button', { name: /^Guest Home.*switch workspace$/ })).toBeVisible();
  await page.goto('/settings/members');
  await expect(page.getByRole('button', { name: 'Invite member' })).toBeVisible();

  // The invitation is used now.
  await page.goto(`/invite/${invite.token}`);
  await expect(page.getByRole('heading', { name: 'Invitation already used' })).toBeVisible();
});

test('the profile name is saved with the identity and shown in the sidebar', async ({ page }) => {
  const admin = await createAdmin({ name: 'Old Name' });
  await signInUi(page, admin, '/settings/profile');
  await page.getByLabel('Display name').fill('Ada K. Lovelace');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Ada K\. Lovelace.*account menu$/ })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Display name')).toHaveValue('Ada K. Lovelace');
});
