/**
 * Live chat for agents who live in it, end to end on the real stack: a photo with a caption
 * from the composer, a canned reply whose variables come from the contact (an empty one flagged), a note that
 * mentions a colleague who sees it in their mentions view, and search inside a conversation.
 */
import { randomUUID } from 'node:crypto';
import { adminApi, connectNumber, createAdmin, expect, signInUi, stack, test, verifyAddress, sandbox } from './support/fixtures';

const customerWrites = sandbox.customerSaysTo;

const sentToWhatsApp = async () => JSON.stringify(((await (await fetch(`${stack.sandboxOrigin}/_sandbox/state`)).json()) as { sent: unknown[] }).sent);
/** With PARLEY_AGENT_SHOTS=1 the flow also saves the README's screenshots (docs/screenshots/agents-*.png). */
async function shot(page: import('@playwright/test').Page, name: string, width: 1024 | 1440) {
  if (process.env.PARLEY_AGENT_SHOTS !== '1') return;
  await page.setViewportSize({ width, height: width === 1440 ? 900 : 700 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: `docs/screenshots/agents-${name}-${width}.png` });
}

const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d1a9ab0000000049454e44ae426082', 'hex');

test('an agent sends a photo, a canned reply with a variable, searches the conversation and mentions a colleague', async ({ browser, page }) => {
  // Four flows and two members in one story: longer than one flow's minute on a loaded machine.
  test.setTimeout(240_000);
  const admin = await createAdmin({ name: 'Ada Admin' });
  const { number } = await connectNumber(admin);
  const call = await adminApi(admin);
  // A colleague who joins by invitation (the one the note will mention).
  const colleague = { email: `grace-${randomUUID().slice(0, 8)}@northwind-e2e.com`, password: 'parley-e2e-pass-2' };
  await call('POST', '/invitee', { email: colleague.email, role: 'agent', workspaceId: admin.workspaceId });
  const invites = await call<{ items: { email: string; token: string }[] }>('GET', `/workspace/${admin.workspaceId}/invitees`);
  const token = invites.items.find((i) => i.email === colleague.email)!.token;
  const joined = await fetch(`${stack.apiUrl}/auth/sign-up/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(colleague) });
  expect(joined.status).toBe(201);
  await verifyAddress(colleague.email);
  await call('POST', '/canned-reply', { workspaceId: admin.workspaceId, scope: 'workspace', shortcut: 'shipping', text: 'Hi {{name}}, your parcel leaves {{city}} today.' });

  const waId = `1415666${String(Date.now()).slice(-4)}`;
  await customerWrites(number.phoneNumberId, waId, 'Where is my parcel?', 'Eve Customer');
  await customerWrites(number.phoneNumberId, waId, 'Can you send a photo of the label?', 'Eve Customer');

  await signInUi(page, admin, '/live-chat?tab=open');
  await page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: /Eve Customer/ }).click();
  const messages = page.getByRole('region', { name: 'Messages' });
  await expect(messages.getByText('Can you send a photo of the label?')).toBeVisible();

  // A photo, previewed with its caption before it goes.
  await page.getByTestId('composer-file-input').setInputFiles({ name: 'label.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByTestId('attachment-preview')).toContainText('label.png');
  await expect(page.getByRole('img', { name: 'Preview of label.png' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Caption' }).fill('Here is the label');
  await shot(page, 'attachment', 1440);
  await shot(page, 'attachment', 1024);
  await page.getByRole('textbox', { name: 'Caption' }).press('Enter');
  const photo = messages.getByRole('article', { name: /Sent image message/ });
  await expect(photo).toBeVisible({ timeout: 15_000 });
  await expect(photo).toContainText('Here is the label');
  await expect.poll(sentToWhatsApp).toContain('Here is the label');

  // A canned reply by keyboard: / and the shortcut, Enter; {{name}} filled, the empty {{city}} flagged.
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.pressSequentially('/ship');
  await expect(page.getByRole('listbox', { name: 'Canned replies' }).getByRole('option', { name: /\/shipping/ })).toBeVisible();
  await box.press('Enter');
  await expect(box).toHaveValue('Hi Eve Customer, your parcel leaves {{city}} today.');
  await expect(page.getByTestId('canned-missing')).toContainText('no value for {{city}}');
  await shot(page, 'canned', 1024);
  await shot(page, 'canned', 1440);
  await box.fill('Hi Eve Customer, your parcel leaves Lisbon today.');
  await box.press('Enter');
  await expect(messages.getByText('Hi Eve Customer, your parcel leaves Lisbon today.')).toBeVisible();
  await expect.poll(sentToWhatsApp).toContain('your parcel leaves Lisbon today');

  // Search inside the conversation: matches counted, highlighted, Enter moves to the older one.
  await page.getByTestId('conversation-search-toggle').click();
  await page.getByRole('searchbox', { name: 'Search in this conversation' }).fill('parcel');
  await expect(page.getByTestId('conversation-search-status')).toContainText('2 of 2');
  await expect(messages.locator('mark', { hasText: 'parcel' }).first()).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search in this conversation' }).press('Enter');
  await expect(page.getByTestId('conversation-search-status')).toContainText('1 of 2');
  await shot(page, 'search', 1440);
  await shot(page, 'search', 1024);
  await page.getByRole('searchbox', { name: 'Search in this conversation' }).press('Escape');

  // A note mentioning the colleague: never sent to WhatsApp, shown apart.
  const before = await sentToWhatsApp();
  await page.getByRole('tab', { name: 'Internal note' }).click();
  const note = page.getByRole('textbox', { name: 'Internal note' });
  await note.pressSequentially('Please follow up @');
  const suggestion = page.getByRole('listbox', { name: 'Mention a member' }).getByRole('option', { name: new RegExp(colleague.email.split('@')[0].slice(0, 5), 'i') });
  await expect(suggestion).toBeVisible();
  await suggestion.click();
  await note.press('Enter');
  await expect(messages.getByRole('article', { name: /Internal note by Ada Admin/ })).toContainText('Please follow up @');
  expect(await sentToWhatsApp()).toBe(before);

  // The colleague sees it in their mentions view, unread, and opening it leads to the conversation.
  const other = await browser.newContext({ baseURL: new URL(page.url()).origin });
  const colleaguePage = await other.newPage();
  await signInUi(colleaguePage, colleague, '/live-chat?tab=open');
  const mentions = colleaguePage.getByTestId('mentions-button');
  await expect(mentions).toHaveAccessibleName(/Mentions, 1 unread/, { timeout: 15_000 });
  await mentions.click();
  const entry = colleaguePage.getByRole('dialog', { name: 'Mentions' }).getByRole('link', { name: /Eve Customer/ });
  await expect(entry).toHaveAttribute('data-unread', 'true');
  await shot(colleaguePage, 'mentions', 1024);
  await shot(colleaguePage, 'mentions', 1440);
  await entry.click();
  await expect(colleaguePage.getByRole('region', { name: 'Messages' }).getByRole('article', { name: /Internal note/ })).toBeVisible();
  await expect(mentions).toHaveAccessibleName('Mentions', { timeout: 15_000 });
  await other.close();
});
