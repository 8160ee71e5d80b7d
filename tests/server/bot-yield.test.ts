/**
 * Bots yield to people, end to end on the app and the sandbox: an agent who wrote keeps the conversation (no
 * greeting again) until it is closed and reopened; a session that gives up leaves the conversation to people,
 * marked "needs a person" with a notification event, never back to the bot; the no-answer reminder stays quiet
 * once someone wrote; opt-out keywords and opted-out contacts neither start nor advance a session.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { SandboxAccount } from '../../src/sandbox';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { landedIn } from '../support/customers';

vi.setConfig({ testTimeout: 240_000, hookTimeout: 180_000 });
let ta: TestApp;
let admin: Session;
let number: SandboxAccount;
let accountId: string;
let emailAttr: string;
let botId: string;

const pos = { x: 0, y: 0 };
const edge = (source: string, target: string, sourceHandle?: string) => ({ id: `${source}-${target}-${sourceHandle ?? ''}`, source, target, ...(sourceHandle ? { sourceHandle } : {}) });

/** Greeting -> menu (Sales / Support; a no-answer reminder) -> Sales: e-mail -> thanks; Support: bye. */
const canvas = () => ({
  nodes: [
    { id: 'start', type: 'StartNode', position: pos, data: { label: 'Start' }, deletable: false },
    { id: 'hello', type: 'SendMessageNode', position: pos, data: { label: 'Hello', messageBlocks: [{ id: 'b1', type: 'text', text: 'Welcome to the yard' }] } },
    { id: 'menu', type: 'ListNode', position: pos, data: { label: 'Menu', body: 'Sales or support?', buttonName: 'Options', errorMessage: 'Please pick an option', noAnswerTimeoutMinutes: 30 } },
    { id: 'sales', type: 'ListButtonNode', position: pos, data: { label: 'Sales' } },
    { id: 'support', type: 'ListButtonNode', position: pos, data: { label: 'Support' } },
    { id: 'ask', type: 'CollectInputNode', position: pos, data: { label: 'Mail', body: 'Your e-mail?', variableId: emailAttr } },
    { id: 'thanks', type: 'SendMessageNode', position: pos, data: { label: 'Thanks', messageBlocks: [{ id: 'b2', type: 'text', text: 'Thanks' }] } },
    { id: 'bye', type: 'SendMessageNode', position: pos, data: { label: 'Bye', messageBlocks: [{ id: 'b3', type: 'text', text: 'Support opens at 9' }] } },
    { id: 'remind', type: 'SendMessageNode', position: pos, data: { label: 'Remind', messageBlocks: [{ id: 'b4', type: 'text', text: 'Still there?' }] } },
  ],
  edges: [
    edge('start', 'hello'),
    edge('hello', 'menu'),
    edge('menu', 'sales'),
    edge('menu', 'support'),
    edge('menu', 'remind', 'noAnswer'),
    edge('sales', 'ask'),
    edge('support', 'bye'),
    edge('ask', 'thanks'),
  ],
});

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Yard Shop');
  number = ta.sandbox.addAccount();
  const acc = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId } });
  expect(acc.statusCode).toBe(201);
  accountId = acc.json().id;
  const a = await ta.call('POST', '/attribute', { token: admin.token, body: { name: 'email', format: 'text', type: 'contact', workspaceId: admin.workspaceId } });
  emailAttr = a.json().id;
  const created = await ta.call('POST', '/bot', { token: admin.token, body: { workspaceId: admin.workspaceId, title: 'Yard bot' } });
  botId = created.json().id;
  expect((await ta.call('PATCH', `/bot/${botId}`, { token: admin.token, body: { rfInstance: canvas() } })).statusCode).toBe(200);
  expect((await ta.call('PATCH', `/bot/${botId}/connectWaba`, { token: admin.token, body: { wabaAccountId: accountId } })).statusCode).toBe(200);
  expect((await ta.call('PATCH', `/bot/${botId}`, { token: admin.token, body: { isActive: true } })).json()).toMatchObject({ isActive: true });
});
afterAll(async () => {
  await ta?.close();
});

const drain = () => ta.app.parley.jobs.drain({ timeoutMs: 120_000 });
let seq = 0;
const newCustomer = () => `1650888${String(1000 + seq++).padStart(4, '0')}`;
async function say(waId: string, text: string) {
  await ta.sandbox.customers.say(waId, text, { phoneNumberId: number.phoneNumberId });
  await drain();
}
const tap = async (waId: string, id: string) => {
  await ta.sandbox.customers.send(waId, { type: 'list_reply', id }, { phoneNumberId: number.phoneNumberId });
  await drain();
};
const sentTo = (waId: string) => ta.sandbox.sent.filter((m) => m.waId === waId).map((m) => JSON.stringify(m.body));
const greetings = (waId: string) => sentTo(waId).filter((b) => b.includes('Welcome to the yard')).length;
async function state(waId: string) {
  const { contact, conversation } = await landedIn(ta, admin.workspaceId, waId);
  const sessions = await ta.db.select().from(t.botSessions).where(eq(t.botSessions.conversationId, conversation.id)).orderBy(t.botSessions.createdAt);
  return { contact, conversation, sessions };
}
const agentWrites = async (conversationId: string, text: string) => {
  const res = await ta.call('POST', '/message', { token: admin.token, body: { text, conversationId } });
  expect(res.statusCode).toBe(201);
  await drain();
};
const patchConversation = (id: string, body: Record<string, unknown>) => ta.call('PATCH', `/conversation/${id}`, { token: admin.token, body });

describe('an agent who wrote keeps the conversation', () => {
  it('the next customer messages reach the agent: the session ends, no greeting again, no new session until it is closed and reopened', async () => {
    const waId = newCustomer();
    await say(waId, 'hi');
    expect(greetings(waId)).toBe(1);
    const { conversation } = await state(waId);
    await agentWrites(conversation.id, 'Ada here, how can I help?');

    await say(waId, 'I need a quote');
    await say(waId, 'for 3 pallets');
    let s = await state(waId);
    expect(s.sessions).toHaveLength(1);
    expect(s.sessions[0]).toMatchObject({ status: 'ended', endReason: 'member' });
    expect(greetings(waId)).toBe(1);
    expect(s.conversation.assigneeBotId).toBeNull();

    // Closed, then the customer writes again: a new conversation for the bot.
    expect((await patchConversation(conversation.id, { isActive: false })).statusCode).toBe(200);
    await say(waId, 'hello again');
    s = await state(waId);
    expect(s.sessions).toHaveLength(2);
    expect(s.sessions[1]).toMatchObject({ status: 'active', waitingFor: 'list' });
    expect(greetings(waId)).toBe(2);
  });

  it('an agent who wrote before any bot session keeps the bot out of the conversation', async () => {
    const waId = newCustomer();
    await say(waId, 'hi');
    const { conversation } = await state(waId);
    await tap(waId, 'support');
    expect((await state(waId)).sessions[0]).toMatchObject({ status: 'ended', endReason: 'completed' });
    await agentWrites(conversation.id, 'Anything else?');
    await say(waId, 'yes, one more thing');
    expect((await state(waId)).sessions).toHaveLength(1);
    expect(greetings(waId)).toBe(1);
  });
});

describe('a session that gives up', () => {
  it('leaves the conversation unassigned and marked "needs a person", tells the agents, and never goes back to the bot', async () => {
    const waId = newCustomer();
    await say(waId, 'hi');
    for (let i = 0; i < 4; i++) await say(waId, `no idea ${i}`);
    let s = await state(waId);
    expect(s.sessions[0]).toMatchObject({ status: 'ended', endReason: 'failed' });
    expect(s.conversation).toMatchObject({ assigneeBotId: null, assigneeMemberId: null, needsPerson: true });
    const shown = await ta.call('GET', `/conversation/${s.conversation.id}`, { token: admin.token });
    expect(shown.json()).toMatchObject({ needsPerson: true, assigneeBotId: null });
    const events = await ta.db.select().from(t.workspaceEvents).where(and(eq(t.workspaceEvents.workspaceId, admin.workspaceId), eq(t.workspaceEvents.type, 'bot.needsPerson')));
    const mine = events.filter((e) => (e.payload as { conversationId: string }).conversationId === s.conversation.id);
    expect(mine).toHaveLength(1);
    expect(mine[0].payload).toEqual({ conversationId: s.conversation.id, botId, botName: 'Yard bot', contact: { name: s.contact.name, phoneNumber: `+${waId}` } });

    const before = sentTo(waId).length;
    await say(waId, 'hello?');
    s = await state(waId);
    expect(s.sessions).toHaveLength(1);
    expect(sentTo(waId)).toHaveLength(before);

    // A member takes it: the mark goes.
    const res = await patchConversation(s.conversation.id, { assigneeMemberId: admin.member.id, assigneeBotId: null });
    expect(res.statusCode).toBe(200);
    expect(res.json().needsPerson).toBeUndefined();
    expect((await state(waId)).conversation.needsPerson).toBe(false);
  });
});

describe('the no-answer reminder', () => {
  const remind = async (waId: string) => {
    const s = (await state(waId)).sessions[0];
    await ta.app.parley.services.bots.onTimeout({ workspaceId: admin.workspaceId, sessionId: s.id, step: s.step, kind: 'noAnswer' });
    await drain();
  };

  it('goes when nobody wrote since the question', async () => {
    const waId = newCustomer();
    await say(waId, 'hi');
    await remind(waId);
    expect(sentTo(waId).filter((b) => b.includes('Still there?'))).toHaveLength(1);
  });

  it('does not go once an agent wrote; the agent has the conversation', async () => {
    const waId = newCustomer();
    await say(waId, 'hi');
    await agentWrites((await state(waId)).conversation.id, 'I can help you myself');
    await remind(waId);
    expect(sentTo(waId).filter((b) => b.includes('Still there?'))).toHaveLength(0);
    expect((await state(waId)).sessions[0]).toMatchObject({ status: 'ended', endReason: 'member' });
  });
});

describe('opt-out', () => {
  it('STOP, START and the workspace\'s own keyword neither start a session nor answer the waiting question', async () => {
    const set = await ta.call('PATCH', `/workspace/${admin.workspaceId}/campaign-settings`, { token: admin.token, body: { optOutKeywords: ['BASTA'] } });
    expect(set.statusCode).toBe(200);
    for (const word of ['STOP', 'start', ' basta ']) {
      const waId = newCustomer();
      await say(waId, word);
      expect((await state(waId)).sessions).toHaveLength(0);
      expect(sentTo(waId).filter((b) => b.includes('Welcome to the yard'))).toHaveLength(0);
    }
    const waId = newCustomer();
    await say(waId, 'hi');
    await tap(waId, 'sales');
    await say(waId, 'START');
    const s = await state(waId);
    expect(s.sessions[0]).toMatchObject({ status: 'active', waitingFor: 'input' });
    expect(s.contact.attributes).not.toHaveProperty('email');
    expect(sentTo(waId).filter((b) => b.includes('Thanks'))).toHaveLength(0);
  });

  it('a contact who opted out neither starts nor advances a session', async () => {
    const waId = newCustomer();
    await say(waId, 'hi');
    const { contact } = await state(waId);
    expect((await ta.call('PATCH', `/contact/${contact.id}`, { token: admin.token, body: { optedOut: true } })).statusCode).toBe(200);
    const before = sentTo(waId).length;
    await tap(waId, 'support');
    const s = await state(waId);
    expect(s.sessions[0]).toMatchObject({ status: 'active', waitingFor: 'list' });
    expect(sentTo(waId)).toHaveLength(before);
  });
});
