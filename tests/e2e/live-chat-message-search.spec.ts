/**
 * Live chat, end to end on the real stack: the workspace message search (from the live-chat header
 * and from the quick switcher) opens the conversation at the chosen message with its words marked.
 */
import { connectNumber, createAdmin, expect, signInUi, stack, test, sandbox } from './support/fixtures';

const customerWrites = sandbox.customerSaysTo;

/** With PARLEY_AGENT_SHOTS=1 the flow also saves the README's screenshots (docs/screenshots/live-chat-agents/). */
async function shot(page: import('@playwright/test').Page, name: string) {
  if (process.env.PARLEY_AGENT_SHOTS !== '1') return;
  for (const width of [1024, 1440] as const) {
    await page.setViewportSize({ width, height: width === 1440 ? 900 : 700 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `docs/screenshots/live-chat-agents/${width}-${name}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('an agent finds a message in any conversation and lands on it', async ({ page }) => {
  test.setTimeout(120_000);
  const admin = await createAdmin({ name: 'Ada Admin' });
  const { number } = await connectNumber(admin);
  const stamp = String(Date.now()).slice(-4);
  await customerWrites(number.phoneNumberId, `1415777${stamp}`, 'The courier left my parcel at the wrong door', 'Eve Customer');
  await customerWrites(number.phoneNumberId, `1415888${stamp}`, 'Hello, do you ship to Lisbon?', 'Frank Buyer');
  await customerWrites(number.phoneNumberId, `1415888${stamp}`, 'Thanks, that is all', 'Frank Buyer');

  await signInUi(page, admin, '/live-chat?tab=open');
  await expect(page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: /Frank Buyer/ })).toBeVisible({ timeout: 15_000 });

  // From the live-chat header: type, the hit shows its contact and the marked word; Enter opens it.
  await page.getByRole('button', { name: 'Search messages' }).click();
  const box = page.getByRole('combobox', { name: 'Search messages' });
  await box.fill('parc');
  const hits = page.getByRole('listbox', { name: 'Messages found' }).getByRole('option');
  await expect(hits).toHaveCount(1);
  await expect(hits.first()).toContainText('Eve Customer');
  await expect(hits.first().locator('mark')).toHaveText('parcel');
  await shot(page, 'message-search');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/live-chat\/[0-9a-f-]{36}/);
  const messages = page.getByRole('region', { name: 'Messages' });
  await expect(messages.locator('mark', { hasText: 'parcel' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Eve Customer' })).toBeVisible();

  // From the quick switcher: "Search messages for …" opens the same search with the words typed.
  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Go to' }).fill('Lisbon');
  const item = page.getByRole('option', { name: /Search messages for “Lisbon”/ });
  await expect(item).toBeVisible();
  await item.click();
  await expect(page.getByRole('combobox', { name: 'Search messages' })).toHaveValue('Lisbon');
  await expect(page.getByRole('listbox', { name: 'Messages found' }).getByRole('option')).toHaveCount(1);
  await page.getByRole('option', { name: /Frank Buyer/ }).click();
  await expect(page.getByRole('heading', { name: 'Frank Buyer' })).toBeVisible();
  await expect(messages.locator('mark', { hasText: 'Lisbon' })).toBeVisible();
});

test('an agent sends reply buttons and a list menu from the composer; WhatsApp gets them and the timeline shows them', async ({ page }) => {
  test.setTimeout(120_000);
  const admin = await createAdmin({ name: 'Ada Admin' });
  const { number } = await connectNumber(admin);
  const waId = `1415999${String(Date.now()).slice(-4)}`;
  await customerWrites(number.phoneNumberId, waId, 'When can you deliver?', 'Gina Customer');
  await signInUi(page, admin, '/live-chat?tab=open');
  await page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: /Gina Customer/ }).click();
  const messages = page.getByRole('region', { name: 'Messages' });
  await expect(messages.getByText('When can you deliver?')).toBeVisible();
  // Opened for the first time: the customer's message is new to this member.
  await expect(messages.getByRole('separator', { name: 'New messages' })).toBeVisible();

  await page.getByRole('button', { name: 'Send buttons or a list' }).click();
  const dialog = page.getByRole('dialog', { name: 'Buttons or a list' });
  await dialog.getByLabel('Message', { exact: true }).fill('Which slot suits you?');
  await dialog.getByRole('button', { name: 'Add button' }).click();
  await dialog.getByLabel('Button 1', { exact: true }).fill('Morning');
  await dialog.getByLabel('Button 2', { exact: true }).fill('Afternoon');
  await shot(page, 'interactive-buttons');
  await dialog.getByRole('button', { name: 'Send buttons' }).click();
  await expect(dialog).toBeHidden();
  const sent = messages.getByRole('article', { name: /Sent reply message/ });
  await expect(sent).toContainText('Which slot suits you?');
  await expect(sent).toContainText('Afternoon');
  // The composer's own text box is left alone (no "cannot be empty" from a submit that was not its own).
  await expect(page.getByText('This field cannot be empty')).toBeHidden();
  // The reply answers what was new.
  await expect(messages.getByRole('separator', { name: 'New messages' })).toBeHidden();

  await page.getByRole('button', { name: 'Send buttons or a list' }).click();
  await dialog.getByRole('radio', { name: 'List menu' }).click();
  await dialog.getByLabel('Message', { exact: true }).fill('Or pick a day');
  await dialog.getByLabel('Menu button', { exact: true }).fill('Days');
  await dialog.getByLabel('Row 1', { exact: true }).fill('Monday');
  await dialog.getByRole('button', { name: 'Add row' }).click();
  await dialog.getByLabel('Row 2', { exact: true }).fill('Tuesday');
  await dialog.getByLabel(/^Row 2 description/).fill('Before 6 pm');
  await dialog.getByRole('button', { name: 'Send list' }).click();
  await expect(dialog).toBeHidden();
  const list = messages.getByRole('article', { name: /Sent list message/ });
  await expect(list).toContainText('Or pick a day');
  await list.getByRole('button', { name: /Days/ }).click();
  await expect(page.getByRole('dialog', { name: 'Days' })).toContainText('Before 6 pm');
  await shot(page, 'interactive-timeline');

  const state = (await (await fetch(`${stack.sandboxOrigin}/_sandbox/state`)).json()) as { sent: { waId: string; type: string; body: { interactive?: { type: string } } }[] };
  const interactive = state.sent.filter((m) => m.waId === waId && m.type === 'interactive').map((m) => m.body.interactive?.type);
  expect(interactive).toEqual(['button', 'list']);
});
