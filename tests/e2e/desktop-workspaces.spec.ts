/**
 * The desktop app end to end, a user in two workspaces: switching in the app without signing out, the second
 * workspace synced into its own cache, offline browsing and search showing only the current workspace,
 * notifications following it, and switching back resuming without a full sync. The built renderer in Chromium
 * with `window.desktop` wired to the real main-process core (tests/e2e/support/desktop.ts). Run under a keychain:
 * `keyctl session - npx playwright test -c tests/e2e/playwright.config.ts desktop-workspaces.spec.ts`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { adminApi, connectNumber, createAdmin, expect, stack, test, sandbox } from './support/fixtures';
import { type DesktopApp, launchDesktopApp, serverGate } from './support/desktop';

const customerWrites = sandbox.customerSaysTo;

test('desktop: switching workspaces without signing out, each in its own cache, and back without a full sync', async ({ browser }) => {
  test.setTimeout(300_000);
  const admin = await createAdmin({ name: 'Wren Switch', organizationName: 'Harbour Shop' });
  const harbour = admin.workspaceId;
  const { number: harbourNumber } = await connectNumber(admin);
  const call = await adminApi(admin);
  // The second workspace (creating it makes it the current one), with its own number; the app starts in the first.
  const meadow = (await call<{ id: string }>('POST', '/workspace', { name: 'Meadow Shop' })).id;
  const { number: meadowNumber } = await connectNumber({ ...admin, workspaceId: meadow });
  await call('PATCH', '/auth/me', { currentWorkspaceId: harbour });
  const suffix = String(Date.now()).slice(-4);
  await customerWrites(harbourNumber.phoneNumberId, `1415561${suffix}`, 'Is the harbour tour on today?', 'Anchor Customer');
  await customerWrites(meadowNumber.phoneNumberId, `1415562${suffix}`, 'Do you sell meadow honey?', 'Meadow Customer');

  const api = new URL(stack.apiUrl);
  const gate = await serverGate({ host: api.hostname, port: Number(api.port) });
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-desktop-ws-e2e-'));
  const app: DesktopApp = await launchDesktopApp(browser, {
    userDataDir,
    keychainService: `parley-desktop-ws-e2e-${randomUUID()}`,
    serverUrl: gate.url,
    emulatorHost: stack.emulatorHost,
  });
  const inbox = () => app.page.getByRole('navigation', { name: 'Conversations' });
  const switcher = (name: string) => app.page.getByRole('button', { name: new RegExp(`^${name}.*switch workspace$`) });
  const live = (workspaceId: string) =>
    expect.poll(() => `${app.core.syncStatus().workspaceId} ${app.core.syncStatus().state}`, { timeout: 30_000 }).toBe(`${workspaceId} live`);
  const cacheFiles = () => fs.readdirSync(path.join(userDataDir, 'cache'), { recursive: true }).map(String).filter((f) => f.endsWith('.sqlite'));

  await test.step('sign in: the first workspace syncs', async () => {
    await app.page.goto(`${app.url}#/login`);
    await app.page.getByLabel('Email').fill(admin.email);
    await app.page.getByLabel('Password', { exact: true }).fill(admin.password);
    await app.page.getByRole('button', { name: 'Sign in' }).click();
    await expect(switcher('Harbour Shop')).toBeVisible();
    await live(harbour);
    await app.page.goto(`${app.url}#/live-chat?tab=open`);
    await expect(inbox().getByRole('link', { name: /Anchor Customer/ })).toBeVisible();
    // a live event after the sync: the cache knows the sequence to resume from
    await customerWrites(harbourNumber.phoneNumberId, `1415563${suffix}`, 'Can I bring a dog on the boat?', 'Bosun Customer');
    await expect(inbox().getByRole('link', { name: /Bosun Customer/ })).toBeVisible({ timeout: 20_000 });
    await expect.poll(() => app.core.workspaceCache()?.lastSeq ?? 0).toBeGreaterThan(0);
  });
  const harbourSyncedAt = app.core.workspaceCache()!.lastSyncedAt;

  await test.step('switch to the second workspace: it syncs into its own cache and is all the inbox shows', async () => {
    await switcher('Harbour Shop').click();
    await app.page.getByRole('menuitem', { name: 'Meadow Shop' }).click();
    await expect(switcher('Meadow Shop')).toBeVisible();
    await live(meadow);
    expect(cacheFiles().sort()).toEqual(expect.arrayContaining([expect.stringContaining(`workspace-${harbour}.sqlite`), expect.stringContaining(`workspace-${meadow}.sqlite`)]));
    await app.page.getByRole('tab', { name: /^Open/ }).click();
    await expect(inbox().getByRole('link', { name: /Meadow Customer/ })).toBeVisible();
    await expect(inbox().getByRole('link', { name: /Anchor Customer/ })).toHaveCount(0);
  });

  await test.step('notifications follow the current workspace', async () => {
    const shown = app.notifications.shown.length;
    await customerWrites(harbourNumber.phoneNumberId, `1415564${suffix}`, 'Any seats left on the evening tour?', 'Harbour Late');
    await customerWrites(meadowNumber.phoneNumberId, `1415565${suffix}`, 'Is the farm shop open on Sunday?', 'Meadow Late');
    await expect(inbox().getByRole('link', { name: /Meadow Late/ })).toBeVisible({ timeout: 20_000 });
    await expect.poll(() => app.notifications.shown.slice(shown).map((n) => `${n.title} ${n.body}`).join('|'), { timeout: 20_000 }).toContain('Meadow Late');
    expect(app.notifications.shown.slice(shown).map((n) => `${n.title} ${n.body}`).join('|')).not.toContain('Harbour Late');
  });

  await test.step('offline: browsing and contact search show only the current workspace', async () => {
    await gate.down();
    await expect(app.page.getByTestId('offline-banner')).toBeVisible({ timeout: 30_000 });
    await app.page.goto(`${app.url}#/live-chat?tab=open`);
    await expect(inbox().getByRole('link', { name: /Meadow Customer/ })).toBeVisible();
    await expect(inbox().getByRole('link', { name: /Anchor Customer|Harbour Late/ })).toHaveCount(0);
    await app.page.getByRole('link', { name: 'Audience' }).click();
    await app.page.getByLabel('Search contacts').fill('customer');
    await expect(app.page.getByText('Meadow Customer')).toBeVisible();
    await expect(app.page.getByText('Anchor Customer')).toHaveCount(0);
    await gate.up();
    await expect(app.page.getByTestId('offline-banner')).toHaveCount(0, { timeout: 30_000 });
  });

  await test.step('switch back: what happened meanwhile is there, without a full sync', async () => {
    await app.page.getByRole('link', { name: 'Live chat' }).click();
    await switcher('Meadow Shop').click();
    await app.page.getByRole('menuitem', { name: 'Harbour Shop' }).click();
    await expect(switcher('Harbour Shop')).toBeVisible();
    await live(harbour);
    await app.page.getByRole('tab', { name: /^Open/ }).click();
    await expect(inbox().getByRole('link', { name: /Harbour Late/ })).toBeVisible({ timeout: 20_000 });
    await expect(inbox().getByRole('link', { name: /Anchor Customer/ })).toBeVisible();
    await expect(inbox().getByRole('link', { name: /Meadow/ })).toHaveCount(0);
    // the cache caught up from its last sequence: its full sync's time is the first one's
    expect(app.core.workspaceCache()!.lastSyncedAt).toBe(harbourSyncedAt);
  });

  await app.quit();
  await gate.down();
  fs.rmSync(userDataDir, { recursive: true, force: true });
});
