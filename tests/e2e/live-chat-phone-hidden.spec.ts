/**
 * A customer whose phone WhatsApp withholds (2026: a username, a business-scoped user id, no phone) writes
 * through the sandbox; the live chat names them by `@username` with a "Phone hidden" badge, and the agent's answer
 * reaches the sandbox addressed by `recipient` (their user id), never by a phone. What the business then sends
 * from the WhatsApp Business app on its phone (an echo) shows in the conversation, marked "Sent from the phone".
 */
import { connectNumber, createAdmin, expect, signInUi, stack, test } from './support/fixtures';

interface SandboxState {
  sent: { recipient?: string; body: { to?: string; recipient?: string; text?: { body: string } } }[];
  received: { waId: string; message: { from?: string; from_user_id?: string } }[];
}
const sandboxState = async () => (await (await fetch(`${stack.sandboxOrigin}/_sandbox/state`)).json()) as SandboxState;

test('a customer with a hidden phone is shown by username and answered by user id', async ({ page }) => {
  const admin = await createAdmin({ name: 'Hana Admin' });
  const { number } = await connectNumber(admin);
  const waId = `1415556${String(Date.now()).slice(-4)}`;
  const username = `lena${String(Date.now()).slice(-4)}`;

  await signInUi(page, admin, '/live-chat?tab=open');
  const list = page.getByRole('navigation', { name: 'Conversations' });

  const res = await fetch(`${stack.sandboxOrigin}/_sandbox/customers/${waId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'text', text: 'Can I change my booking?', username, hidePhone: true, phoneNumberId: number.phoneNumberId }),
  });
  expect(res.ok).toBe(true);
  // What Parley received named the customer by user id only.
  const inbound = (await sandboxState()).received.filter((m) => m.waId === waId).at(-1)!;
  expect(inbound.message.from).toBeUndefined();
  const userId = inbound.message.from_user_id!;
  expect(userId).toMatch(/^US\.\d{20}$/);

  const row = list.getByRole('link', { name: new RegExp(`@${username}`) });
  await expect(row).toBeVisible({ timeout: 15_000 });
  await expect(row).not.toContainText(waId);
  await row.click();
  const messages = page.getByRole('region', { name: 'Messages' });
  await expect(messages.getByText('Can I change my booking?')).toBeVisible();
  await expect(page.getByRole('region', { name: `Conversation with @${username}` })).toBeVisible();
  // The contact details say why no number shows.
  await page.getByRole('button', { name: 'Show contact details' }).click();
  const details = page.getByRole('complementary', { name: 'Contact' });
  await expect(details.getByText('Phone hidden')).toBeVisible();
  await expect(details.getByText(`@${username}`).first()).toBeVisible();
  await expect(details).not.toContainText(waId);

  await page.getByRole('textbox', { name: 'Message' }).fill('Of course, to which day?');
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  const reply = messages.getByRole('article').filter({ hasText: 'Of course, to which day?' });
  await expect(reply.getByRole('img', { name: /Sent|Delivered|Read/ })).toBeVisible({ timeout: 15_000 });
  await expect
    .poll(async () => (await sandboxState()).sent.find((m) => m.body.text?.body === 'Of course, to which day?')?.body ?? null, { timeout: 15_000 })
    .toEqual(expect.objectContaining({ recipient: userId }));
  const out = (await sandboxState()).sent.find((m) => m.body.text?.body === 'Of course, to which day?')!;
  expect(out.body.to).toBeUndefined();

  // The business then writes from the WhatsApp Business app on its phone: the echo shows live, marked.
  const echo = await fetch(`${stack.sandboxOrigin}/_sandbox/customers/${waId}/echoes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'Friday works too', phoneNumberId: number.phoneNumberId }),
  });
  expect(echo.ok).toBe(true);
  const fromPhone = messages.getByRole('article').filter({ hasText: 'Friday works too' });
  await expect(fromPhone).toBeVisible({ timeout: 15_000 });
  await expect(fromPhone).toHaveAccessibleName(/^Sent text message/);
  await expect(fromPhone.getByText('Sent from the phone')).toBeVisible();
});
