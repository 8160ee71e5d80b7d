/**
 * Screenshots of the agents' screens (presence, routing, search) at 1024 and 1440 px (written only with PARLEY_SCREENSHOTS=1, like
 * screenshots.spec.ts): the conversation header with the contact panel open, the panel taking the list's place
 * at 1024, waiting times and the unread badge, the quick switcher, the shortcut sheet and the webhook card.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { connectNumber, createAdmin, expect, signInUi, stack, test, sandbox } from './support/fixtures';

const dir = path.resolve('docs/screenshots/live-chat-agents');
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(dir, `${name}.png`) });

const customerWrites = sandbox.customerSaysTo;

test.skip(process.env.PARLEY_SCREENSHOTS !== '1', 'screenshots are refreshed on request (PARLEY_SCREENSHOTS=1)');
// The first load compiles the renderer on a shared machine: give navigations room.
test.use({ navigationTimeout: 120_000 });
test.setTimeout(300_000);

test('agents screens at 1440 and 1024 px', async ({ page }) => {
  const admin = await createAdmin({ name: 'Ada Lovelace-Byron' });
  const { number } = await connectNumber(admin);
  const s = String(Date.now()).slice(-4);
  await customerWrites(number.phoneNumberId, `1415552${s}`, 'Is the order shipped yet?', 'Grace Brewster Murray Hopper');
  await customerWrites(number.phoneNumberId, `1415553${s}`, 'Can I change my address?', 'Alan Mathison Turing');
  await customerWrites(number.phoneNumberId, `1415554${s}`, 'Thanks!', 'Katherine Johnson');

  await page.setViewportSize({ width: 1440, height: 900 });
  await signInUi(page, admin, '/audience');
  await expect(page.getByRole('link', { name: /Live chat.*3 unread/ })).toBeVisible({ timeout: 15_000 });
  await shot(page, '1440-unread-badge');

  await page.goto(`${stack.webUrl}/live-chat?tab=open`);
  const list = page.getByRole('navigation', { name: 'Conversations' });
  await list.getByRole('link', { name: /Grace Brewster/ }).click();
  await page.getByRole('button', { name: /^Assign/ }).click();
  await page.getByRole('menuitem', { name: 'Assign to me' }).click();
  await expect(page.getByRole('button', { name: /Assign \(currently Ada/ })).toBeVisible();
  if (!(await page.getByRole('complementary', { name: 'Contact' }).isVisible())) await page.getByRole('button', { name: 'Show contact details' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Grace Brewster Murray Hopper' })).toBeVisible();
  await shot(page, '1440-conversation-panel-open');

  await page.getByRole('button', { name: 'Longest waiting' }).click();
  await expect(page.getByTestId('waiting-since').first()).toBeVisible();
  await shot(page, '1440-longest-waiting');
  await page.getByRole('button', { name: 'Longest waiting' }).click();

  await page.getByRole('region', { name: 'Messages' }).click();
  await page.keyboard.press('Shift+?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await shot(page, '1440-shortcut-sheet');
  await page.keyboard.press('Escape');

  await page.goto(`${stack.webUrl}/settings/whatsapp`);
  await expect(page.getByText('Webhook for Meta')).toBeVisible();
  await shot(page, '1440-webhook-setup');

  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto(`${stack.webUrl}/live-chat?tab=open`);
  await list.getByRole('link', { name: /Alan Mathison/ }).click();
  await shot(page, '1024-conversation');
  await page.getByRole('button', { name: 'Show contact details' }).click();
  await expect(page.getByRole('complementary', { name: 'Contact' })).toBeVisible();
  await shot(page, '1024-conversation-panel-open');
  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Go to' }).fill('kath');
  await expect(page.getByRole('option', { name: /Katherine Johnson/ }).first()).toBeVisible();
  await shot(page, '1024-quick-switcher');
});
