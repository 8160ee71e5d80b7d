/**
 * Live chat end to end: a simulated customer writes through the WhatsApp sandbox (signed webhook to the server),
 * the agent sees it arrive without reloading, replies, assigns and closes.
 */
import { connectNumber, createAdmin, expect, signInUi, stack, test, sandbox } from './support/fixtures';

const customerWrites = sandbox.customerSaysTo;

test('a customer writes, the agent sees it live, replies, assigns and closes', async ({ page }) => {
  const admin = await createAdmin({ name: 'Ada Admin' });
  const { number } = await connectNumber(admin);
  const waId = `1415555${String(Date.now()).slice(-4)}`;

  await signInUi(page, admin, '/live-chat?tab=open');
  const list = page.getByRole('navigation', { name: 'Conversations' });
  await expect(page.getByText('Nothing here')).toBeVisible();

  // The customer writes: the conversation appears in the open tab without a reload.
  await customerWrites(number.phoneNumberId, waId, 'Hi! Where is my order #1042?', 'Eve Customer');
  const row = list.getByRole('link', { name: /Eve Customer/ });
  await expect(row).toBeVisible({ timeout: 15_000 });
  await expect(row).toContainText('Where is my order #1042?');
  await expect(page.getByRole('tab', { name: 'Open (1)' })).toBeVisible();

  await row.click();
  const messages = page.getByRole('region', { name: 'Messages' });
  await expect(messages.getByText('Hi! Where is my order #1042?')).toBeVisible();

  // A second message arrives in the open conversation while the agent reads it.
  await customerWrites(number.phoneNumberId, waId, 'It was due yesterday.', 'Eve Customer');
  await expect(messages.getByText('It was due yesterday.')).toBeVisible({ timeout: 15_000 });

  // Reply: it goes out through WhatsApp and its ticks follow the statuses.
  await page.getByRole('textbox', { name: 'Message' }).fill('Sorry Eve, it ships today.');
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  const reply = messages.getByRole('article').filter({ hasText: 'Sorry Eve, it ships today.' });
  await expect(reply).toBeVisible();
  await expect(reply.getByRole('img', { name: /Sent|Delivered|Read/ })).toBeVisible({ timeout: 15_000 });
  await expect
    .poll(async () => {
      const state = (await (await fetch(`${stack.sandboxOrigin}/_sandbox/state`)).json()) as { sent: unknown[] };
      return JSON.stringify(state.sent);
    })
    .toContain('Sorry Eve, it ships today.');

  // Assign to me: the header and the timeline say so, and the Me tab counts it.
  await page.getByRole('button', { name: /^Assign/ }).click();
  await page.getByRole('menuitem', { name: 'Assign to me' }).click();
  await expect(page.getByRole('button', { name: 'Assign (currently Ada Admin)' })).toBeVisible();
  await expect(messages.getByText('Assigned to Ada Admin by Ada Admin')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Me (1)' })).toBeVisible();

  // Close: it leaves the open tab and shows under closed.
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Reopen' })).toBeVisible();
  await expect(messages.getByText('Closed by Ada Admin')).toBeVisible();
  await expect(list.getByRole('link', { name: /Eve Customer/ })).toHaveCount(0);
  await page.getByRole('tab', { name: /Closed/ }).click();
  await expect(page).toHaveURL(/tab=closed/);
  await expect(list.getByRole('link', { name: /Eve Customer/ })).toBeVisible();
});
