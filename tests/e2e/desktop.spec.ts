/**
 * The desktop app end to end: the built renderer (out/renderer, served as app://parley/ serves it) in Chromium with `window.desktop` wired (tests/e2e/support/desktop.ts)
 * to the real main-process core in this process (OS keychain, SQLite cache, notifications recorded), against the
 * real local stack. Run under a keychain: `keyctl session - npx playwright test -c tests/e2e/playwright.config.ts desktop.spec.ts`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { authUserKey } from '../../src/main/identity/identity';
import { osKeychain } from '../../src/main/identity/keychain';
import { connectNumber, createAdmin, expect, stack, test, sandbox } from './support/fixtures';
import { type DesktopApp, launchDesktopApp, serverGate } from './support/desktop';

const screenshots = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../docs/screenshots');

const customerWrites = sandbox.customerSaysTo;

test('desktop: keychain session across a restart, notification to its conversation, offline browsing, catch-up, sign-out wipe', async ({ browser }) => {
  test.setTimeout(300_000);
  const admin = await createAdmin({ name: 'Dana Desk' });
  const { number } = await connectNumber(admin);
  const suffix = String(Date.now()).slice(-4);
  await customerWrites(number.phoneNumberId, `1415556${suffix}`, 'Is the blue kettle back in stock?', 'Kettle Customer');

  const api = new URL(stack.apiUrl);
  const gate = await serverGate({ host: api.hostname, port: Number(api.port) });
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-desktop-e2e-'));
  const keychainService = `parley-desktop-e2e-${randomUUID()}`;
  const launch = () =>
    launchDesktopApp(browser, { userDataDir, keychainService, serverUrl: gate.url, emulatorHost: stack.emulatorHost });
  const inbox = (app: DesktopApp) => app.page.getByRole('navigation', { name: 'Conversations' });
  let app = await launch();

  await test.step('sign in through main', async () => {
    await app.page.goto(`${app.url}#/login`);
    await app.page.getByLabel('Email').fill(admin.email);
    await app.page.getByLabel('Password', { exact: true }).fill(admin.password);
    await app.page.getByRole('button', { name: 'Sign in' }).click();
    await expect(app.page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    // main synced the workspace into the cache
    await expect.poll(() => app.core.syncStatus().state, { timeout: 30_000 }).toBe('live');
    // main's CSP header names only the server it was given: the page reaches it, and no other
    const reach = (url: string) => app.page.evaluate((u) => fetch(u).then((r) => r.status, () => 'refused'), `${url}/healthz`);
    expect(await reach(gate.url)).toBe(200);
    expect(await reach(stack.apiUrl)).toBe('refused');
    // the page is the app's own scheme's answer: index.html's meta policy narrowed to that server too
    const meta = await app.page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(meta).toContain(`connect-src 'self' ${gate.url}`);
    expect(meta).not.toContain(':*');
  });

  await test.step('restart: a new page and a new core over the same keychain, still signed in', async () => {
    await app.quit();
    app = await launch();
    await app.page.goto(`${app.url}#/live-chat?tab=open`);
    await expect(inbox(app).getByRole('link', { name: /Kettle Customer/ })).toBeVisible({ timeout: 20_000 });
    await expect(app.page.getByRole('heading', { name: 'Sign in to Parley' })).toHaveCount(0);
    await expect.poll(() => app.core.syncStatus().state, { timeout: 30_000 }).toBe('live');
  });

  let notifiedConversation = '';
  await test.step('a customer writes: a notification is recorded, its click opens the conversation', async () => {
    await customerWrites(number.phoneNumberId, `1415557${suffix}`, 'Hello, can I change my delivery address?', 'Nora Notify');
    await expect.poll(() => app.notifications.shown.map((n) => n.kind), { timeout: 20_000 }).toContain('newConversation');
    const index = app.notifications.shown.findIndex((n) => n.kind === 'newConversation');
    const notice = app.notifications.shown[index];
    expect(`${notice.title} ${notice.body}`).toContain('Nora Notify');
    notifiedConversation = notice.conversationId;
    await app.page.goto(`${app.url}#/settings/profile`);
    app.notifications.click(index);
    await expect(app.page).toHaveURL(new RegExp(`#/live-chat/${notifiedConversation}`));
    await expect(app.page.getByRole('region', { name: 'Messages' }).getByText('Hello, can I change my delivery address?')).toBeVisible();
    await app.page.screenshot({ path: path.join(screenshots, 'desktop-notification-target.png') });
  });

  await test.step('the server goes away: offline banner, cached conversations, messages and contact search', async () => {
    await gate.down();
    await expect(app.page.getByTestId('offline-banner')).toBeVisible({ timeout: 30_000 });
    await app.page.goto(`${app.url}#/live-chat?tab=open`);
    const kettle = inbox(app).getByRole('link', { name: /Kettle Customer/ });
    await expect(kettle).toBeVisible();
    await expect(inbox(app).getByRole('link', { name: /Nora Notify/ })).toBeVisible();
    await kettle.click();
    await expect(app.page.getByRole('region', { name: 'Messages' }).getByText('Is the blue kettle back in stock?')).toBeVisible();
    await expect(app.page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
    await app.page.getByRole('textbox', { name: 'Message' }).fill('Checking the stock for you');
    await app.page.screenshot({ path: path.join(screenshots, 'desktop-offline.png') });

    await app.page.getByRole('link', { name: 'Audience' }).click();
    // any word of the name, not only its start
    await app.page.getByLabel('Search contacts').fill('customer');
    await expect(app.page.getByText('Kettle Customer')).toBeVisible();
    await expect(app.page.getByText('Nora Notify')).toHaveCount(0);
  });

  await test.step('the server comes back: the banner goes and what happened meanwhile appears, without a reload', async () => {
    await app.page.getByRole('link', { name: 'Live chat' }).click();
    await app.page.getByRole('tab', { name: /^Open/ }).click();
    await expect(inbox(app).getByRole('link', { name: /Kettle Customer/ })).toContainText('Is the blue kettle back in stock?');
    // The customer writes while the app cannot reach the server.
    await customerWrites(number.phoneNumberId, `1415556${suffix}`, 'Any news about the kettle?', 'Kettle Customer');
    await gate.up();
    await expect(app.page.getByTestId('offline-banner')).toHaveCount(0, { timeout: 30_000 });
    await expect(inbox(app).getByRole('link', { name: /Kettle Customer/ })).toContainText('Any news about the kettle?', { timeout: 20_000 });
  });

  await test.step('sign-out leaves nothing in the keychain or the cache', async () => {
    const uid = (await app.core.invoke('identity.currentUser', undefined, { url: app.url, isMainFrame: true })) as { ok: true; value: { uid: string } };
    await app.page.getByRole('button', { name: /account menu$/ }).click();
    await app.page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(app.page.getByRole('heading', { name: 'Sign in to Parley' })).toBeVisible();
    expect(fs.existsSync(path.join(userDataDir, 'cache', uid.value.uid))).toBe(false);
    expect(await osKeychain(keychainService).get(authUserKey('demo-parley-local-key', 'parley-desktop-e2e'))).toBeNull();
  });

  await app.quit();
  await gate.down();
  fs.rmSync(userDataDir, { recursive: true, force: true });
});
