/**
 * The outbound path called directly (the `outbound` part of the mutation score, seconds per mutant):
 * `createOutbound` on a fresh database with a scripted stand-in for the Graph API, a pacer stand-in that records
 * (and the real pacer once), no app, no job queue, no sandbox. The 24-hour window, the idempotency record of a send
 * (fresh, pending retried, sent replayed, failed answered again, unknown, in flight or stale), how a refusal or a
 * lost answer settles a send, 130429 backing the number off, what the job retries, and what is stored for each
 * kind of message. outbound.test.ts and messaging.test.ts hold the same rules through the app and the sandbox.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ZodError } from 'zod';
import * as t from '../../src/server/db/schema';
import type { Database } from '../../src/server/db/client';
import { HttpError } from '../../src/server/errors';
import { createOutbound, type OutboundOptions } from '../../src/server/messaging/outbound';
import { outsideWindowMessage } from '../../src/server/messaging/outbound-target';
import { OutcomeUnknownError, pairRateLimitCode, SendInFlightError } from '../../src/server/messaging/send-outcomes';
import { actorId, assignedByOf, creatorOf, type Actor, type OutboundContent, type OutboundRequest } from '../../src/server/messaging/outbound-request';
import type { Pacer } from '../../src/server/messaging/pacer';
import type { ServiceDeps } from '../../src/server/services/context';
import type { Channel } from '../../src/server/whatsapp/channel';
import { GraphApiError, type GraphClient, type OutboundMessage, type RecipientAddress, type SendOptions } from '../../src/server/whatsapp/graph-client';
import { openTestDatabase } from '../support/server';
import { recordingLogger, type LoggedLine } from '../support/recording-logger';

let database: Database;
let dispose: () => Promise<void>;
let ws = '';
let otherWs = '';
type AccountRow = typeof t.whatsappAccounts.$inferSelect;
let account: AccountRow;
let secondAccount: AccountRow;
let otherAccount: AccountRow;
const memberId = randomUUID();
const botId = randomUUID();
const campaignId = randomUUID();

const logged: LoggedLine[] = [];
const logger = () => recordingLogger(logged);
const logsOf = (msg: string) => logged.filter((l) => l.msg === msg);

/** Our own file store's addresses: a key in, a signed link (with its lifetime) out. */
const storeBase = 'http://parley.test/files/';
const files = {
  keyFromUrl: (url: string) => (url.startsWith(storeBase) ? url.slice(storeBase.length) : null),
  signedUrl: (key: string, ttlSeconds: number) => `https://signed.parley.test/${key}?ttl=${ttlSeconds}`,
};

const deps = (): ServiceDeps => ({ db: database, files, log: logger() }) as unknown as ServiceDeps;

/** The account's Graph credentials, as the channel opens them. */
const channel = {
  credsOf: (a: AccountRow) => ({ token: `token-of-${a.phoneNumberId}`, phoneNumberId: a.phoneNumberId, wabaAccountId: a.wabaAccountId, appId: a.appId }),
} as unknown as Channel;

let wamidSeq = 0;
const freshWamid = () => `wamid.out.${Date.now()}.${++wamidSeq}`;

/** What the Graph stand-in answers to each call in turn: a wamid (the default), a thrown error, or a held answer. */
type Answer = 'ok' | { wamid: string } | { throws: unknown } | { wait: Promise<void> };
interface GraphCall {
  creds: { token: string; phoneNumberId: string };
  to: RecipientAddress;
  message: OutboundMessage;
  opts: SendOptions | undefined;
}
function scriptedGraph(...answers: Answer[]) {
  const calls: GraphCall[] = [];
  const queue = [...answers];
  const graph = {
    async sendMessage(creds: GraphCall['creds'], to: RecipientAddress, message: OutboundMessage, opts?: SendOptions) {
      calls.push({ creds, to, message, opts });
      const a = queue.shift() ?? 'ok';
      if (a === 'ok') return { wamid: freshWamid() };
      if ('throws' in a) throw a.throws;
      if ('wait' in a) {
        await a.wait;
        return { wamid: freshWamid() };
      }
      return a;
    },
  };
  return { graph: graph as unknown as GraphClient, calls };
}

/** A Graph stand-in whose answers wait for `release` (by the message's text: a fresh wamid, or `taken` for "bad"). */
function heldGraphFor(taken = 'wamid.none') {
  const gates: { text: string; open: () => void }[] = [];
  const graph = {
    async sendMessage(_creds: unknown, _to: string, message: OutboundMessage) {
      const body = message.type === 'text' ? message.text.body : message.type;
      await new Promise<void>((open) => gates.push({ text: body, open }));
      return { wamid: body === 'bad' ? taken : freshWamid() };
    },
  } as unknown as GraphClient;
  const arrived = async (n: number) => {
    while (gates.length < n) await new Promise((r) => setTimeout(r, 5));
  };
  /** The named send's answer first, then all the others in the same tick (they queue behind its write). */
  const release = (first: string) => {
    gates.find((g) => g.text === first)!.open();
    for (const g of gates) if (g.text !== first) g.open();
  };
  return { graph, arrived, release };
}

function recordingPacer() {
  const calls: string[] = [];
  const pacer = {
    async take(a: { id: string }) {
      calls.push(`take ${a.id}`);
      return 0;
    },
    async backOff(a: { id: string }) {
      calls.push(`backOff ${a.id}`);
    },
  };
  return { pacer: pacer as unknown as Pacer, calls };
}

function setup(answers: Answer[] = [], opts: OutboundOptions = {}) {
  const g = scriptedGraph(...answers);
  const p = recordingPacer();
  const outbound = createOutbound(deps(), channel, g.graph, { pacer: p.pacer, ...opts });
  return { outbound, graphCalls: g.calls, pacerCalls: p.calls };
}

const hours = (n: number) => n * 3600_000;
let phoneSeq = 0;
/** A contact; with `inboundAgo` a conversation on the account whose customer last wrote that long ago. */
async function customer(opts: { inboundAgo?: number | null; on?: AccountRow | null; workspaceId?: string } = {}) {
  const workspaceId = opts.workspaceId ?? ws;
  const [contact] = await database.db
    .insert(t.contacts)
    .values({ workspaceId, phoneNumber: `+1650555${String(1000 + ++phoneSeq).padStart(4, '0')}`, name: `Customer ${phoneSeq}` })
    .returning();
  if (opts.inboundAgo === undefined) return { contact, conversation: null };
  const lastInboundAt = opts.inboundAgo === null ? null : new Date(Date.now() - opts.inboundAgo);
  const on = opts.on === undefined ? account : opts.on;
  const [conversation] = await database.db
    .insert(t.conversations)
    .values({ workspaceId, contactId: contact.id, whatsappAccountId: on?.id ?? null, lastInboundAt, lastMessageAt: lastInboundAt, lastActivityAt: new Date(Date.now() - hours(30)) })
    .returning();
  return { contact, conversation };
}
/** A customer who wrote an hour ago (the window is open). */
const writing = async () => {
  const c = await customer({ inboundAgo: hours(1) });
  return { contact: c.contact, conversation: c.conversation! };
};

const bot: Actor = { type: 'bot', botId };
const text = (body = 'We open at 9.'): OutboundContent => ({ type: 'text', text: body });
const template: OutboundContent = {
  type: 'template',
  templateId: null,
  name: 'back_in_stock',
  language: 'en_US',
  components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ada' }] }],
  header: { type: 'text', text: 'News' },
  text: 'Hi Ada, it is back.',
  footer: 'Corner Shop',
  action: { buttons: [{ type: 'QUICK_REPLY', text: 'Stop' }] },
};
function req(conversationId: string, content: OutboundContent = text(), over: Partial<OutboundRequest> = {}): OutboundRequest {
  return { workspaceId: ws, actor: bot, target: { conversationId }, content, idempotencyKey: `key-${randomUUID()}`, ...over };
}

const sendRow = async (key: string) =>
  (await database.db.select().from(t.outboundSends).where(and(eq(t.outboundSends.workspaceId, ws), eq(t.outboundSends.idempotencyKey, key))))[0];
const messagesIn = (conversationId: string) => database.db.select().from(t.messages).where(eq(t.messages.conversationId, conversationId)).orderBy(asc(t.messages.createdAt));
const eventsAfter = async (seq: number) =>
  (await database.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.workspaceId, ws)).orderBy(asc(t.workspaceEvents.seq))).filter((e) => e.seq > seq);
const lastSeq = async () => Math.max(0, ...(await database.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.workspaceId, ws))).map((e) => e.seq));
async function priorSend(key: string, contactId: string, conversationId: string | null, over: Partial<typeof t.outboundSends.$inferInsert>) {
  const [row] = await database.db
    .insert(t.outboundSends)
    .values({ workspaceId: ws, idempotencyKey: key, whatsappAccountId: account.id, contactId, conversationId, actorType: 'bot', messageType: 'text', ...over })
    .returning();
  return row;
}
const caught = (p: Promise<unknown>) => p.then(
  (v) => ({ resolved: v }) as unknown,
  (e: unknown) => e,
);

beforeAll(async () => {
  ({ database, dispose } = await openTestDatabase());
  const db = database.db;
  const [w, o] = await db.insert(t.workspaces).values([{ name: 'Outbound Shop' }, { name: 'Other Shop' }]).returning();
  ws = w.id;
  otherWs = o.id;
  const [m] = await db.insert(t.members).values({ uid: `uid-outbound-${randomUUID()}` }).returning();
  const accountRow = (workspaceId: string, pnid: string) => ({
    workspaceId,
    phoneNumber: '+14155550000',
    wabaAccountId: 'waba-outbound',
    appId: 'app-outbound',
    phoneNumberId: pnid,
    tokenCiphertext: 'sealed',
    tokenLast4: '0000',
    memberId: m.id,
  });
  [account, secondAccount, otherAccount] = await db
    .insert(t.whatsappAccounts)
    .values([accountRow(ws, `pn-out-${randomUUID()}`), accountRow(ws, `pn-out-2-${randomUUID()}`), accountRow(otherWs, `pn-out-other-${randomUUID()}`)])
    .returning();
});
afterAll(async () => {
  await dispose?.();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the actor of a send (outbound-request)', () => {
  it('names its id, the creator of the stored message and who assigned', () => {
    const member: Actor = { type: 'member', memberId };
    const campaign: Actor = { type: 'campaign', campaignId };
    const system: Actor = { type: 'system' };
    expect([member, bot, campaign, system].map(actorId)).toEqual([memberId, botId, campaignId, null]);
    expect([member, bot, campaign, system].map(creatorOf)).toEqual(['agent', 'bot', 'bot', 'bot']);
    expect([member, bot, campaign, system].map(assignedByOf)).toEqual([
      { assignedByType: 'member', assignedById: memberId },
      { assignedByType: 'bot', assignedById: botId },
      { assignedByType: 'system', assignedById: null },
      { assignedByType: 'system', assignedById: null },
    ]);
  });
});

describe('a send that goes out', () => {
  it('calls WhatsApp once with the number’s credentials, the customer’s number and the reply-to, and stores the message, the outcome and the event', async () => {
    const { contact, conversation } = await writing();
    const { outbound, graphCalls, pacerCalls } = setup([{ wamid: 'wamid.first.one' }]);
    const seq = await lastSeq();
    const r = req(conversation.id, text('We open at 9.'), { replyTo: 'wamid.customer.asked' });
    const sent = await outbound.send(r);

    expect(graphCalls).toEqual([
      {
        creds: { token: `token-of-${account.phoneNumberId}`, phoneNumberId: account.phoneNumberId, wabaAccountId: 'waba-outbound', appId: 'app-outbound' },
        to: { phoneNumber: contact.phoneNumber, userId: null },
        message: { type: 'text', text: { body: 'We open at 9.', preview_url: false } },
        opts: { replyTo: 'wamid.customer.asked', retryThrottled: false },
      },
    ]);
    expect(pacerCalls).toEqual([`take ${account.id}`]);
    expect(sent).toMatchObject({ replayed: false, wamid: 'wamid.first.one', message: { conversationId: conversation.id, text: 'We open at 9.', creator: 'bot', memberId: null, status: 'sent' } });

    const rows = await messagesIn(conversation.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: sent.message.id, waMessageId: 'wamid.first.one', type: 'text', creator: 'bot', status: 'sent', workspaceId: ws });
    expect(await sendRow(r.idempotencyKey)).toMatchObject({
      id: sent.sendId,
      status: 'sent',
      attempts: 1,
      throttled: 0,
      actorType: 'bot',
      actorId: botId,
      messageType: 'text',
      whatsappAccountId: account.id,
      contactId: contact.id,
      conversationId: conversation.id,
      messageId: sent.message.id,
      waMessageId: 'wamid.first.one',
      errorCode: null,
      failureReason: null,
    });
    const [conv] = await database.db.select().from(t.conversations).where(eq(t.conversations.id, conversation.id));
    expect(conv.lastMessageAt!.getTime()).toBeGreaterThan(conversation.lastMessageAt!.getTime());
    const events = await eventsAfter(seq);
    expect(events.map((e) => e.type)).toEqual(['message.created']);
    expect(events[0].payload).toMatchObject({ message: { id: sent.message.id } });
  });

  it('records each actor with its id, and stores a member’s message as the agent’s', async () => {
    const { conversation } = await writing();
    const { outbound } = setup();
    const actors: Actor[] = [{ type: 'member', memberId }, { type: 'campaign', campaignId }, { type: 'system' }];
    for (const actor of actors) {
      const r = req(conversation.id, text(`From ${actor.type}`), { actor });
      const sent = await outbound.send(r);
      const row = await sendRow(r.idempotencyKey);
      expect([row.actorType, row.actorId]).toEqual([actor.type, actorId(actor)]);
      expect([sent.message.creator, sent.message.memberId]).toEqual(actor.type === 'member' ? ['agent', memberId] : ['bot', null]);
    }
  });

  it('opens a conversation for a contact with none on the number (a template), announced with the message', async () => {
    const { contact } = await customer();
    const { outbound } = setup();
    const seq = await lastSeq();
    const r: OutboundRequest = { workspaceId: ws, actor: { type: 'campaign', campaignId }, target: { contactId: contact.id, whatsappAccountId: account.id }, content: template, idempotencyKey: `campaign:${randomUUID()}` };
    const sent = await outbound.send(r);
    const conversations = await database.db.select().from(t.conversations).where(eq(t.conversations.contactId, contact.id));
    expect(conversations).toHaveLength(1);
    expect(conversations[0].whatsappAccountId).toBe(account.id);
    expect(sent.message.conversationId).toBe(conversations[0].id);
    expect(await sendRow(r.idempotencyKey)).toMatchObject({ status: 'sent', conversationId: conversations[0].id, messageType: 'template' });
    const events = await eventsAfter(seq);
    expect(events.map((e) => e.type)).toEqual(['conversation.opened', 'message.created']);
    expect(events[0].payload).toMatchObject({ conversation: { id: conversations[0].id, lastMessage: { id: sent.message.id } } });
    // The conversation as it stands after the message (moved to the top of the lists with it).
    expect((events[0].payload as { conversation: { lastMessageAt: string | null } }).conversation.lastMessageAt).toBe(sent.message.createdAt);
  });

  it('writes to a contact’s closed conversation on the number without reopening it (Parley writing does not reopen)', async () => {
    const { contact, conversation } = await customer({ inboundAgo: hours(30) });
    await database.db.update(t.conversations).set({ isActive: false }).where(eq(t.conversations.id, conversation!.id));
    const { outbound } = setup();
    const seq = await lastSeq();
    const sent = await outbound.send({ workspaceId: ws, actor: { type: 'campaign', campaignId }, target: { contactId: contact.id, whatsappAccountId: account.id }, content: template, idempotencyKey: randomUUID() });
    expect(sent.message.conversationId).toBe(conversation!.id);
    const conversations = await database.db.select().from(t.conversations).where(eq(t.conversations.contactId, contact.id));
    expect(conversations.map((c) => [c.id, c.isActive])).toEqual([[conversation!.id, false]]);
    expect(await database.db.select().from(t.conversationEvents).where(eq(t.conversationEvents.conversationId, conversation!.id))).toEqual([]);
    expect((await eventsAfter(seq)).map((e) => e.type)).toEqual(['message.created']);
  });

  it('sends to a contact on a number through its latest conversation there when its window is open', async () => {
    const { contact, conversation } = await customer({ inboundAgo: hours(2) });
    const { outbound, graphCalls } = setup();
    const sent = await outbound.send({ workspaceId: ws, actor: bot, target: { contactId: contact.id, whatsappAccountId: account.id }, content: text('Hi again'), idempotencyKey: randomUUID() });
    expect(graphCalls).toHaveLength(1);
    expect(sent.message.conversationId).toBe(conversation!.id);
  });
});

describe('what cannot be sent is refused before anything is recorded', () => {
  async function refused(r: OutboundRequest, status: number, message: string) {
    const { outbound, graphCalls, pacerCalls } = setup();
    const err = await caught(outbound.send(r));
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ statusCode: status, message });
    expect(graphCalls).toHaveLength(0);
    expect(pacerCalls).toHaveLength(0);
    expect(await sendRow(r.idempotencyKey)).toBeUndefined();
    // The job ends on it (nothing to retry), saying why.
    const before = logsOf('outbound send not delivered').length;
    await expect(outbound.runJob(r)).resolves.toBeUndefined();
    expect(logsOf('outbound send not delivered').slice(before)).toEqual([{ level: 'warn', msg: 'outbound send not delivered', obj: { idempotencyKey: r.idempotencyKey, reason: message } }]);
  }

  it('a conversation that does not exist (or is another workspace’s)', async () => {
    await refused(req(randomUUID()), 404, 'Conversation not found');
    const theirs = await customer({ inboundAgo: hours(1), on: otherAccount, workspaceId: otherWs });
    await refused(req(theirs.conversation!.id), 404, 'Conversation not found');
  });

  it('a contact that does not exist (or is another workspace’s)', async () => {
    await refused({ ...req(randomUUID()), target: { contactId: randomUUID(), whatsappAccountId: account.id } }, 404, 'Contact not found');
    const theirs = await customer({ workspaceId: otherWs });
    await refused({ ...req(randomUUID()), target: { contactId: theirs.contact.id, whatsappAccountId: account.id } }, 404, 'Contact not found');
  });

  it('a conversation without a number, or a number of another workspace', async () => {
    const none = await customer({ inboundAgo: hours(1), on: null });
    await refused(req(none.conversation!.id), 409, 'This conversation has no connected WhatsApp number to send from');
    const { contact } = await writing();
    await refused({ ...req(randomUUID()), target: { contactId: contact.id, whatsappAccountId: otherAccount.id } }, 409, 'This conversation has no connected WhatsApp number to send from');
    await refused({ ...req(randomUUID(), template), target: { contactId: contact.id, whatsappAccountId: randomUUID() } }, 409, 'This conversation has no connected WhatsApp number to send from');
  });

  it('free-form content more than 24 hours after the customer last wrote, or before they ever wrote; a template goes', async () => {
    const late = await customer({ inboundAgo: hours(24) + 60_000 });
    await refused(req(late.conversation!.id), 409, outsideWindowMessage);
    await refused(req(late.conversation!.id, { type: 'image', media: { id: 'media-1' } }), 409, outsideWindowMessage);
    const never = await customer({ inboundAgo: null });
    await refused(req(never.conversation!.id), 409, outsideWindowMessage);
    const unknownContact = await customer();
    await refused({ ...req(randomUUID()), target: { contactId: unknownContact.contact.id, whatsappAccountId: account.id } }, 409, outsideWindowMessage);
    // The window of the contact on another number does not count for this one.
    const elsewhere = await customer({ inboundAgo: hours(1), on: secondAccount });
    await refused({ ...req(randomUUID()), target: { contactId: elsewhere.contact.id, whatsappAccountId: account.id } }, 409, outsideWindowMessage);

    const { outbound, graphCalls } = setup();
    const sent = await outbound.send(req(late.conversation!.id, template));
    expect(graphCalls).toHaveLength(1);
    expect(sent.message.type).toBe('template');
    // Inside the window (23 hours) free text goes.
    const inside = await customer({ inboundAgo: hours(23) });
    await expect(outbound.send(req(inside.conversation!.id))).resolves.toMatchObject({ replayed: false });
  });

  it('a request that is not one (the job payload is checked too)', async () => {
    const { conversation } = await writing();
    const { outbound, graphCalls } = setup();
    await expect(outbound.send(req(conversation.id, text(), { idempotencyKey: '' }))).rejects.toBeInstanceOf(ZodError);
    await expect(outbound.runJob(req(conversation.id, text(), { idempotencyKey: '' }))).rejects.toBeInstanceOf(ZodError);
    expect(graphCalls).toHaveLength(0);
  });
});

describe('the idempotency key', () => {
  it('answers the first send’s message for a key sent before, without calling WhatsApp again', async () => {
    const { conversation } = await writing();
    const { outbound, graphCalls, pacerCalls } = setup([{ wamid: 'wamid.once.only' }]);
    const r = req(conversation.id, text('Once only'));
    const first = await outbound.send(r);
    const again = await outbound.send(r);
    expect(graphCalls).toHaveLength(1);
    expect(again).toEqual({ message: first.message, sendId: first.sendId, replayed: true, wamid: 'wamid.once.only' });
    expect(await messagesIn(conversation.id)).toHaveLength(1);
    expect(pacerCalls).toHaveLength(2);
    // A job with that key ends quietly.
    await expect(outbound.runJob(r)).resolves.toBeUndefined();
    expect(graphCalls).toHaveLength(1);
  });

  it('reports a send recorded as sent whose message is missing as unknown, never sending again', async () => {
    const { contact, conversation } = await writing();
    const { outbound, graphCalls } = setup();
    const noMessage = await priorSend(`k-${randomUUID()}`, contact.id, conversation.id, { status: 'sent', waMessageId: 'wamid.lost' });
    const e1 = await caught(outbound.send(req(conversation.id, text(), { idempotencyKey: noMessage.idempotencyKey })));
    expect(e1).toBeInstanceOf(OutcomeUnknownError);
    expect(e1).toMatchObject({ sendId: noMessage.id, message: 'The outcome of this send is unknown; it is not sent again' });
    const goneMessage = await priorSend(`k-${randomUUID()}`, contact.id, conversation.id, { status: 'sent', messageId: randomUUID() });
    const e2 = await caught(outbound.send(req(conversation.id, text(), { idempotencyKey: goneMessage.idempotencyKey })));
    expect(e2).toMatchObject({ sendId: goneMessage.id });
    expect(e2).toBeInstanceOf(OutcomeUnknownError);
    expect(graphCalls).toHaveLength(0);
  });

  it('answers a refusal for good again, with its code and reason, without asking WhatsApp again', async () => {
    const { conversation } = await writing();
    const refusal = new GraphApiError({ httpStatus: 400, code: 131026, message: 'Message undeliverable' });
    const { outbound, graphCalls } = setup([{ throws: refusal }]);
    const r = req(conversation.id, text('Undeliverable'));
    const first = await caught(outbound.send(r));
    expect(first).toBe(refusal);
    expect(await sendRow(r.idempotencyKey)).toMatchObject({ status: 'failed', errorCode: 131026, failureReason: refusal.userMessage });
    const again = await caught(outbound.send(r));
    expect(again).toBeInstanceOf(GraphApiError);
    expect(again).toMatchObject({ httpStatus: 400, code: 131026, message: refusal.userMessage, mayHaveArrived: false, retryable: false });
    expect(graphCalls).toHaveLength(1);
    expect(await messagesIn(conversation.id)).toHaveLength(0);
  });

  it('answers a failed send without code or reason as a refusal without code', async () => {
    const { contact, conversation } = await writing();
    const { outbound, graphCalls } = setup();
    const row = await priorSend(`k-${randomUUID()}`, contact.id, conversation.id, { status: 'failed' });
    const err = await caught(outbound.send(req(conversation.id, text(), { idempotencyKey: row.idempotencyKey })));
    expect(err).toBeInstanceOf(GraphApiError);
    expect(err).toMatchObject({ httpStatus: 400, code: undefined, message: 'refused' });
    expect(graphCalls).toHaveLength(0);
  });

  it('sends a pending send again when asked again with its key: one message, attempts counted, the old error cleared', async () => {
    const { conversation } = await writing();
    const unavailable = new GraphApiError({ httpStatus: 503, code: 131000, message: 'Something went wrong' });
    const { outbound, graphCalls } = setup([{ throws: unavailable }, { wamid: 'wamid.second.try' }]);
    const r = req(conversation.id, text('Eventually'));
    expect(await caught(outbound.send(r))).toBe(unavailable);
    expect(await sendRow(r.idempotencyKey)).toMatchObject({ status: 'pending', errorCode: 131000, failureReason: unavailable.userMessage, attempts: 1 });
    const sent = await outbound.send(r);
    expect(sent).toMatchObject({ replayed: false, wamid: 'wamid.second.try' });
    expect(await sendRow(r.idempotencyKey)).toMatchObject({ status: 'sent', attempts: 2, errorCode: null, failureReason: null, messageId: sent.message.id });
    expect(graphCalls).toHaveLength(2);
    expect(await messagesIn(conversation.id)).toHaveLength(1);
  });

  it('a send its caller withdraws after the claim (a paused campaign) calls nobody and goes later, once', async () => {
    const { conversation } = await writing();
    const { outbound, graphCalls } = setup();
    const r = req(conversation.id, template);
    const paused = new Error('campaign paused');
    let checked = 0;
    const refuse = async () => {
      checked++;
      // The claim is written before the last word, so a pause that came while the claim waited is still seen.
      expect(await sendRow(r.idempotencyKey)).toMatchObject({ status: 'claimed' });
      throw paused;
    };
    expect(await caught(outbound.send(r, { beforeRequest: refuse }))).toBe(paused);
    expect(checked).toBe(1);
    expect(graphCalls).toHaveLength(0);
    expect(await sendRow(r.idempotencyKey)).toMatchObject({ status: 'pending' });
    expect(await messagesIn(conversation.id)).toHaveLength(0);
    // Resumed: the same key is claimed again and sent once.
    const sent = await outbound.send(r, { beforeRequest: async () => undefined });
    expect(sent.replayed).toBe(false);
    expect(graphCalls).toHaveLength(1);
    expect(await sendRow(r.idempotencyKey)).toMatchObject({ status: 'sent', attempts: 2 });
    expect(await messagesIn(conversation.id)).toHaveLength(1);
  });

  it('never sends an unknown send again', async () => {
    const { contact, conversation } = await writing();
    const { outbound, graphCalls } = setup();
    const row = await priorSend(`k-${randomUUID()}`, contact.id, conversation.id, { status: 'unknown' });
    const err = await caught(outbound.send(req(conversation.id, text(), { idempotencyKey: row.idempotencyKey })));
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(err).toMatchObject({ sendId: row.id });
    expect(graphCalls).toHaveLength(0);
    expect(await sendRow(row.idempotencyKey)).toMatchObject({ status: 'unknown' });
  });

  it('treats a claim younger than inFlightMs as in flight (the job tries again later), an older one as unknown, reported', async () => {
    const { contact, conversation } = await writing();
    const { outbound, graphCalls } = setup([], { inFlightMs: 60_000 });
    const young = await priorSend(`k-${randomUUID()}`, contact.id, conversation.id, { status: 'claimed', claimedAt: new Date(Date.now() - 30_000) });
    const r1 = req(conversation.id, text(), { idempotencyKey: young.idempotencyKey });
    const e1 = await caught(outbound.send(r1));
    expect(e1).toBeInstanceOf(SendInFlightError);
    expect(e1).toMatchObject({ sendId: young.id, message: 'This send is in progress' });
    expect(await sendRow(young.idempotencyKey)).toMatchObject({ status: 'claimed', failureReason: null });
    // The job is retried (it throws), nothing sent.
    expect(await caught(outbound.runJob(r1))).toBeInstanceOf(SendInFlightError);

    const old = await priorSend(`k-${randomUUID()}`, contact.id, conversation.id, { status: 'claimed', claimedAt: new Date(Date.now() - 90_000) });
    const r2 = req(conversation.id, text(), { idempotencyKey: old.idempotencyKey });
    const before = logged.length;
    const e2 = await caught(outbound.send(r2));
    expect(e2).toBeInstanceOf(OutcomeUnknownError);
    expect(e2).toMatchObject({ sendId: old.id });
    expect(await sendRow(old.idempotencyKey)).toMatchObject({ status: 'unknown', failureReason: 'claimed but never finished (the sending process stopped)' });
    expect(logged.slice(before)).toEqual([
      { level: 'warn', msg: 'outbound send outcome unknown; not sent again', obj: { sendId: old.id, workspaceId: ws, idempotencyKey: old.idempotencyKey, why: 'claim never finished' } },
    ]);
    // Asked again: unknown, still not sent; the job ends.
    expect(await caught(outbound.send(r2))).toBeInstanceOf(OutcomeUnknownError);
    await expect(outbound.runJob(r2)).resolves.toBeUndefined();
    expect(graphCalls).toHaveLength(0);
  });

  it('counts a claim exactly inFlightMs old as stale', async () => {
    const { contact, conversation } = await writing();
    const { outbound } = setup([], { inFlightMs: 60_000 });
    const claimedAt = new Date(Date.now() - 1000);
    const row = await priorSend(`k-${randomUUID()}`, contact.id, conversation.id, { status: 'claimed', claimedAt });
    // The clock of the check reads exactly inFlightMs after the claim.
    vi.spyOn(Date, 'now').mockReturnValue(claimedAt.getTime() + 60_000);
    const err = await caught(outbound.send(req(conversation.id, text(), { idempotencyKey: row.idempotencyKey })));
    vi.restoreAllMocks();
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(await sendRow(row.idempotencyKey)).toMatchObject({ status: 'unknown' });
  });

  it('takes five minutes as the default in-flight time', async () => {
    const { contact, conversation } = await writing();
    const { outbound } = setup();
    const young = await priorSend(`k-${randomUUID()}`, contact.id, conversation.id, { status: 'claimed', claimedAt: new Date(Date.now() - 4 * 60_000) });
    expect(await caught(outbound.send(req(conversation.id, text(), { idempotencyKey: young.idempotencyKey })))).toBeInstanceOf(SendInFlightError);
    const old = await priorSend(`k-${randomUUID()}`, contact.id, conversation.id, { status: 'claimed', claimedAt: new Date(Date.now() - 6 * 60_000) });
    expect(await caught(outbound.send(req(conversation.id, text(), { idempotencyKey: old.idempotencyKey })))).toBeInstanceOf(OutcomeUnknownError);
  });
});

describe('how a send WhatsApp did not take is settled', () => {
  it('a refusal for good: failed with its code and the sentence for people; the job ends', async () => {
    const { contact, conversation } = await writing();
    const refusal = new GraphApiError({ httpStatus: 400, code: 131026, message: 'undeliverable' });
    const { outbound, graphCalls } = setup([{ throws: refusal }]);
    const r = req(conversation.id, text('Undeliverable'));
    const before = logged.length;
    await expect(outbound.runJob(r)).resolves.toBeUndefined();
    expect(await sendRow(r.idempotencyKey)).toMatchObject({ status: 'failed', errorCode: 131026, failureReason: refusal.userMessage, conversationId: conversation.id, contactId: contact.id });
    expect(logged.slice(before)).toEqual([{ level: 'warn', msg: 'outbound send not delivered', obj: { idempotencyKey: r.idempotencyKey, reason: 'undeliverable' } }]);
    expect(graphCalls).toHaveLength(1);
  });

  it('WhatsApp unavailable (5xx, no code): pending without code; the job is retried', async () => {
    const { conversation } = await writing();
    const unavailable = new GraphApiError({ httpStatus: 502 });
    const { outbound } = setup([{ throws: unavailable }]);
    const r = req(conversation.id);
    expect(await caught(outbound.runJob(r))).toBe(unavailable);
    expect(await sendRow(r.idempotencyKey)).toMatchObject({ status: 'pending', errorCode: null, failureReason: unavailable.userMessage });
  });

  it('a pair-rate refusal (131056): pending for that recipient, the number not backed off, the job ends', async () => {
    const { contact } = await customer();
    const pairRate = new GraphApiError({ httpStatus: 400, code: pairRateLimitCode, message: 'pair rate' });
    expect(pairRate.retryable).toBe(false);
    const { outbound, graphCalls, pacerCalls } = setup([{ throws: pairRate }, { throws: pairRate }]);
    const r: OutboundRequest = { workspaceId: ws, actor: { type: 'campaign', campaignId }, target: { contactId: contact.id, whatsappAccountId: account.id }, content: template, idempotencyKey: randomUUID() };
    expect(await caught(outbound.send(r))).toBe(pairRate);
    expect(await sendRow(r.idempotencyKey)).toMatchObject({ status: 'pending', errorCode: 131056, failureReason: pairRate.userMessage, conversationId: null });
    expect(pacerCalls).toEqual([`take ${account.id}`]);
    // The key stays sendable: asked again, WhatsApp is called again. The job itself is not retried.
    await expect(outbound.runJob(r)).resolves.toBeUndefined();
    expect(graphCalls).toHaveLength(2);
    expect(await sendRow(r.idempotencyKey)).toMatchObject({ status: 'pending', attempts: 2 });
  });

  it('a request that timed out after it left (WhatsApp may have it): unknown, reported, the same error thrown, the job ends', async () => {
    const { conversation } = await writing();
    const timeout = new GraphApiError({ httpStatus: 0, network: true, timeout: true, message: 'POST /messages timed out', mayHaveArrived: true });
    expect(timeout.retryable).toBe(true);
    const { outbound, graphCalls } = setup([{ throws: timeout }]);
    const r = req(conversation.id);
    const before = logged.length;
    expect(await caught(outbound.send(r))).toBe(timeout);
    const row = await sendRow(r.idempotencyKey);
    expect(row).toMatchObject({ status: 'unknown', failureReason: 'POST /messages timed out', errorCode: null });
    expect(logged.slice(before)).toEqual([
      { level: 'warn', msg: 'outbound send outcome unknown; not sent again', obj: { sendId: row.id, workspaceId: ws, idempotencyKey: r.idempotencyKey, why: 'POST /messages timed out' } },
    ]);
    // Again (a retried job): not sent, and the job ends.
    await expect(outbound.runJob(r)).resolves.toBeUndefined();
    expect(graphCalls).toHaveLength(1);
  });

  it('an unexpected error while sending: unknown, reported, an OutcomeUnknownError thrown (the job ends)', async () => {
    const { conversation } = await writing();
    const { outbound } = setup([{ throws: new TypeError('socket hang up') }, { throws: 'a string' }]);
    const r = req(conversation.id);
    const before = logged.length;
    const err = await caught(outbound.send(r));
    const row = await sendRow(r.idempotencyKey);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(err).toMatchObject({ sendId: row.id });
    expect(row).toMatchObject({ status: 'unknown', failureReason: 'socket hang up' });
    expect(logged.slice(before)).toEqual([
      { level: 'warn', msg: 'outbound send outcome unknown; not sent again', obj: { sendId: row.id, workspaceId: ws, idempotencyKey: r.idempotencyKey, why: 'socket hang up' } },
    ]);
    const r2 = req(conversation.id);
    await expect(outbound.runJob(r2)).resolves.toBeUndefined();
    const row2 = await sendRow(r2.idempotencyKey);
    expect(row2).toMatchObject({ status: 'unknown', failureReason: 'unexpected error' });
    expect(logsOf('outbound send outcome unknown; not sent again').at(-1)!.obj).toMatchObject({ sendId: row2.id, why: 'unexpected error' });
    expect(logsOf('outbound send not delivered').at(-1)!.obj).toEqual({ idempotencyKey: r2.idempotencyKey, reason: 'The outcome of this send is unknown; it is not sent again' });
  });
});

describe('130429: the number backs off and the same send goes again', () => {
  it('backs off, notes it on the send and sends the same claimed send again in a new slot', async () => {
    const { conversation } = await writing();
    const throttled = new GraphApiError({ httpStatus: 400, code: 130429, message: 'throughput' });
    const { outbound, graphCalls, pacerCalls } = setup([{ throws: throttled }, { wamid: 'wamid.after.pause' }]);
    const r = req(conversation.id, text('After the pause'));
    const before = logged.length;
    const sent = await outbound.send(r);
    expect(sent.wamid).toBe('wamid.after.pause');
    expect(graphCalls).toHaveLength(2);
    expect(graphCalls[1].message).toEqual(graphCalls[0].message);
    expect(pacerCalls).toEqual([`take ${account.id}`, `backOff ${account.id}`, `take ${account.id}`]);
    const row = await sendRow(r.idempotencyKey);
    expect(row).toMatchObject({ status: 'sent', throttled: 1, attempts: 1, messageId: sent.message.id });
    expect(logged.slice(before)).toEqual([
      { level: 'warn', msg: 'WhatsApp answered 130429; the number backs off and the send goes again', obj: { sendId: row.id, accountId: account.id, throttled: 1 } },
    ]);
    expect(await messagesIn(conversation.id)).toHaveLength(1);
  });

  it('gives up after maxThrottled answers: pending with 130429, and the job is retried', async () => {
    const { conversation } = await writing();
    const throttled = new GraphApiError({ httpStatus: 400, code: 130429, message: 'throughput' });
    const { outbound, graphCalls, pacerCalls } = setup([{ throws: throttled }, { throws: throttled }, 'ok'], { maxThrottled: 2 });
    const r = req(conversation.id);
    expect(await caught(outbound.runJob(r))).toBe(throttled);
    expect(graphCalls).toHaveLength(2);
    expect(pacerCalls.filter((c) => c.startsWith('backOff'))).toHaveLength(2);
    expect(await sendRow(r.idempotencyKey)).toMatchObject({ status: 'pending', errorCode: 130429, throttled: 2 });
  });

  it('absorbs four 130429 answers by default and gives up at the fifth', async () => {
    const { conversation } = await writing();
    const throttled = new GraphApiError({ httpStatus: 400, code: 130429, message: 'throughput' });
    const four = Array.from({ length: 4 }, () => ({ throws: throttled }));
    const a = setup([...four, 'ok']);
    await expect(a.outbound.send(req(conversation.id))).resolves.toMatchObject({ replayed: false });
    expect(a.graphCalls).toHaveLength(5);
    const b = setup([...four, { throws: throttled }, 'ok']);
    const r = req(conversation.id);
    expect(await caught(b.outbound.send(r))).toBe(throttled);
    expect(b.graphCalls).toHaveLength(5);
    expect(await sendRow(r.idempotencyKey)).toMatchObject({ status: 'pending', throttled: 5 });
  });

  it('does not retry other refusals', async () => {
    const { conversation } = await writing();
    const other = new GraphApiError({ httpStatus: 400, code: 131057, message: 'maintenance' });
    const { outbound, graphCalls, pacerCalls } = setup([{ throws: other }, 'ok']);
    const r = req(conversation.id);
    expect(await caught(outbound.send(r))).toBe(other);
    expect(graphCalls).toHaveLength(1);
    expect(pacerCalls).toEqual([`take ${account.id}`]);
    expect(await sendRow(r.idempotencyKey)).toMatchObject({ status: 'pending', errorCode: 131057, throttled: 0 });
  });

  it('with the real pacer: the number’s row is backed off in the database', async () => {
    const { conversation } = await writing();
    const throttled = new GraphApiError({ httpStatus: 400, code: 130429, message: 'throughput' });
    const g = scriptedGraph({ throws: throttled }, 'ok');
    const outbound = createOutbound(deps(), channel, g.graph, {});
    const before = (await database.db.select().from(t.sendPacers).where(eq(t.sendPacers.whatsappAccountId, account.id)))[0]?.backoffs ?? 0;
    const sent = await outbound.send(req(conversation.id));
    expect(sent.replayed).toBe(false);
    expect(g.calls).toHaveLength(2);
    const [pacerRow] = await database.db.select().from(t.sendPacers).where(eq(t.sendPacers.whatsappAccountId, account.id));
    expect(pacerRow.backoffs).toBe(before + 1);
  });
});

describe('an accepted send that cannot be stored', () => {
  it('is unknown (never sent again), reported, and the job fails with the storage error', async () => {
    const { conversation } = await writing();
    const taken = `wamid.taken.${randomUUID()}`;
    await database.db.insert(t.messages).values({ workspaceId: ws, conversationId: conversation.id, type: 'text', text: 'earlier', creator: 'user', waMessageId: taken, status: 'received' });
    const { outbound, graphCalls } = setup([{ wamid: taken }, { wamid: taken }]);
    const r = req(conversation.id);
    const before = logged.length;
    const err = await caught(outbound.send(r));
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe('WhatsApp answered a message id that is stored already');
    const row = await sendRow(r.idempotencyKey);
    expect(row).toMatchObject({ status: 'unknown', failureReason: `accepted by WhatsApp as ${taken} but not stored`, messageId: null });
    expect(logged.slice(before)).toEqual([
      { level: 'warn', msg: 'outbound send outcome unknown; not sent again', obj: { sendId: row.id, workspaceId: ws, idempotencyKey: r.idempotencyKey, why: 'accepted but not stored' } },
    ]);
    // The job fails with it (an error of neither kind is left to the queue).
    const r2 = req(conversation.id);
    expect((await caught(outbound.runJob(r2))) as Error).toMatchObject({ message: 'WhatsApp answered a message id that is stored already' });
    expect(graphCalls).toHaveLength(2);
    expect(await messagesIn(conversation.id)).toHaveLength(1);
  });

  it('does not take the other sends of its batch with it', async () => {
    const c1 = await writing();
    const c2 = await writing();
    const taken = `wamid.taken.${randomUUID()}`;
    await database.db.insert(t.messages).values({ workspaceId: ws, conversationId: c1.conversation.id, type: 'text', text: 'earlier', creator: 'user', waMessageId: taken, status: 'received' });
    const h = heldGraphFor(taken);
    const outbound = createOutbound(deps(), channel, h.graph, { pacer: recordingPacer().pacer });
    const reqs = [req(c1.conversation.id, text('first')), req(c2.conversation.id, text('two')), req(c1.conversation.id, text('bad')), req(c2.conversation.id, text('four'))];
    const all = Promise.allSettled(reqs.map((r) => outbound.send(r)));
    await h.arrived(4);
    h.release('first');
    const results = await all;
    expect(results.map((x) => x.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseRejectedResult).reason).toMatchObject({ message: 'WhatsApp answered a message id that is stored already' });
    for (const i of [0, 1, 3]) {
      const sent = (results[i] as PromiseFulfilledResult<{ message: { id: string; text: string | null } }>).value;
      expect(sent.message.text).toBe((reqs[i].content as { text: string }).text);
      expect(await sendRow(reqs[i].idempotencyKey)).toMatchObject({ status: 'sent', messageId: sent.message.id });
    }
    expect(await sendRow(reqs[2].idempotencyKey)).toMatchObject({ status: 'unknown', failureReason: `accepted by WhatsApp as ${taken} but not stored` });
    expect((await messagesIn(c1.conversation.id)).map((m) => m.text)).toEqual(['earlier', 'first']);
    expect((await messagesIn(c2.conversation.id)).map((m) => m.text).sort()).toEqual(['four', 'two']);
  });

  it('sends to one new contact written together open one conversation, announced once', async () => {
    const c1 = await writing();
    const { contact } = await customer();
    const h = heldGraphFor('none');
    const outbound = createOutbound(deps(), channel, h.graph, { pacer: recordingPacer().pacer });
    const seq = await lastSeq();
    const toNew = (n: number): OutboundRequest => ({
      workspaceId: ws,
      actor: { type: 'campaign', campaignId },
      target: { contactId: contact.id, whatsappAccountId: account.id },
      content: { ...template, text: `step ${n}` } as OutboundContent,
      idempotencyKey: `campaign:${randomUUID()}`,
    });
    const all = Promise.all([outbound.send(req(c1.conversation.id, text('first'))), outbound.send(toNew(1)), outbound.send(toNew(2))]);
    await h.arrived(3);
    h.release('first');
    const [, a, b] = await all;
    const conversations = await database.db.select().from(t.conversations).where(eq(t.conversations.contactId, contact.id));
    expect(conversations).toHaveLength(1);
    expect([a.message.conversationId, b.message.conversationId]).toEqual([conversations[0].id, conversations[0].id]);
    const events = (await eventsAfter(seq)).filter((e) => e.type === 'conversation.opened' || JSON.stringify(e.payload).includes(conversations[0].id));
    expect(events.map((e) => e.type)).toEqual(['conversation.opened', 'message.created', 'message.created']);
  });
});

describe('the final writes of accepted sends', () => {
  /** The text of a drizzle statement (its literal chunks), to tell the final write from the path's other statements. */
  const statementText = (query: unknown) =>
    ((query as { queryChunks?: { value?: string[] }[] }).queryChunks ?? []).map((c) => (Array.isArray(c.value) ? c.value.join('') : '')).join('');

  /** The database, with the final writes for which `fails` answers true failing as a dropped connection would. */
  function failingFinalWrites(fails: () => boolean): Database {
    const db = new Proxy(database.db, {
      get(target, prop, receiver) {
        if (prop !== 'execute') return Reflect.get(target, prop, receiver);
        return (query: Parameters<Database['db']['execute']>[0]) =>
          statementText(query).includes('append_workspace_events') && fails()
            ? Promise.reject(new Error('connection reset while writing'))
            : target.execute(query);
      },
    });
    return { ...database, db };
  }

  /** deps() with the next `n` final writes failing. */
  function flakyDeps(n: number) {
    let failures = n;
    return { ...deps(), db: failingFinalWrites(() => failures-- > 0) } as unknown as ServiceDeps;
  }

  it('a lone send whose write fails is not written again: unknown, reported, the error thrown', async () => {
    const { conversation } = await writing();
    const g = scriptedGraph({ wamid: 'wamid.lone.unwritten' });
    const outbound = createOutbound(flakyDeps(1), channel, g.graph, { pacer: recordingPacer().pacer });
    const r = req(conversation.id, text('lone'));
    expect(await caught(outbound.send(r))).toMatchObject({ message: 'connection reset while writing' });
    expect(await sendRow(r.idempotencyKey)).toMatchObject({ status: 'unknown', failureReason: 'accepted by WhatsApp as wamid.lone.unwritten but not stored' });
    expect(await messagesIn(conversation.id)).toHaveLength(0);
  });

  it('a batch whose write fails is written again one send at a time', async () => {
    const c1 = await writing();
    const c2 = await writing();
    const h = heldGraphFor();
    // The first send's write alone succeeds; the batch of the three others fails once, then each is written alone.
    let failures = 0;
    const db = failingFinalWrites(() => ++failures === 2);
    const outbound = createOutbound({ ...deps(), db } as unknown as ServiceDeps, channel, h.graph, { pacer: recordingPacer().pacer });
    const reqs = [req(c1.conversation.id, text('first')), req(c2.conversation.id, text('two')), req(c1.conversation.id, text('three')), req(c2.conversation.id, text('four'))];
    const all = Promise.all(reqs.map((r) => outbound.send(r)));
    await h.arrived(4);
    h.release('first');
    const sent = await all;
    for (const [i, r] of reqs.entries()) expect(await sendRow(r.idempotencyKey)).toMatchObject({ status: 'sent', messageId: sent[i].message.id });
    expect((await messagesIn(c1.conversation.id)).map((m) => m.text).sort()).toEqual(['first', 'three']);
    expect((await messagesIn(c2.conversation.id)).map((m) => m.text).sort()).toEqual(['four', 'two']);
    expect(failures).toBeGreaterThanOrEqual(2);
  });

  it('stores every send when more than a batch (200) wait at once', async () => {
    const { conversation } = await writing();
    const h = heldGraphFor();
    const outbound = createOutbound(deps(), channel, h.graph, { pacer: recordingPacer().pacer });
    const reqs = [req(conversation.id, text('first')), ...Array.from({ length: 202 }, (_, i) => req(conversation.id, text(`many ${i}`)))];
    const all = Promise.all(reqs.map((r) => outbound.send(r)));
    await h.arrived(reqs.length);
    h.release('first');
    const sent = await all;
    expect(new Set(sent.map((s) => s.message.id)).size).toBe(reqs.length);
    expect(await messagesIn(conversation.id)).toHaveLength(reqs.length);
    const rows = await database.db.select().from(t.outboundSends).where(and(eq(t.outboundSends.workspaceId, ws), eq(t.outboundSends.conversationId, conversation.id)));
    expect(rows.filter((row) => row.status === 'sent')).toHaveLength(reqs.length);
  }, 120_000);
});

describe('what is sent and stored for each kind of message', () => {
  async function sendOne(content: OutboundContent) {
    const { conversation } = await writing();
    const { outbound, graphCalls } = setup();
    const r = req(conversation.id, content);
    const sent = await outbound.send(r);
    const [row] = await database.db.select().from(t.messages).where(eq(t.messages.id, sent.message.id));
    const send = await sendRow(r.idempotencyKey);
    expect(send.messageType).toBe(row.type);
    expect(graphCalls).toHaveLength(1);
    return {
      wire: graphCalls[0].message,
      stored: { type: row.type, text: row.text, mediaUrl: row.mediaUrl, header: row.header, action: row.action, footer: row.footer, templateComponents: row.templateComponents },
    };
  }
  const none = { text: null, mediaUrl: null, header: null, action: null, footer: null, templateComponents: null };

  it('text, with a link preview when it holds a link (unless told)', async () => {
    expect(await sendOne({ type: 'text', text: 'See https://shop.example.com/a' })).toEqual({
      wire: { type: 'text', text: { body: 'See https://shop.example.com/a', preview_url: true } },
      stored: { ...none, type: 'text', text: 'See https://shop.example.com/a' },
    });
    expect((await sendOne({ type: 'text', text: 'Old site http://shop.example.com' })).wire).toEqual({ type: 'text', text: { body: 'Old site http://shop.example.com', preview_url: true } });
    expect((await sendOne({ type: 'text', text: 'No link: https:/x or http: here' })).wire).toEqual({ type: 'text', text: { body: 'No link: https:/x or http: here', preview_url: false } });
    expect((await sendOne({ type: 'text', text: 'https://a.example', previewUrl: false })).wire).toEqual({ type: 'text', text: { body: 'https://a.example', preview_url: false } });
    expect((await sendOne({ type: 'text', text: 'plain', previewUrl: true })).wire).toEqual({ type: 'text', text: { body: 'plain', preview_url: true } });
  });

  it('a template, stored as the thread shows it', async () => {
    expect(await sendOne(template)).toEqual({
      wire: { type: 'template', template: { name: 'back_in_stock', language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ada' }] }] } },
      stored: {
        ...none,
        type: 'template',
        header: { type: 'text', text: 'News' },
        text: 'Hi Ada, it is back.',
        footer: 'Corner Shop',
        action: { buttons: [{ type: 'QUICK_REPLY', text: 'Stop' }] },
        templateComponents: { templateId: null, name: 'back_in_stock', language: 'en_US', components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ada' }] }] },
      },
    });
  });

  it('media: a file of our store goes as a signed link for a day, an outside link as it is, an uploaded id as its id', async () => {
    expect(await sendOne({ type: 'image', media: { link: `${storeBase}ws/attachments/jacket.jpg` }, caption: 'The blue jacket' })).toEqual({
      wire: { type: 'image', image: { link: 'https://signed.parley.test/ws/attachments/jacket.jpg?ttl=86400', caption: 'The blue jacket' } },
      stored: { ...none, type: 'image', text: 'The blue jacket', mediaUrl: `${storeBase}ws/attachments/jacket.jpg`, header: { type: 'image' } },
    });
    expect(await sendOne({ type: 'document', media: { link: 'https://cdn.example.com/invoice.pdf' }, filename: 'invoice.pdf' })).toEqual({
      wire: { type: 'document', document: { link: 'https://cdn.example.com/invoice.pdf', filename: 'invoice.pdf' } },
      stored: { ...none, type: 'document', mediaUrl: 'https://cdn.example.com/invoice.pdf', header: { type: 'document', filename: 'invoice.pdf' } },
    });
    expect(await sendOne({ type: 'video', media: { id: 'media-77' } })).toEqual({
      wire: { type: 'video', video: { id: 'media-77' } },
      stored: { ...none, type: 'video', header: { type: 'video', mediaId: 'media-77' } },
    });
    expect((await sendOne({ type: 'audio', media: { id: 'media-78' } })).stored).toEqual({ ...none, type: 'audio', header: { type: 'audio', mediaId: 'media-78' } });
  });

  it('a list, with and without header and footer', async () => {
    const sections = [{ title: 'Jackets', rows: [{ id: 'm', title: 'M' }] }];
    expect((await sendOne({ type: 'list', header: 'Sizes', body: 'Pick a size', footer: 'Any time', button: 'Sizes', sections })).stored).toEqual({
      ...none,
      type: 'list',
      header: { type: 'text', text: 'Sizes' },
      text: 'Pick a size',
      footer: 'Any time',
      action: { button: 'Sizes', sections },
    });
    expect((await sendOne({ type: 'list', body: 'Pick', button: 'Sizes', sections })).stored).toEqual({ ...none, type: 'list', text: 'Pick', action: { button: 'Sizes', sections } });
  });

  it('reply buttons and a flow: their header (a store file as a signed link to WhatsApp), body, footer and action', async () => {
    const buttons = [{ id: 'yes', title: 'Yes' }];
    const b = await sendOne({ type: 'buttons', header: { type: 'image', image: { link: `${storeBase}ws/attachments/h.jpg` } }, body: 'Hold it?', footer: 'Corner Shop', buttons });
    expect(b.wire).toMatchObject({ type: 'interactive', interactive: { type: 'button', header: { type: 'image', image: { link: 'https://signed.parley.test/ws/attachments/h.jpg?ttl=86400' } } } });
    expect(b.stored).toEqual({
      ...none,
      type: 'reply',
      header: { type: 'image', image: { link: `${storeBase}ws/attachments/h.jpg` } },
      text: 'Hold it?',
      footer: 'Corner Shop',
      action: { buttons: [{ type: 'reply', reply: { id: 'yes', title: 'Yes' } }] },
    });
    const plain = await sendOne({ type: 'buttons', body: 'Hold it?', buttons });
    expect(plain.stored).toMatchObject({ header: null, footer: null });
    expect((await sendOne({ type: 'buttons', header: { type: 'text', text: 'Hi' }, body: 'x', buttons })).wire).toMatchObject({ interactive: { header: { type: 'text', text: 'Hi' } } });
    expect((await sendOne({ type: 'buttons', header: { type: 'document', document: { id: 'doc-1', filename: 'a.pdf' } }, body: 'x', buttons })).wire).toMatchObject({
      interactive: { header: { type: 'document', document: { id: 'doc-1', filename: 'a.pdf' } } },
    });
    const f = await sendOne({ type: 'flow', header: { type: 'video', video: { link: 'https://cdn.example.com/v.mp4' } }, body: 'Book a fitting', cta: 'Book', flowId: 'flow-1', screen: 'FIRST' });
    expect(f.wire).toMatchObject({ interactive: { type: 'flow', header: { type: 'video', video: { link: 'https://cdn.example.com/v.mp4' } } } });
    expect(f.stored).toMatchObject({ type: 'flow', text: 'Book a fitting', header: { type: 'video', video: { link: 'https://cdn.example.com/v.mp4' } }, footer: null, mediaUrl: null, templateComponents: null });
    expect(f.stored.action).toMatchObject({ name: 'flow', parameters: { flow_id: 'flow-1', flow_cta: 'Book' } });
  });
});
