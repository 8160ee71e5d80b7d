/**
 * Bots end to end: an admin builds greeting -> list -> condition on the choice -> collect an e-mail
 * -> handoff on the canvas with the keyboard-friendly controls (palette, step forms, "Next step" pickers),
 * tries it in the preview, deploys it on a sandbox number, and a sandbox customer walks it: the conversation
 * ends assigned to the member with the collected attributes on the contact. Screenshots of the editor and the
 * preview at 1024 and 1440 px go to docs/screenshots when PARLEY_SCREENSHOTS=1.
 */
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { adminApi, connectNumber, createAdmin, expect, signInUi, stack, test } from './support/fixtures';

test.setTimeout(240_000);
const shots = process.env.PARLEY_SCREENSHOTS === '1';

async function screenshot(page: Page, name: string) {
  if (!shots) return;
  for (const width of [1024, 1440]) {
    await page.setViewportSize({ width, height: width === 1024 ? 720 : 900 });
    await page.getByRole('button', { name: 'Fit view', exact: true }).click();
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.resolve('docs/screenshots', width === 1024 ? '1024' : '', `${name}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function customer(phoneNumberId: string, waId: string, message: Record<string, unknown>) {
  const res = await fetch(`${stack.sandboxOrigin}/_sandbox/customers/${encodeURIComponent(waId)}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...message, phoneNumberId, name: 'Eve Customer' }),
  });
  if (!res.ok) throw new Error(`sandbox refused the customer message: ${res.status} ${await res.text()}`);
}

/** Adds a step from the palette after the selected step; its form opens beside the canvas. */
async function addStep(page: Page, kind: string) {
  await page.getByRole('complementary', { name: 'Canvas tools' }).getByRole('button', { name: kind, exact: true }).click();
}

/** Selects a step by its name in the step list. */
async function selectStep(page: Page, name: string | RegExp) {
  await page.getByRole('region', { name: /^Steps/ }).getByRole('button', { name, exact: typeof name === 'string' }).first().click();
}

const inspector = (page: Page) => page.getByRole('complementary', { name: 'Step and preview' });
/** A field by its label ("(optional)" after it or not). */
const labelled = (name: string) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} ?(\\(optional\\))?$`);
const field = (side: Locator, name: string) => side.getByRole('textbox', { name: labelled(name) });
const choose = (side: Locator, name: string) => side.getByRole('combobox', { name: labelled(name) });

test('build a bot on the canvas, preview it, deploy it, and a customer walks it to a human', async ({ page }) => {
  if (process.env.DEBUG_PAGE) page.on('console', (m) => m.type() === 'error' && console.log('[page]', m.text()));
  const admin = await createAdmin({ name: 'Ada Admin' });
  const call = await adminApi(admin);
  const { number, id: accountId, phoneNumber } = await connectNumber(admin);
  for (const a of [
    { name: 'Topic', format: 'text' },
    { name: 'Email', format: 'text' },
  ]) {
    await call('POST', '/attribute', { ...a, type: 'contact', workspaceId: admin.workspaceId });
  }

  await signInUi(page, admin, '/automation');
  await page.getByRole('button', { name: 'New bot' }).first().click();
  await page.getByLabel('Name').fill('Front desk');
  await page.getByRole('button', { name: 'Create bot' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /Front desk/ })).toBeVisible();
  const side = inspector(page);

  // Start cannot be deleted.
  await selectStep(page, 'Start');
  await expect(page.getByRole('button', { name: 'Delete Start' }).first()).toBeDisabled();

  // Greeting.
  await addStep(page, 'Send message');
  await field(side, 'Text 1').fill('Hi! Welcome to Northwind.');
  // List: two items, the choice kept in Topic.
  await addStep(page, 'List');
  await field(side, 'Body').fill('What can we help you with?');
  await choose(side, 'Save the choice in').selectOption({ label: 'Topic (contact, text)' });
  await field(side, 'Item 1').fill('Sales');
  await side.getByRole('button', { name: 'Add item' }).click();
  await field(side, 'Item 2').fill('Support');
  // Limits of spec section 5 are the form's: an item label of 25 characters is refused.
  await field(side, 'Item 2').fill('x'.repeat(25));
  await expect(side.getByText(/at most 24|<=24/i)).toBeVisible();
  await field(side, 'Item 2').fill('Support');

  // Condition on the choice: Sales asks for an e-mail, everything else goes straight to a human.
  await selectStep(page, 'List item · Sales');
  await addStep(page, 'Condition');
  await side.getByRole('button', { name: 'Add branch' }).click();
  await field(side, 'Branch name').fill('Sales');
  await side.getByRole('button', { name: 'Add condition' }).click();
  await choose(side, 'When').selectOption({ label: 'Topic (contact, text)' });
  await field(side, 'Value').fill('Sales');
  await selectStep(page, 'List item · Support');
  await choose(side, 'Next step').selectOption({ label: 'Condition' });

  await selectStep(page, 'Branch · Sales');
  await addStep(page, 'Collect input');
  await field(side, 'Question').fill('Your e-mail, please?');
  await choose(side, 'Save the answer in').selectOption({ label: 'Email (contact, text)' });
  await addStep(page, 'Human handoff');
  await choose(side, 'Assign to').selectOption({ label: 'Ada Admin (admin)' });
  await field(side, 'Message to the customer').fill('Ada will take it from here.');
  await selectStep(page, 'Branch · Default');
  await choose(side, 'Next step').selectOption({ label: 'Human handoff' });

  await expect(page.getByText('Ready to deploy')).toBeVisible();
  await expect(page.getByText('All changes saved')).toBeVisible({ timeout: 15_000 });
  await screenshot(page, '34-bot-canvas');

  // Preview: the same runtime against a simulated customer, nothing written to contacts.
  await side.getByRole('tab', { name: 'Preview' }).click();
  await side.getByRole('button', { name: 'Start preview' }).click();
  const chat = side.getByRole('log', { name: 'Preview conversation' });
  await expect(chat.getByText('Hi! Welcome to Northwind.')).toBeVisible();
  await chat.getByRole('button', { name: 'Choose' }).click();
  await chat.getByRole('option', { name: 'Sales' }).click();
  await expect(chat.getByText('Your e-mail, please?')).toBeVisible();
  // The step the bot waits at is highlighted on the canvas.
  await expect(page.locator('.ring-sky-400\\/70')).toHaveCount(1);
  await screenshot(page, '35-bot-preview');
  await field(side, 'Message as the customer').fill('eve@example.com');
  await side.getByRole('button', { name: 'Send' }).click();
  await expect(chat.getByText('Ada will take it from here.')).toBeVisible();
  const collected = side.getByRole('region', { name: 'Collected attributes' });
  await expect(collected).toContainText('Sales');
  await expect(collected).toContainText('eve@example.com');

  // Connect to the sandbox number and deploy.
  await page.getByLabel('WhatsApp number').selectOption({ label: phoneNumber });
  // The select shows the server's answer (the bot's whatsappAccountId), not only the user's pick.
  await expect(page.getByLabel('WhatsApp number')).toHaveValue(accountId);
  await page.getByRole('button', { name: 'Deploy' }).click();
  await expect(page.getByText('Bot deployed')).toBeVisible();
  await expect(page.getByText('Active', { exact: true })).toBeVisible();

  // A customer walks it on WhatsApp (the sandbox): hello, picks Sales, types an e-mail.
  const waId = `1415556${String(Date.now()).slice(-6)}`;
  await customer(number.phoneNumberId, waId, { type: 'text', text: 'hello' });
  // What the bot sent to this customer on this number (the sandbox keeps every number's messages).
  const sentTo = async (text: string) =>
    expect
      .poll(
        async () => {
          const { sent } = (await (await fetch(`${stack.sandboxOrigin}/_sandbox/state`)).json()) as { sent: { waId: string; phoneNumberId: string; body: unknown }[] };
          return JSON.stringify(sent.filter((m) => m.waId === waId && m.phoneNumberId === number.phoneNumberId).map((m) => m.body));
        },
        { timeout: 20_000 },
      )
      .toContain(text);
  await sentTo('What can we help you with?');
  await customer(number.phoneNumberId, waId, { type: 'list_reply', index: 0 });
  await sentTo('Your e-mail, please?');
  await customer(number.phoneNumberId, waId, { type: 'text', text: 'eve@example.com' });
  await sentTo('Ada will take it from here.');

  // Assigned to Ada, with the answers on the contact.
  type Conv = { id: string; Contact: { attributes: Record<string, unknown>; phoneNumber: string | null } };
  const list = await call<{ items: Conv[] }>('GET', `/workspace/${admin.workspaceId}/conversations?tab=me`);
  const mine = list.items.find((c) => c.Contact.phoneNumber?.endsWith(waId.slice(-4)));
  expect(mine, 'the conversation is assigned to Ada').toBeTruthy();
  expect(mine!.Contact.attributes).toMatchObject({ Topic: 'Sales', Email: 'eve@example.com' });
});
