/**
 * Concurrent sends of a workspace share their target reads and their claims (one statement for a group,
 * src/server/messaging/coalesce.ts): each send still gets its own answer. A refused or missing target, a key
 * named twice in one group and a key sent before are each decided alone while the group's others go.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { SandboxAccount } from '../../src/sandbox';
import type { OutboundContent, OutboundRequest } from '../../src/server/messaging/outbound-request';
import { outsideWindowMessage, resolveTargets } from '../../src/server/messaging/outbound-target';
import { claimSends } from '../../src/server/messaging/send-claim';
import { SendInFlightError } from '../../src/server/messaging/send-outcomes';
import { GraphApiError } from '../../src/server/whatsapp/graph-errors';
import { appendEvent, readEvents } from '../../src/server/repositories/event-log';
import { toConversation } from '../../src/server/repositories/conversations';
import { buildTestApp, onPostgres, type Session, type TestApp } from '../support/server';
import { newCustomers } from '../support/customers';

let ta: TestApp;
let admin: Session;
let number: SandboxAccount;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Group Shop');
  number = ta.sandbox.addAccount();
  const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId } });
  expect(res.statusCode).toBe(201);
});
afterAll(async () => {
  await ta?.close();
});

const outbound = () => ta.app.parley.services.outbound;
const customerWrites = newCustomers(() => ({ ta, workspaceId: admin.workspaceId, phoneNumberId: number.phoneNumberId }), { waIdPrefix: '1650557', text: 'Hi there' });
const request = (conversationId: string, content: OutboundContent, key: string = randomUUID()): OutboundRequest => ({
  workspaceId: admin.workspaceId,
  actor: { type: 'campaign', campaignId: '0b7c9d4e-2f61-4a8e-9c3d-5e7f1a2b4c6d' },
  target: { conversationId },
  content,
  idempotencyKey: key,
});
const sendRows = (keys: string[]) =>
  ta.db.select().from(t.outboundSends).where(eq(t.outboundSends.workspaceId, admin.workspaceId)).then((rows) => rows.filter((r) => keys.includes(r.idempotencyKey)));
const textsSent = (prefix: string) =>
  ta.sandbox.sent.map((m) => (m.body as { text?: { body?: string } }).text?.body ?? '').filter((body) => body.startsWith(prefix));

describe('a group of sends', () => {
  it('reads each target of the group, answering a missing conversation and a closed window for those sends alone', async () => {
    const open = await customerWrites();
    const stale = await customerWrites();
    await ta.db.update(t.conversations).set({ lastInboundAt: new Date(Date.now() - 25 * 3600_000) }).where(eq(t.conversations.id, stale.conversation.id));
    const text: OutboundContent = { type: 'text', text: 'Hello' };
    const results = await resolveTargets(ta.db, admin.workspaceId, [
      request(open.conversation.id, text),
      request(randomUUID(), text),
      request(stale.conversation.id, text),
      { ...request(open.conversation.id, text), target: { contactId: open.contact.id, whatsappAccountId: open.conversation.whatsappAccountId! } },
      { ...request(open.conversation.id, text), target: { contactId: randomUUID(), whatsappAccountId: open.conversation.whatsappAccountId! } },
    ]);
    expect(results[0]).toMatchObject({ value: { conversation: { id: open.conversation.id }, contact: { id: open.contact.id }, account: { phoneNumberId: number.phoneNumberId } } });
    expect(results[1]).toMatchObject({ error: { statusCode: 404, message: 'Conversation not found' } });
    expect(results[2]).toMatchObject({ error: { statusCode: 409, message: outsideWindowMessage } });
    expect(results[3]).toMatchObject({ value: { conversation: null, contact: { id: open.contact.id }, account: { phoneNumberId: number.phoneNumberId } } });
    expect(results[4]).toMatchObject({ error: { statusCode: 404, message: 'Contact not found' } });
  });

  it('finds a target named by an id in upper case, as PostgreSQL does, beside the others of its group', async () => {
    const open = await customerWrites();
    const text: OutboundContent = { type: 'text', text: 'Hello' };
    const upper = (id: string) => id.toUpperCase();
    const results = await resolveTargets(ta.db, admin.workspaceId, [
      request(upper(open.conversation.id), text),
      { ...request(open.conversation.id, text), target: { contactId: upper(open.contact.id), whatsappAccountId: upper(open.conversation.whatsappAccountId!) } },
      request(open.conversation.id, text),
    ]);
    expect(results[0]).toMatchObject({ value: { conversation: { id: open.conversation.id }, contact: { id: open.contact.id } } });
    expect(results[1]).toMatchObject({ value: { conversation: null, contact: { id: open.contact.id }, account: { phoneNumberId: number.phoneNumberId } } });
    expect(results[2]).toMatchObject({ value: { conversation: { id: open.conversation.id } } });
    const sent = await outbound().send(request(upper(open.conversation.id), { type: 'text', text: 'Upper case id' }));
    expect(sent.message.conversationId).toBe(open.conversation.id);
  });

  it('claims the new keys of a group in one statement; a key named twice is claimed once and a key sent before is answered', async () => {
    const { conversation } = await customerWrites();
    const sentBefore = await outbound().send(request(conversation.id, { type: 'text', text: 'Earlier' }, `group:${randomUUID()}`));
    const [target] = await resolveTargets(ta.db, admin.workspaceId, [request(conversation.id, { type: 'text', text: 'x' })]);
    if (!('value' in target)) throw new Error('target not resolved');
    const twice = `group:${randomUUID()}`;
    const fresh = `group:${randomUUID()}`;
    const known = (await ta.db.select().from(t.outboundSends).where(eq(t.outboundSends.id, sentBefore.sendId)))[0].idempotencyKey;
    const group = [twice, fresh, twice, known].map((key) => ({ req: request(conversation.id, { type: 'text', text: 'x' }, key), target: target.value, messageType: 'text' }));
    const claims = await claimSends(ta.database, admin.workspaceId, group, 60_000);
    expect(claims[0]).toMatchObject({ value: { send: { idempotencyKey: twice, status: 'claimed' } } });
    expect(claims[1]).toMatchObject({ value: { send: { idempotencyKey: fresh, status: 'claimed' } } });
    // The second naming of the key finds the first's claim under way: nothing is sent for it.
    expect((claims[2] as { error: unknown }).error).toBeInstanceOf(SendInFlightError);
    expect(claims[3]).toMatchObject({ value: { replay: { replayed: true, sendId: sentBefore.sendId, message: { id: sentBefore.message.id } } } });
    const rows = await sendRows([twice, fresh]);
    expect(rows.map((r) => r.status).sort()).toEqual(['claimed', 'claimed']);
  });

  it.skipIf(!onPostgres)('claims two groups sharing their keys at once, listed in opposite orders, without a deadlock', async () => {
    const { conversation } = await customerWrites();
    const [target] = await resolveTargets(ta.db, admin.workspaceId, [request(conversation.id, { type: 'text', text: 'x' })]);
    if (!('value' in target)) throw new Error('target not resolved');
    for (let round = 0; round < 3; round++) {
      const keys = Array.from({ length: 300 }, (_, i) => `retry:${round}:${String(i).padStart(3, '0')}:${randomUUID()}`);
      const group = (list: string[]) => list.map((key) => ({ req: request(conversation.id, { type: 'text', text: 'x' }, key), target: target.value, messageType: 'text' }));
      const [up, down] = await Promise.all([claimSends(ta.database, admin.workspaceId, group(keys), 60_000), claimSends(ta.database, admin.workspaceId, group([...keys].reverse()), 60_000)]);
      // Each key is claimed by exactly one of the two; the other finds it in flight.
      const claimedBy = (claims: typeof up) => claims.filter((c) => 'value' in c && 'send' in c.value).length;
      expect(claimedBy(up) + claimedBy(down)).toBe(keys.length);
      expect([...up, ...down].filter((c) => 'error' in c && !(c.error instanceof SendInFlightError))).toEqual([]);
    }
  });

  it('sends each of many concurrent sends once: a refusal, a missing conversation and a repeated key do not hold back the others', async () => {
    const recipients = await Promise.all(Array.from({ length: 5 }, () => customerWrites()));
    const prefix = `Group offer ${randomUUID().slice(0, 8)}`;
    const repeated = `group:${randomUUID()}`;
    const requests = recipients.flatMap((r, i) =>
      Array.from({ length: 6 }, (_, j) => request(r.conversation.id, { type: 'text', text: `${prefix} ${i}-${j}` }, `group:${i}:${j}:${prefix}`)),
    );
    requests.push(request(randomUUID(), { type: 'text', text: `${prefix} nowhere` }));
    requests.push(request(recipients[0].conversation.id, { type: 'text', text: `${prefix} repeated` }, repeated));
    requests.push(request(recipients[1].conversation.id, { type: 'text', text: `${prefix} repeated` }, repeated));
    // Meta refuses one send for good (an undeliverable number); which one depends on the order of the calls.
    ta.sandbox.injectFailure({ code: 131026 });
    const results = await Promise.allSettled(requests.map((req) => outbound().send(req)));

    const nowhere = results[30];
    expect(nowhere).toMatchObject({ status: 'rejected', reason: { statusCode: 404 } });
    // 31 keys went to the claim (30 + the repeated one): one refused for good, the other 30 sent, each once.
    const rows = await sendRows(requests.map((r) => r.idempotencyKey));
    expect(rows).toHaveLength(31);
    expect(rows.filter((r) => r.status === 'failed')).toMatchObject([{ errorCode: 131026 }]);
    expect(rows.filter((r) => r.status !== 'sent').map((r) => [r.status, r.errorCode, r.failureReason])).toEqual([['failed', 131026, expect.any(String)]]);
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(30);
    expect(textsSent(prefix)).toHaveLength(30);
    const refusedKey = rows.find((r) => r.status === 'failed')!.idempotencyKey;
    results.slice(0, 30).forEach((r, i) => {
      if (requests[i].idempotencyKey === refusedKey) expect(r).toMatchObject({ status: 'rejected', reason: { code: 131026 } });
      else expect(r).toMatchObject({ status: 'fulfilled', value: { replayed: false, message: { text: requests[i].content.type === 'text' && requests[i].content.text } } });
    });
    // The repeated key went to WhatsApp at most once; its second send answered the first (in flight, replay or refusal).
    expect(textsSent(`${prefix} repeated`).length).toBeLessThanOrEqual(1);
    const pair = results.slice(31);
    const went = pair.filter((r) => (r.status === 'fulfilled' && !r.value.replayed) || (r.status === 'rejected' && r.reason instanceof GraphApiError));
    expect(went.length).toBeGreaterThanOrEqual(1);
    expect(pair.filter((r) => r.status === 'rejected' && r.reason instanceof SendInFlightError).length + pair.filter((r) => r.status === 'fulfilled' && r.value.replayed).length).toBeLessThanOrEqual(1);
    const stored = await ta.db
      .select()
      .from(t.messages)
      .where(eq(t.messages.workspaceId, admin.workspaceId));
    expect(stored.filter((m) => m.text?.startsWith(prefix))).toHaveLength(30);
  });

  it('logs each stored send as one message.created, in one gap-free order with another writer appending at once', async () => {
    const recipients = [await customerWrites(), await customerWrites(), await customerWrites()];
    const [{ seq: before }] = (await readEvents(ta.db, admin.workspaceId, 0, 100_000)).slice(-1);
    const prefix = `Logged ${randomUUID().slice(0, 8)}`;
    const sends = Array.from({ length: 24 }, (_, i) => outbound().send(request(recipients[i % 3].conversation.id, { type: 'text', text: `${prefix} ${i}` })));
    // Another writer of the workspace's log (an agent's change) at the same time as the sends' final writes.
    const others = Array.from({ length: 12 }, () =>
      appendEvent(ta.db, admin.workspaceId, 'conversation.updated', { conversation: toConversation(recipients[0].conversation) }),
    );
    const sent = await Promise.all(sends);
    expect(await Promise.all(others)).toHaveLength(12);
    const events = await readEvents(ta.db, admin.workspaceId, before, 100_000);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => before + 1 + i));
    const created = events.filter((e) => e.type === 'message.created' && (e.payload as { message: { text: string | null } }).message.text?.startsWith(prefix));
    expect(created).toHaveLength(24);
    for (const s of sent) {
      const logged = created.filter((e) => (e.payload as { message: { id: string } }).message.id === s.message.id);
      expect(logged.map((e) => e.payload)).toEqual([{ message: s.message }]);
    }
    const stored = await ta.db.select().from(t.messages).where(eq(t.messages.workspaceId, admin.workspaceId));
    for (const s of sent) expect(stored.find((m) => m.id === s.message.id)).toMatchObject({ text: s.message.text, status: 'sent', waMessageId: s.wamid, createdAt: new Date(s.message.createdAt) });
    const rows = await ta.db.select().from(t.outboundSends).where(eq(t.outboundSends.workspaceId, admin.workspaceId));
    for (const s of sent) expect(rows.find((r) => r.id === s.sendId)).toMatchObject({ status: 'sent', messageId: s.message.id, waMessageId: s.wamid });
  });
});

