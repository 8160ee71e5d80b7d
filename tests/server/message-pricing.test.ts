/**
 * What each message costs: the `pricing` object of its status webhooks is stored on the message, whatever order
 * the statuses arrive in and however often Meta redelivers them, and a campaign's results count its billable
 * messages by pricing category.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { type Seeded, seedWorkspace } from '../support/fixtures';
import { messagesChange, newWamid, postWebhook } from '../support/sandbox-webhooks';

let ta: TestApp;
let admin: Session;
let s: Seeded;
let account: typeof t.whatsappAccounts.$inferSelect;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Pricing Shop');
  s = await seedWorkspace(ta, admin);
  [account] = await ta.db.select().from(t.whatsappAccounts).where(eq(t.whatsappAccounts.id, s.ids.whatsappAccount));
});
afterAll(async () => {
  await ta?.close();
});

const base = Math.floor(Date.now() / 1000) - 60;
const pricing = (category: string, type = 'regular', billable: boolean | undefined = type === 'regular') => ({
  ...(billable === undefined ? {} : { billable }),
  pricing_model: 'PMP',
  category,
  type,
});

/** A status webhook exactly as Meta sends it (reference: status notifications). */
function status(wamid: string, st: string, at: number, extra: Record<string, unknown> = {}) {
  return JSON.stringify(
    messagesChange(account.phoneNumberId, { statuses: [{ id: wamid, status: st, timestamp: String(at), recipient_id: '14155550123', ...extra }] }, account.wabaAccountId),
  );
}
async function deliver(raw: string) {
  expect((await postWebhook(ta, raw)).statusCode).toBe(200);
  await ta.app.parley.jobs.drain();
}

/** A template message Parley sent (as the outbound path stores it), with a campaign log line when `logged`. */
async function sentMessage(logged = true) {
  const wamid = newWamid();
  await ta.db.insert(t.messages).values({
    workspaceId: s.workspaceId,
    conversationId: s.ids.conversation,
    type: 'template',
    text: 'Hello Ada',
    creator: 'bot',
    status: 'pending',
    waMessageId: wamid,
  });
  if (logged) {
    await ta.db.insert(t.campaignLogs).values({
      workspaceId: s.workspaceId,
      campaignId: s.ids.campaign,
      stepId: wamid,
      phoneNumber: '+14155550123',
      templateName: 'order_update',
      messageStatus: 'success',
      waMessageId: wamid,
    });
  }
  return wamid;
}
const messageOf = async (wamid: string) =>
  (await ta.db.select().from(t.messages).where(and(eq(t.messages.workspaceId, s.workspaceId), eq(t.messages.waMessageId, wamid))))[0];

describe('the pricing of status webhooks', () => {
  it('is stored on the message; a later status without pricing does not erase it', async () => {
    const wamid = await sentMessage();
    await deliver(status(wamid, 'sent', base, { pricing: pricing('marketing') }));
    await deliver(status(wamid, 'delivered', base + 1));
    await deliver(status(wamid, 'read', base + 2));
    const m = await messageOf(wamid);
    expect(m.status).toBe('read');
    expect(m.pricing).toEqual({ billable: true, pricingModel: 'PMP', category: 'marketing', type: 'regular', at: base });
  });

  it('arrives with a `sent` that comes after `read`: the status stays read, the price is stored', async () => {
    const wamid = await sentMessage();
    await deliver(status(wamid, 'read', base + 5));
    await deliver(status(wamid, 'sent', base + 1, { pricing: pricing('utility') }));
    const m = await messageOf(wamid);
    expect(m.status).toBe('read');
    expect(m.pricing).toMatchObject({ category: 'utility', type: 'regular', billable: true });
  });

  it('of an older status redelivered or arriving late never replaces a newer one', async () => {
    const wamid = await sentMessage();
    const sent = status(wamid, 'sent', base + 1, { pricing: pricing('utility') });
    await deliver(sent);
    await deliver(status(wamid, 'delivered', base + 3, { pricing: pricing('marketing') }));
    await deliver(sent);
    expect((await messageOf(wamid)).pricing).toMatchObject({ category: 'marketing', at: base + 3 });
  });

  it('two statuses of one message in one delivery keep the later one', async () => {
    const wamid = await sentMessage(false);
    const raw = JSON.stringify(
      messagesChange(
        account.phoneNumberId,
        {
          statuses: [
            { id: wamid, status: 'delivered', timestamp: String(base + 9), recipient_id: '14155550123', pricing: pricing('authentication') },
            { id: wamid, status: 'sent', timestamp: String(base + 8), recipient_id: '14155550123', pricing: pricing('service', 'free_customer_service') },
          ],
        },
        account.wabaAccountId,
      ),
    );
    await deliver(raw);
    expect((await messageOf(wamid)).pricing).toMatchObject({ category: 'authentication', at: base + 9 });
  });

  it('a malformed pricing object neither fails the delivery nor is stored', async () => {
    const wamid = await sentMessage(false);
    await deliver(status(wamid, 'sent', base, { pricing: 'free' }));
    const m = await messageOf(wamid);
    expect(m.status).toBe('sent');
    expect(m.pricing).toBeNull();
  });
});

describe("a campaign's results", () => {
  it('count its billable messages by category (billable as Meta says, else a regular pricing type)', async () => {
    const before = await ta.call('GET', `/campaign/${s.ids.campaign}/results`, { token: admin.token });
    const counted = (body: { billable: { category: string; messages: number }[] }) => Object.fromEntries(body.billable.map((b) => [b.category, b.messages]));
    const was = counted(before.json());

    const marketing = [await sentMessage(), await sentMessage()];
    for (const w of marketing) await deliver(status(w, 'sent', base, { pricing: pricing('marketing') }));
    // No `billable` (Meta is retiring it): a regular type is billed.
    const utility = await sentMessage();
    await deliver(status(utility, 'sent', base, { pricing: pricing('utility', 'regular', undefined) }));
    // Free: a utility template inside the customer's window, and a free entry point.
    const free = [await sentMessage(), await sentMessage()];
    await deliver(status(free[0], 'sent', base, { pricing: pricing('utility', 'free_customer_service') }));
    await deliver(status(free[1], 'sent', base, { pricing: pricing('marketing', 'free_entry_point') }));
    // A message of no campaign is not counted.
    const other = await sentMessage(false);
    await deliver(status(other, 'sent', base, { pricing: pricing('marketing') }));

    const res = await ta.call('GET', `/campaign/${s.ids.campaign}/results`, { token: admin.token });
    expect(res.statusCode).toBe(200);
    const now = counted(res.json());
    expect((now.marketing ?? 0) - (was.marketing ?? 0)).toBe(2);
    expect((now.utility ?? 0) - (was.utility ?? 0)).toBe(1);
    expect(res.json().billable).toEqual([...res.json().billable].sort((a: { category: string }, b: { category: string }) => a.category.localeCompare(b.category)));
  });
});
