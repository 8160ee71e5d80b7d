/**
 * Bots yield to people, seen by an agent in live chat: once the agent answered a bot's conversation, the
 * customer's next message reaches the agent and the bot stays quiet; a session that gives up (answers it cannot
 * use) leaves the conversation marked "Needs a person" in the list and the header, until a member takes it.
 */
import type { Page } from '@playwright/test';
import { adminApi, connectNumber, createAdmin, expect, sandbox, signInUi, stack, test } from './support/fixtures';

test.setTimeout(150_000);

const pos = { x: 0, y: 0 };
const edge = (source: string, target: string) => ({ id: `${source}-${target}`, source, target });

/** Greeting, then a list the customer must pick from (text answers are refused, and after a few the bot gives up). */
const canvas = {
  nodes: [
    { id: 'start', type: 'StartNode', position: pos, data: { label: 'Start' }, deletable: false },
    { id: 'hello', type: 'SendMessageNode', position: { x: 0, y: 150 }, data: { label: 'Hello', messageBlocks: [{ id: 'b1', type: 'text', text: 'Welcome to the yard' }] } },
    { id: 'menu', type: 'ListNode', position: { x: 0, y: 300 }, data: { label: 'Menu', body: 'Sales or support?', buttonName: 'Options', errorMessage: 'Please pick an option' } },
    { id: 'sales', type: 'ListButtonNode', position: { x: -150, y: 450 }, data: { label: 'Sales' } },
    { id: 'support', type: 'ListButtonNode', position: { x: 150, y: 450 }, data: { label: 'Support' } },
    { id: 'bye', type: 'SendMessageNode', position: { x: 0, y: 600 }, data: { label: 'Bye', messageBlocks: [{ id: 'b2', type: 'text', text: 'Someone will write soon' }] } },
  ],
  edges: [edge('start', 'hello'), edge('hello', 'menu'), edge('menu', 'sales'), edge('menu', 'support'), edge('sales', 'bye'), edge('support', 'bye')],
};

async function botOnNewNumber() {
  const admin = await createAdmin({ name: 'Ada Admin', organizationName: 'Yard Shop' });
  const call = await adminApi(admin);
  const { id: accountId, number } = await connectNumber(admin);
  const bot = await call<{ id: string }>('POST', '/bot', { workspaceId: admin.workspaceId, title: 'Yard bot' });
  await call('PATCH', `/bot/${bot.id}`, { rfInstance: canvas });
  await call('PATCH', `/bot/${bot.id}/connectWaba`, { wabaAccountId: accountId });
  await call('PATCH', `/bot/${bot.id}`, { isActive: true });
  return { admin, number };
}

async function customerWrites(phoneNumberId: string, waId: string, text: string) {
  const res = await fetch(`${stack.sandboxOrigin}/_sandbox/customers/${encodeURIComponent(waId)}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'text', text, name: 'Eve Customer', phoneNumberId }),
  });
  if (!res.ok) throw new Error(`sandbox refused the customer message: ${res.status} ${await res.text()}`);
}

/** What the bot (or anyone) sent this customer through WhatsApp, as JSON text per message. */
async function sentTo(waId: string): Promise<string[]> {
  const state = (await sandbox.state()) as { sent: { waId: string; body: unknown }[] };
  return state.sent.filter((m) => m.waId === waId).map((m) => JSON.stringify(m.body));
}
const greetings = async (waId: string) => (await sentTo(waId)).filter((b) => b.includes('Welcome to the yard')).length;

const conversationHeader = (page: Page) => page.locator('header').filter({ has: page.getByRole('heading', { level: 1, name: /Eve Customer/ }) });

async function openConversation(page: Page, tab: RegExp) {
  await page.getByRole('tab', { name: tab }).click();
  const row = page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: /Eve Customer/ });
  await expect(row).toBeVisible({ timeout: 20_000 });
  await row.click();
  return row;
}

test('an agent answers a bot’s conversation and the customer’s next message reaches the agent, not the bot', async ({ page }) => {
  const { admin, number } = await botOnNewNumber();
  const waId = `1650777${String(Date.now()).slice(-4)}`;
  await customerWrites(number.phoneNumberId, waId, 'hi');
  await expect.poll(() => greetings(waId), { timeout: 20_000 }).toBe(1);

  await signInUi(page, admin, '/live-chat?tab=open');
  await openConversation(page, /^Open/);
  const messages = page.getByRole('region', { name: 'Messages' });
  await expect(messages.getByText('Welcome to the yard')).toBeVisible();
  await page.getByRole('textbox', { name: 'Message' }).fill('Ada here, how can I help?');
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect.poll(async () => (await sentTo(waId)).some((b) => b.includes('Ada here')), { timeout: 20_000 }).toBe(true);

  await customerWrites(number.phoneNumberId, waId, 'I need a quote for 3 pallets');
  await expect(messages.getByText('I need a quote for 3 pallets')).toBeVisible({ timeout: 20_000 });
  // The bot neither greets again nor re-asks its question: the customer's message was the agent's to answer.
  const countAfter = (await sentTo(waId)).length;
  await page.waitForTimeout(2_000);
  expect(await sentTo(waId)).toHaveLength(countAfter);
  expect(await greetings(waId)).toBe(1);
  expect((await sentTo(waId)).filter((b) => b.includes('Please pick an option'))).toHaveLength(0);
  await expect(conversationHeader(page).getByText('Needs a person', { exact: true })).toHaveCount(0);
});

test('a bot session that gives up shows “Needs a person” in live chat until a member takes it', async ({ page }) => {
  const { admin, number } = await botOnNewNumber();
  const waId = `1650778${String(Date.now()).slice(-4)}`;
  await customerWrites(number.phoneNumberId, waId, 'hi');
  await expect.poll(() => greetings(waId), { timeout: 20_000 }).toBe(1);
  // Answers the list cannot use, until the bot gives up.
  for (let i = 0; i < 4; i++) {
    await customerWrites(number.phoneNumberId, waId, `no idea ${i}`);
    await expect.poll(async () => (await sentTo(waId)).filter((b) => b.includes('Please pick an option')).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(Math.min(i + 1, 3));
  }

  await signInUi(page, admin, '/live-chat?tab=open');
  const row = await openConversation(page, /^Open/);
  await expect(row.getByText('Needs a person', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(conversationHeader(page).getByText('Needs a person', { exact: true })).toBeVisible();

  // Another message from the customer does not wake the bot.
  const before = (await sentTo(waId)).length;
  await customerWrites(number.phoneNumberId, waId, 'hello?');
  await expect(page.getByRole('region', { name: 'Messages' }).getByText('hello?')).toBeVisible({ timeout: 20_000 });
  await page.waitForTimeout(2_000);
  expect(await sentTo(waId)).toHaveLength(before);

  // A member takes it: the mark goes.
  await page.getByRole('button', { name: /^Assign/ }).click();
  await page.getByRole('menuitem', { name: 'Assign to me' }).click();
  await expect(page.getByRole('button', { name: 'Assign (currently Ada Admin)' })).toBeVisible();
  await expect(conversationHeader(page).getByText('Needs a person', { exact: true })).toHaveCount(0, { timeout: 20_000 });
  await expect(row.getByText('Needs a person', { exact: true })).toHaveCount(0);
});
