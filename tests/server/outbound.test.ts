/**
 * The one outbound path (src/server/messaging/outbound.ts) against the sandbox: every kind of message on behalf of
 * any actor, the idempotency record (a retry never sends twice), unknown outcomes never resent, 130429 backing
 * the number off and sending the same send again.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { SandboxAccount } from '../../src/sandbox';
import { OutcomeUnknownError, SendInFlightError } from '../../src/server/messaging/send-outcomes';
import type { OutboundContent, OutboundRequest } from '../../src/server/messaging/outbound-request';
import { backoffCount, countByStatus } from '../support/outbound-state';
import { GraphApiError } from '../../src/server/whatsapp/graph-errors';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { newCustomers } from '../support/customers';

let ta: TestApp;
let admin: Session;
let number: SandboxAccount;
let accountId: string;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Corner Shop');
  number = ta.sandbox.addAccount();
  const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId } });
  expect(res.statusCode).toBe(201);
  expect(res.json().throughputPerSecond).toBe(80);
  accountId = res.json().id;
});
afterAll(async () => {
  await ta?.close();
});

const outbound = () => ta.app.parley.services.outbound;
const customerWrites = newCustomers(() => ({ ta, workspaceId: admin.workspaceId, phoneNumberId: number.phoneNumberId }), { waIdPrefix: '1650556', text: 'Hello shop' });
const sendRow = async (key: string) =>
  (await ta.db.select().from(t.outboundSends).where(and(eq(t.outboundSends.workspaceId, admin.workspaceId), eq(t.outboundSends.idempotencyKey, key))))[0];
const request = (conversationId: string, content: OutboundContent, key: string = randomUUID()): OutboundRequest => ({
  workspaceId: admin.workspaceId,
  actor: { type: 'bot', botId: '6f1de9a2-5b7c-4c1e-9d41-2b8f0a7c3e55' },
  target: { conversationId },
  content,
  idempotencyKey: key,
});

describe('every kind of message', () => {
  it('sends text, media, list, reply buttons, flow and template as a bot, stores them as the bot’s with their wamid', async () => {
    const { waId, conversation } = await customerWrites();
    const flow = ta.sandbox.flows.find((f) => f.wabaId === number.wabaAccountId && f.status === 'PUBLISHED')!;
    const created = await ta.call('POST', '/whatsapp-template', {
      token: admin.token,
      body: {
        name: 'back_in_stock',
        language: 'en_US',
        category: 'MARKETING',
        components: [{ type: 'BODY', text: 'Hi {{1}}, it is back.', example: { body_text: [['Ada']] } }],
        whatsappAccountId: accountId,
        workspaceId: admin.workspaceId,
      },
    });
    expect(created.statusCode).toBe(201);
    await ta.sandbox.settle();
    await ta.app.parley.jobs.drain();

    const contents: OutboundContent[] = [
      { type: 'text', text: 'We open at 9.' },
      { type: 'image', media: { link: 'https://cdn.example.com/jacket.jpg' }, caption: 'The blue jacket' },
      { type: 'video', media: { link: 'https://cdn.example.com/fit.mp4' } },
      { type: 'document', media: { link: 'https://cdn.example.com/invoice.pdf' }, filename: 'invoice.pdf' },
      { type: 'list', header: 'Sizes', body: 'Pick a size', button: 'Sizes', sections: [{ title: 'Jackets', rows: [{ id: 'm', title: 'M' }, { id: 'l', title: 'L' }] }] },
      { type: 'buttons', body: 'Shall we hold it?', buttons: [{ id: 'yes', title: 'Yes' }, { id: 'no', title: 'No' }] },
      { type: 'flow', body: 'Book a fitting', cta: 'Book', flowId: flow.id, screen: 'FIRST' },
      {
        type: 'template',
        templateId: created.json().id,
        name: 'back_in_stock',
        language: 'en_US',
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ada' }] }],
        header: null,
        text: 'Hi Ada, it is back.',
        footer: null,
        action: null,
      },
    ];
    const before = ta.sandbox.sent.length;
    const results = [];
    for (const content of contents) results.push(await outbound().send(request(conversation.id, content)));
    const sent = ta.sandbox.sent.slice(before);
    expect(sent.map((s) => s.type)).toEqual(['text', 'image', 'video', 'document', 'interactive', 'interactive', 'interactive', 'template']);
    expect(sent.every((s) => s.waId === waId && s.phoneNumberId === number.phoneNumberId)).toBe(true);
    expect(results.map((r) => r.message.type)).toEqual(['text', 'image', 'video', 'document', 'list', 'reply', 'flow', 'template']);
    for (const [i, r] of results.entries()) {
      expect(r.message).toMatchObject({ creator: 'bot', memberId: null, status: 'sent', conversationId: conversation.id });
      const [row] = await ta.db.select().from(t.messages).where(eq(t.messages.id, r.message.id));
      expect(row.waMessageId).toBe(sent[i].id);
    }
    expect(results[1].message).toMatchObject({ text: 'The blue jacket', mediaUrl: 'https://cdn.example.com/jacket.jpg' });
    expect(results[4].message.action).toMatchObject({ button: 'Sizes', sections: [{ rows: [{ id: 'm' }, { id: 'l' }] }] });
    expect(results[5].message.action).toMatchObject({ buttons: [{ reply: { id: 'yes', title: 'Yes' } }, { reply: { id: 'no' } }] });
    expect(results[7].message).toMatchObject({ text: 'Hi Ada, it is back.', templateComponents: { name: 'back_in_stock' } });

    // Each send is recorded with its actor and outcome; each message is on the event stream.
    const rows = await ta.db.select().from(t.outboundSends).where(eq(t.outboundSends.conversationId, conversation.id));
    expect(rows).toHaveLength(contents.length);
    expect(rows.every((r) => r.status === 'sent' && r.actorType === 'bot' && r.attempts === 1)).toBe(true);
    const events = await ta.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.workspaceId, admin.workspaceId));
    const created_ = events.filter((e) => e.type === 'message.created').map((e) => (e.payload as { message: { id: string } }).message.id);
    for (const r of results) expect(created_).toContain(r.message.id);
  });

  it('opens a conversation for a contact who has none on the number (a template outside any window)', async () => {
    const [contact] = await ta.db
      .insert(t.contacts)
      .values({ workspaceId: admin.workspaceId, phoneNumber: '+16505557001', name: 'Nora New' })
      .returning();
    const tpl = ta.sandbox.templates.find((x) => x.name === 'back_in_stock')!;
    expect(tpl).toBeDefined();
    // Free text cannot go: no window was ever opened. Nothing is recorded.
    const key = randomUUID();
    await expect(
      outbound().send({ workspaceId: admin.workspaceId, actor: { type: 'system' }, target: { contactId: contact.id, whatsappAccountId: accountId }, content: { type: 'text', text: 'Hi' }, idempotencyKey: key }),
    ).rejects.toThrow('More than 24 hours have passed');
    expect(await sendRow(key)).toBeUndefined();

    const sent = await outbound().send({
      workspaceId: admin.workspaceId,
      actor: { type: 'campaign', campaignId: '0d3f2c1b-9a8e-4f7d-8c6b-5a4e3d2c1b0a' },
      target: { contactId: contact.id, whatsappAccountId: accountId },
      content: {
        type: 'template',
        templateId: null,
        name: 'back_in_stock',
        language: 'en_US',
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'Nora' }] }],
        header: null,
        text: 'Hi Nora, it is back.',
        footer: null,
        action: null,
      },
      idempotencyKey: 'campaign:run-1:nora:step-1',
    });
    const conversations = await ta.db.select().from(t.conversations).where(eq(t.conversations.contactId, contact.id));
    expect(conversations).toHaveLength(1);
    expect(sent.message).toMatchObject({ conversationId: conversations[0].id, creator: 'bot' });
    const row = await sendRow('campaign:run-1:nora:step-1');
    expect(row).toMatchObject({ status: 'sent', actorType: 'campaign', actorId: '0d3f2c1b-9a8e-4f7d-8c6b-5a4e3d2c1b0a', conversationId: conversations[0].id });
    const events = await ta.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.workspaceId, admin.workspaceId));
    const opened = events.find((e) => e.type === 'conversation.opened' && (e.payload as { conversation: { id: string } }).conversation.id === conversations[0].id);
    expect(opened?.payload).toMatchObject({ conversation: { lastMessage: { id: sent.message.id } } });
  });
});

describe('idempotency', () => {
  it('answers the first send’s message for a key seen before, without sending again', async () => {
    const { conversation } = await customerWrites();
    const key = `bot:${randomUUID()}`;
    const before = ta.sandbox.sent.length;
    const first = await outbound().send(request(conversation.id, { type: 'text', text: 'Once only' }, key));
    const again = await outbound().send(request(conversation.id, { type: 'text', text: 'Once only' }, key));
    expect(ta.sandbox.sent.length).toBe(before + 1);
    expect(again).toMatchObject({ replayed: true, message: { id: first.message.id } });
    const stored = await ta.db.select().from(t.messages).where(and(eq(t.messages.conversationId, conversation.id), eq(t.messages.text, 'Once only')));
    expect(stored).toHaveLength(1);
  });

  it('sends one message when the same job runs twice (a retried job), even at the same time', async () => {
    const { conversation } = await customerWrites();
    const payload = request(conversation.id, { type: 'text', text: 'From a job' }, `job:${randomUUID()}`);
    const before = ta.sandbox.sent.length;
    // Two jobs with one key, as a redelivered job would be; they may run at once on the two workers.
    await ta.app.parley.jobs.send('messages.send', payload);
    await ta.app.parley.jobs.send('messages.send', payload);
    await ta.app.parley.jobs.drain({ timeoutMs: 30_000 });
    expect(ta.sandbox.sent.length).toBe(before + 1);
    const stored = await ta.db.select().from(t.messages).where(and(eq(t.messages.conversationId, conversation.id), eq(t.messages.text, 'From a job')));
    expect(stored).toHaveLength(1);
    expect(await sendRow(payload.idempotencyKey)).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('answers a refusal for good again without asking WhatsApp again', async () => {
    const { conversation } = await customerWrites();
    const key = randomUUID();
    ta.sandbox.injectFailure({ code: 131026 });
    const before = ta.sandbox.sent.length;
    const first = await outbound().send(request(conversation.id, { type: 'text', text: 'Undeliverable' }, key)).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(GraphApiError);
    expect(await sendRow(key)).toMatchObject({ status: 'failed', errorCode: 131026 });
    // No failure is injected now: a call to WhatsApp would succeed, so a second answer of 131026 proves none was made.
    const again = await outbound().send(request(conversation.id, { type: 'text', text: 'Undeliverable' }, key)).catch((e: unknown) => e);
    expect(again).toMatchObject({ code: 131026 });
    expect(ta.sandbox.sent.length).toBe(before);
  });

  it('leaves a send WhatsApp could not take (5xx) pending, and a retry with the same key sends it once', async () => {
    const { conversation } = await customerWrites();
    const key = randomUUID();
    ta.sandbox.injectFailure({ code: 131000, httpStatus: 500, count: 4 });
    await expect(outbound().send(request(conversation.id, { type: 'text', text: 'Eventually' }, key))).rejects.toBeInstanceOf(GraphApiError);
    expect(await sendRow(key)).toMatchObject({ status: 'pending' });
    const sent = await outbound().send(request(conversation.id, { type: 'text', text: 'Eventually' }, key));
    expect(sent.replayed).toBe(false);
    expect(await sendRow(key)).toMatchObject({ status: 'sent', attempts: 2, messageId: sent.message.id });
  }, 60_000);
});

describe('unknown outcomes', () => {
  it('never resends a claim left without outcome by a process that died, reports it unknown and counts it', async () => {
    const { conversation, contact } = await customerWrites();
    const key = `campaign:${randomUUID()}`;
    // The state a crash between Meta's answer and the write leaves: claimed long ago, no outcome.
    await ta.db.insert(t.outboundSends).values({
      workspaceId: admin.workspaceId,
      idempotencyKey: key,
      whatsappAccountId: accountId,
      contactId: contact.id,
      conversationId: conversation.id,
      actorType: 'campaign',
      messageType: 'text',
      status: 'claimed',
      claimedAt: new Date(Date.now() - 10 * 60_000),
    });
    const unknownBefore = (await countByStatus(ta.db, admin.workspaceId)).unknown;
    const before = ta.sandbox.sent.length;
    await expect(outbound().send(request(conversation.id, { type: 'text', text: 'Maybe twice' }, key))).rejects.toBeInstanceOf(OutcomeUnknownError);
    expect(await sendRow(key)).toMatchObject({ status: 'unknown' });
    // Asked again (a job retried later): still not sent.
    await expect(outbound().send(request(conversation.id, { type: 'text', text: 'Maybe twice' }, key))).rejects.toBeInstanceOf(OutcomeUnknownError);
    expect(ta.sandbox.sent.length).toBe(before);
    expect((await countByStatus(ta.db, admin.workspaceId)).unknown).toBe(unknownBefore + 1);
    // The job ends (not retried forever) and sends nothing either.
    await ta.app.parley.jobs.send('messages.send', request(conversation.id, { type: 'text', text: 'Maybe twice' }, key));
    await ta.app.parley.jobs.drain();
    expect(ta.sandbox.sent.length).toBe(before);
  });

  it('treats a recent claim as in flight: no second send now, the job tries again later', async () => {
    const { conversation, contact } = await customerWrites();
    const key = `bot:${randomUUID()}`;
    await ta.db.insert(t.outboundSends).values({
      workspaceId: admin.workspaceId,
      idempotencyKey: key,
      whatsappAccountId: accountId,
      contactId: contact.id,
      conversationId: conversation.id,
      actorType: 'bot',
      messageType: 'text',
      status: 'claimed',
    });
    const before = ta.sandbox.sent.length;
    await expect(outbound().send(request(conversation.id, { type: 'text', text: 'In flight' }, key))).rejects.toBeInstanceOf(SendInFlightError);
    expect(ta.sandbox.sent.length).toBe(before);
    expect(await sendRow(key)).toMatchObject({ status: 'claimed' });
  });
});

describe('130429', () => {
  it('backs the number off and sends the same send again, once', async () => {
    const { conversation } = await customerWrites();
    const key = randomUUID();
    const backoffsBefore = await backoffCount(ta.db, admin.workspaceId, accountId);
    ta.sandbox.injectFailure({ code: 130429 });
    const before = ta.sandbox.sent.length;
    const sent = await outbound().send(request(conversation.id, { type: 'text', text: 'After the pause' }, key));
    expect(ta.sandbox.sent.length).toBe(before + 1);
    expect(await sendRow(key)).toMatchObject({ status: 'sent', throttled: 1, attempts: 1, messageId: sent.message.id });
    expect(await backoffCount(ta.db, admin.workspaceId, accountId)).toBe(backoffsBefore + 1);
  });
});

describe('throughputPerSecond of a WhatsApp account (addition)', () => {
  it('is set by PATCH /whatsapp/{id} within 1..1000', async () => {
    const ok = await ta.call('PATCH', `/whatsapp/${accountId}`, { token: admin.token, body: { throughputPerSecond: 250 } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().throughputPerSecond).toBe(250);
    for (const bad of [0, 1001, 2.5, '80']) {
      const res = await ta.call('PATCH', `/whatsapp/${accountId}`, { token: admin.token, body: { throughputPerSecond: bad } });
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(res.json().message)).toContain('throughputPerSecond must be a whole number from 1 to 1000');
    }
    const [row] = await ta.db.select().from(t.whatsappAccounts).where(eq(t.whatsappAccounts.id, accountId));
    expect(row.throughputPerSecond).toBe(250);
  });
});

describe('actors other than a member', () => {
  it('records a bot assigning and closing, and the system reopening, in the conversation’s events', async () => {
    const { conversation } = await customerWrites();
    const [bot] = await ta.db
      .insert(t.bots)
      .values({ workspaceId: admin.workspaceId, title: 'Greeter', rfInstance: {}, memberId: admin.member.id })
      .returning();
    const conversations = ta.app.parley.services.conversations;
    const botActor = { type: 'bot' as const, botId: bot.id };
    await conversations.change(admin.workspaceId, botActor, conversation.id, { assigneeMemberId: admin.member.id });
    await conversations.change(admin.workspaceId, botActor, conversation.id, { isActive: false });
    await conversations.change(admin.workspaceId, { type: 'system' }, conversation.id, { isActive: true });
    const detail = await ta.call('GET', `/conversation/${conversation.id}`, { token: admin.token });
    expect(detail.json().ConversationEvent.map((e: { data: unknown }) => e.data)).toEqual([
      expect.objectContaining({ type: 'CONVERSATION_ASSIGNED', assignedByType: 'bot', assignedById: bot.id, assigneeMemberId: admin.member.id }),
      { type: 'CONVERSATION_CLOSED', closedBy: 'bot', userId: null },
      { type: 'CONVERSATION_REOPENED', reopenedBy: 'system', memberId: null },
    ]);
  });
});

describe('many sends at once (a campaign step)', () => {
  it('stores each accepted send once, with its own message, event and outcome, when their final writes share transactions', async () => {
    const recipients = await Promise.all(Array.from({ length: 4 }, () => customerWrites()));
    const seqs = async () => (await ta.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.workspaceId, admin.workspaceId))).map((e) => e.seq);
    const before = Math.max(0, ...(await seqs()));
    const keys = Array.from({ length: 24 }, (_, i) => `campaign:run-1:${i}:step-1`);
    const sent = await Promise.all(
      keys.map((key, i) =>
        outbound().send({
          ...request(recipients[i % 4].conversation.id, { type: 'text', text: `Spring sale ${i}` }, key),
          actor: { type: 'campaign', campaignId: '0b7c9d4e-2f61-4a8e-9c3d-5e7f1a2b4c6d' },
        }),
      ),
    );
    expect(new Set(sent.map((s) => s.message.id)).size).toBe(24);
    sent.forEach((s, i) => expect(s.message).toMatchObject({ text: `Spring sale ${i}`, creator: 'bot', status: 'sent' }));
    for (const [i, key] of keys.entries()) {
      const row = await sendRow(key);
      expect(row).toMatchObject({ status: 'sent', messageId: sent[i].message.id, conversationId: recipients[i % 4].conversation.id });
      expect(row.waMessageId).toEqual(expect.any(String));
    }
    const events = (await ta.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.workspaceId, admin.workspaceId))).filter((e) => e.seq > before);
    const created = events.filter((e) => e.type === 'message.created').map((e) => (e.payload as { message: { id: string } }).message.id);
    expect(new Set(created)).toEqual(new Set(sent.map((s) => s.message.id)));
    // Each recipient's conversation moved to the top with its newest message.
    for (const r of recipients) {
      const [c] = await ta.db.select().from(t.conversations).where(eq(t.conversations.id, r.conversation.id));
      expect(c.lastMessageAt!.getTime()).toBeGreaterThan(r.conversation.lastMessageAt!.getTime());
    }
    // WhatsApp got each once.
    expect(ta.sandbox.sent.filter((m) => /^Spring sale \d+$/.test((m.body as { text?: { body?: string } }).text?.body ?? '')).length).toBe(24);
  });
});
