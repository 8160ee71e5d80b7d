/**
 * Redelivered webhooks. Meta retries a delivery for days, byte for byte, long after the state it
 * touched has moved on. A redelivered message, status or template review must change nothing: no row (the
 * conversation stays closed and with its new assignee, the message stays `read`, the template keeps its newer
 * review), no event in the workspace's event log, nothing sent through the Graph API.
 */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { landedIn } from '../support/customers';
import { type Seeded, seedWorkspace, snapshotWorkspace } from '../support/fixtures';
import { inbound, postWebhook, templateStatus } from '../support/sandbox-webhooks';

let ta: TestApp;
let admin: Session;
let agent: Session;
let s: Seeded;
let account: typeof t.whatsappAccounts.$inferSelect;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Redelivery Shop');
  agent = await ta.newMember(admin, 'agent');
  s = await seedWorkspace(ta, admin);
  [account] = await ta.db.select().from(t.whatsappAccounts).where(eq(t.whatsappAccounts.id, s.ids.whatsappAccount));
});
afterAll(async () => {
  await ta?.close();
});

let customerSeq = 0;
let waId = '';
beforeEach(() => {
  waId = `1650555${String(4000 + ++customerSeq).padStart(4, '0')}`;
});

/** Posts the exact bytes of a delivery (signed) and waits until its job has run. */
async function deliverRaw(raw: string) {
  const res = await postWebhook(ta, raw);
  expect(res.statusCode).toBe(200);
  await ta.app.parley.jobs.drain();
}

const eventCount = async () =>
  (await ta.db.select({ n: count() }).from(t.workspaceEvents).where(eq(t.workspaceEvents.workspaceId, s.workspaceId)))[0].n;

/** Everything a redelivery could change: every row of the workspace (its event log included) and what was sent. */
async function stateNow() {
  await ta.sandbox.settle();
  await ta.app.parley.jobs.drain();
  return { rows: await snapshotWorkspace(ta, s.workspaceId), events: await eventCount(), sent: ta.sandbox.sent.length };
}

const conversationOf = async (waId: string) => (await landedIn(ta, s.workspaceId, waId)).conversation;

describe('a redelivered inbound message', () => {
  it('does not reopen, reassign or touch a conversation closed and reassigned since', async () => {
    const first = JSON.stringify(inbound(account.phoneNumberId, waId, { type: 'text', text: { body: 'Where is my parcel?' } }, 'Rita Retry'));
    await deliverRaw(first);
    const opened = await conversationOf(waId);
    expect(opened.isActive).toBe(true);

    // The state moves on: an agent takes the conversation, an admin reassigns it to themselves, then closes it.
    for (const [who, body] of [
      [agent, { assigneeMemberId: agent.member.id }],
      [admin, { assigneeMemberId: admin.member.id }],
      [admin, { isActive: false }],
    ] as const) {
      const res = await ta.call('PATCH', `/conversation/${opened.id}`, { token: who.token, body });
      expect(res.statusCode, res.body).toBe(200);
    }
    const before = await stateNow();
    const moved = await conversationOf(waId);
    expect(moved.isActive).toBe(false);
    expect(moved.assigneeMemberId).toBe(admin.member.id);

    await deliverRaw(first);

    const after = await stateNow();
    const now = await conversationOf(waId);
    expect(now.isActive).toBe(false);
    expect(now.assigneeMemberId).toBe(admin.member.id);
    expect(now.lastActivityAt.getTime()).toBe(moved.lastActivityAt.getTime());
    expect(after.events, 'events emitted by the redelivery').toBe(before.events);
    expect(after.sent, 'messages sent because of the redelivery').toBe(before.sent);
    expect(after.rows).toBe(before.rows);
  });

  it('is stored once even when the redelivery comes in the same batch as the original', async () => {
    const raw = JSON.stringify(inbound(account.phoneNumberId, waId, { type: 'text', text: { body: 'Twice at once' } }, 'Dora Double'));
    const [r1, r2] = await Promise.all([postWebhook(ta, raw), postWebhook(ta, raw)]);
    expect([r1.statusCode, r2.statusCode]).toEqual([200, 200]);
    await ta.app.parley.jobs.drain();
    const conversation = await conversationOf(waId);
    const stored = await ta.db.select().from(t.messages).where(eq(t.messages.conversationId, conversation.id));
    expect(stored.map((m) => m.text)).toEqual(['Twice at once']);
  });
});

describe('a redelivered status', () => {
  it('does not move a message already `read` back to `delivered` or `sent`, and emits nothing', async () => {
    await ta.sandbox.customers.say(waId, 'Hello, can you help?', { phoneNumberId: account.phoneNumberId, name: 'Stan Status' });
    await ta.app.parley.jobs.drain();
    const conversation = await conversationOf(waId);
    const reply = await ta.call('POST', '/message', { token: agent.token, body: { text: 'Of course!', conversationId: conversation.id } });
    expect(reply.statusCode, reply.body).toBe(201);
    // The send runs as a job; the sandbox then delivers sent, delivered and read.
    await stateNow();
    await stateNow();
    const [read] = await ta.db.select().from(t.messages).where(eq(t.messages.id, reply.json().id as string));
    expect(read.status).toBe('read');
    const wamid = read.waMessageId!;

    // The sandbox's own earlier deliveries about this message, byte for byte: sent, then delivered.
    const earlier = ta.sandbox.webhooks.filter((w) => w.rawBody.includes(wamid) && /"status":"(sent|delivered)"/.test(w.rawBody));
    expect(earlier.length).toBeGreaterThanOrEqual(2);
    const before = await stateNow();
    for (const w of earlier) await deliverRaw(w.rawBody);

    const after = await stateNow();
    const [still] = await ta.db.select().from(t.messages).where(eq(t.messages.waMessageId, wamid));
    expect(still.status).toBe('read');
    expect(after.events, 'events emitted by the redelivery').toBe(before.events);
    expect(after.sent).toBe(before.sent);
    expect(after.rows).toBe(before.rows);
  });
});

describe('a redelivered template review', () => {
  it('does not undo a newer review of the template, and emits nothing', async () => {
    const metaId = '771234567890123';
    await ta.db
      .update(t.whatsappTemplates)
      .set({ whatsappTemplateId: metaId, status: 'PENDING' })
      .where(eq(t.whatsappTemplates.id, s.ids.whatsappTemplate));
    const reviewedAt = Math.floor(Date.now() / 1000) - 3600;
    const approved = JSON.stringify(templateStatus(account.wabaAccountId, metaId, 'APPROVED', 'order_update', reviewedAt));
    await deliverRaw(approved);
    // Re-reviewed ten minutes later: WhatsApp pauses the template (quality); that is the newest review.
    await deliverRaw(JSON.stringify(templateStatus(account.wabaAccountId, metaId, 'PAUSED', 'order_update', reviewedAt + 600)));
    const [paused] = await ta.db.select().from(t.whatsappTemplates).where(eq(t.whatsappTemplates.id, s.ids.whatsappTemplate));
    expect(paused.status).toBe('PAUSED');
    const before = await stateNow();

    await deliverRaw(approved);

    const after = await stateNow();
    const [now] = await ta.db.select().from(t.whatsappTemplates).where(eq(t.whatsappTemplates.id, s.ids.whatsappTemplate));
    expect(now.status, 'the redelivered APPROVED undid the newer PAUSED').toBe('PAUSED');
    expect(after.events, 'events emitted by the redelivery').toBe(before.events);
    expect(after.sent).toBe(before.sent);
    expect(after.rows).toBe(before.rows);
  });
});

describe('template reviews in order', () => {
  it('still applies a newer review after a redelivered older one, and a review without a time when it changes the status', async () => {
    const metaId = '771234567890999';
    await ta.db
      .update(t.whatsappTemplates)
      .set({ whatsappTemplateId: metaId, status: 'PAUSED', statusAt: null })
      .where(eq(t.whatsappTemplates.id, s.ids.whatsappTemplate));
    const at = Math.floor(Date.now() / 1000);
    await deliverRaw(JSON.stringify(templateStatus(account.wabaAccountId, metaId, 'REINSTATED', 'order_update', at)));
    const eventsBefore = await eventCount();
    // The same review again: no change, no event.
    await deliverRaw(JSON.stringify(templateStatus(account.wabaAccountId, metaId, 'REINSTATED', 'order_update', at)));
    expect(await eventCount()).toBe(eventsBefore);
    await deliverRaw(JSON.stringify(templateStatus(account.wabaAccountId, metaId, 'APPROVED', 'order_update', at + 5)));
    const [approved] = await ta.db.select().from(t.whatsappTemplates).where(eq(t.whatsappTemplates.id, s.ids.whatsappTemplate));
    expect(approved.status).toBe('APPROVED');
    expect(await eventCount()).toBe(eventsBefore + 1);
    // A delivery without entry.time (as the sandbox sends them) still changes a status that differs.
    await deliverRaw(JSON.stringify(templateStatus(account.wabaAccountId, metaId, 'FLAGGED')));
    const [flagged] = await ta.db.select().from(t.whatsappTemplates).where(eq(t.whatsappTemplates.id, s.ids.whatsappTemplate));
    expect(flagged.status).toBe('FLAGGED');
  });
});
