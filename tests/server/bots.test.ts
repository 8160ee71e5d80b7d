/**
 * Bots end to end on the real app and the sandbox Graph API: deploy checks and versions, one active
 * bot per number, a customer walking a bot (greeting -> list -> condition -> collected e-mail -> handoff),
 * re-asks, start keywords, two messages racing into one session, a session keeping its version, the HTTP node
 * under the network rule, SendEmail through a real SMTP server, and the preview writing nothing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { rowsOf } from '../../src/server/db/client';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { SandboxAccount } from '../../src/sandbox';
import { guardedFetch } from '../../src/server/bots/http-node';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { landedIn } from '../support/customers';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });
let ta: TestApp;
let admin: Session;
let number: SandboxAccount;
let accountId: string;
const attr: Record<string, string> = {};

async function createAttribute(name: string, format: 'text' | 'number' | 'boolean', type: 'contact' | 'conversation' = 'contact') {
  const res = await ta.call('POST', '/attribute', { token: admin.token, body: { name, format, type, workspaceId: admin.workspaceId } });
  expect(res.statusCode).toBe(201);
  attr[name] = res.json().id;
}

async function addNumber() {
  const n = ta.sandbox.addAccount();
  const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...n, verifiedName: undefined, workspaceId: admin.workspaceId } });
  expect(res.statusCode).toBe(201);
  return { n, id: res.json().id as string };
}

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Bot Bakery');
  ({ n: number, id: accountId } = await addNumber());
  await createAttribute('choice', 'text');
  await createAttribute('email', 'text');
  await createAttribute('age', 'number');
  await createAttribute('topic', 'text', 'conversation');
});
afterAll(async () => {
  await ta?.close();
});

const pos = { x: 0, y: 0 };
const edge = (source: string, target: string, sourceHandle?: string) => ({ id: `${source}-${target}-${sourceHandle ?? ''}`, source, target, ...(sourceHandle ? { sourceHandle } : {}) });

/** greeting -> list (Sales / Support) -> condition on the choice -> Sales: collect e-mail -> handoff; Support: bye. */
function walkCanvas(greeting = 'Welcome to the bakery') {
  return {
    nodes: [
      { id: 'start', type: 'StartNode', position: pos, data: { label: 'Start' }, deletable: false },
      { id: 'hello', type: 'SendMessageNode', position: pos, data: { label: 'Hello', messageBlocks: [{ id: 'b1', type: 'text', text: greeting }] } },
      { id: 'menu', type: 'ListNode', position: pos, data: { label: 'Menu', body: 'What do you need?', buttonName: 'Options', errorMessage: 'Please pick an option', selectedAttributeId: attr.choice } },
      { id: 'sales', type: 'ListButtonNode', position: pos, data: { label: 'Sales' } },
      { id: 'support', type: 'ListButtonNode', position: pos, data: { label: 'Support' } },
      { id: 'cond', type: 'ConditionNode', position: pos, data: { label: 'Which', branches: [{ id: 'is-sales', label: 'Sales', type: 'Normal', conditions: [{ id: 'c1', attributeId: attr.choice, operator: 'EQUALS', value: 'sales' }] }] } },
      { id: 'is-sales', type: 'ConditionBranchNode', position: pos, data: { label: 'Sales', type: 'Normal' } },
      { id: 'else', type: 'ConditionBranchNode', position: pos, data: { label: 'Else', type: 'Default' } },
      { id: 'ask-mail', type: 'CollectInputNode', position: pos, data: { label: 'Mail', body: 'Your e-mail, {{choice}} fan?', variableId: attr.email } },
      { id: 'handoff', type: 'HumanHandoffNode', position: pos, data: { label: 'Human', assigneeMemberId: admin.member.id, messageOnChatAssigned: 'Ada will answer {{email}}' } },
      { id: 'bye', type: 'SendMessageNode', position: pos, data: { label: 'Bye', messageBlocks: [{ id: 'b2', type: 'text', text: 'Support opens at 9' }] } },
    ],
    edges: [
      edge('start', 'hello'),
      edge('hello', 'menu'),
      edge('menu', 'sales'),
      edge('menu', 'support'),
      edge('sales', 'cond'),
      edge('support', 'cond'),
      edge('cond', 'is-sales', 'is-sales'),
      edge('cond', 'else'),
      edge('is-sales', 'ask-mail'),
      edge('else', 'bye'),
      edge('ask-mail', 'handoff'),
    ],
  };
}

async function newBot(rfInstance: unknown, opts: { account?: string; deploy?: boolean } = {}) {
  const created = await ta.call('POST', '/bot', { token: admin.token, body: { workspaceId: admin.workspaceId, title: 'Bakery bot' } });
  expect(created.statusCode).toBe(201);
  const id = created.json().id as string;
  expect((await ta.call('PATCH', `/bot/${id}`, { token: admin.token, body: { rfInstance } })).statusCode).toBe(200);
  if (opts.account !== undefined) {
    expect((await ta.call('PATCH', `/bot/${id}/connectWaba`, { token: admin.token, body: { wabaAccountId: opts.account } })).statusCode).toBe(200);
  }
  if (opts.deploy) {
    const res = await ta.call('PATCH', `/bot/${id}`, { token: admin.token, body: { isActive: true } });
    expect(res.json()).toMatchObject({ isActive: true });
  }
  return id;
}
const deactivate = (id: string) => ta.call('PATCH', `/bot/${id}`, { token: admin.token, body: { isActive: false } });

/** Jobs of a turn run in a few ms alone; on a loaded shared machine they can take seconds. */
const drain = () => ta.app.parley.jobs.drain({ timeoutMs: 60_000 });
let seq = 0;
const newCustomer = () => `1650777${String(1000 + seq++).padStart(4, '0')}`;
async function say(waId: string, text: string, n = number) {
  await ta.sandbox.customers.say(waId, text, { phoneNumberId: n.phoneNumberId });
  await drain();
}
async function tap(waId: string, msg: { type: 'list_reply' | 'button_reply'; id: string }, n = number) {
  await ta.sandbox.customers.send(waId, msg, { phoneNumberId: n.phoneNumberId });
  await drain();
}
const sentTo = (waId: string) => ta.sandbox.sent.filter((m) => m.waId === waId);
const textOf = (m: { body: Record<string, unknown> }) => JSON.stringify(m.body);
async function conversationOf(waId: string) {
  const { contact, conversation } = await landedIn(ta, admin.workspaceId, waId);
  const sessions = await ta.db.select().from(t.botSessions).where(eq(t.botSessions.conversationId, conversation.id));
  return { contact, conversation, sessions };
}

describe('deploy', () => {
  it('answers 400 listing every problem, and changes nothing', async () => {
    const id = await newBot({
      nodes: [
        { id: 'start', type: 'StartNode', position: pos, data: { label: 'Start' }, deletable: false },
        { id: 'lonely', type: 'SendMessageNode', position: pos, data: { label: 'Lonely', messageBlocks: [{ id: 'b', type: 'text', text: '' }] } },
        { id: 'ask', type: 'CollectInputNode', position: pos, data: { label: 'Ask', body: 'Name? {{nope}}' } },
      ],
      edges: [edge('start', 'ask')],
    });
    const res = await ta.call('PATCH', `/bot/${id}`, { token: admin.token, body: { isActive: true } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe('Bad Request');
    const messages: string[] = body.message;
    expect(messages).toContain('Connect the bot to a WhatsApp number before deploying it');
    expect(messages).toContain('Lonely: This step cannot be reached from Start');
    expect(messages).toContain('Lonely: Text 1: This field cannot be empty');
    expect(messages).toContain('Ask: Save the answer in: This field cannot be empty');
    expect(messages).toContain('Ask: The variable {{nope}} is not an attribute of this workspace');
    const bot = (await ta.call('GET', `/bot/${id}`, { token: admin.token })).json();
    expect(bot).toMatchObject({ isActive: false, lastDeployedAt: null, publishedVersionId: null, hasUnpublishedChanges: true });
  });

  it('publishes a version, sets lastDeployedAt itself, and a second active bot on the number is a 409 naming the first', async () => {
    const { id: otherAccount } = await addNumber();
    const first = await newBot(walkCanvas(), { account: otherAccount });
    const res = await ta.call('PATCH', `/bot/${first}`, { token: admin.token, body: { isActive: true, lastDeployedAt: '2001-01-01T00:00:00.000Z' } });
    expect(res.statusCode).toBe(200);
    const bot = res.json();
    expect(bot.isActive).toBe(true);
    expect(new Date(bot.lastDeployedAt).getFullYear()).toBeGreaterThan(2020);
    expect(bot.hasUnpublishedChanges).toBe(false);
    expect(bot.publishedVersionId).toBeTruthy();

    const second = await newBot(walkCanvas(), { account: otherAccount });
    await ta.call('PATCH', `/bot/${second}`, { token: admin.token, body: { title: 'Second bot' } });
    const clash = await ta.call('PATCH', `/bot/${second}`, { token: admin.token, body: { isActive: true } });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toContain('"Bakery bot"');
    expect((await ta.call('GET', `/bot/${second}`, { token: admin.token })).json().isActive).toBe(false);
    await deactivate(first);
    expect((await ta.call('PATCH', `/bot/${second}`, { token: admin.token, body: { isActive: true } })).statusCode).toBe(200);
    await deactivate(second);
  });

  it('keeps versions with time and author; unpublished changes can be discarded, and any version restored as the draft', async () => {
    const { id: acc } = await addNumber();
    const id = await newBot(walkCanvas('v1 hello'), { account: acc, deploy: true });
    await ta.call('PATCH', `/bot/${id}`, { token: admin.token, body: { rfInstance: walkCanvas('v2 hello') } });
    expect((await ta.call('GET', `/bot/${id}`, { token: admin.token })).json().hasUnpublishedChanges).toBe(true);
    await ta.call('PATCH', `/bot/${id}`, { token: admin.token, body: { isActive: true } });
    const versions = (await ta.call('GET', `/bot/${id}/versions`, { token: admin.token })).json();
    expect(versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(versions[0]).toMatchObject({ isPublished: true, memberId: admin.member.id });
    await ta.call('PATCH', `/bot/${id}`, { token: admin.token, body: { rfInstance: walkCanvas('draft only') } });
    const discarded = (await ta.call('POST', `/bot/${id}/discardChanges`, { token: admin.token, body: {} })).json();
    expect(discarded.hasUnpublishedChanges).toBe(false);
    expect(JSON.stringify(discarded.rfInstance)).toContain('v2 hello');
    const restored = (await ta.call('POST', `/bot/${id}/versions/${versions[1].id}/restore`, { token: admin.token, body: {} })).json();
    expect(JSON.stringify(restored.rfInstance)).toContain('v1 hello');
    expect(restored.hasUnpublishedChanges).toBe(true);
    const detail = (await ta.call('GET', `/bot/${id}/versions/${versions[0].id}`, { token: admin.token })).json();
    expect(JSON.stringify(detail.rfInstance)).toContain('v2 hello');
    // A version id that names nothing, or is no id at all, is a version that does not exist.
    for (const versionId of ['00000000-0000-4000-8000-000000000000', 'not-an-id', '\u0001']) {
      const get = await ta.call('GET', `/bot/${id}/versions/${encodeURIComponent(versionId)}`, { token: admin.token });
      expect([get.statusCode, get.json().message]).toEqual([404, 'Bot version not found']);
      const restore = await ta.call('POST', `/bot/${id}/versions/${encodeURIComponent(versionId)}/restore`, { token: admin.token, body: {} });
      expect([restore.statusCode, restore.json().message]).toEqual([404, 'Bot version not found']);
    }
    await deactivate(id);
  });

  it('saves a draft with unfinished nodes, but still refuses oversized fields', async () => {
    const id = await newBot({ nodes: [{ id: 'start', type: 'StartNode', position: pos, data: { label: 'Start' }, deletable: false }, { id: 'l', type: 'ListNode', position: pos, data: { label: '' } }], edges: [] });
    const tooLong = await ta.call('PATCH', `/bot/${id}`, {
      token: admin.token,
      body: { rfInstance: { nodes: [{ id: 'start', type: 'StartNode', position: pos, data: { label: 'Start' }, deletable: false }, { id: 'l', type: 'ListNode', position: pos, data: { buttonName: 'x'.repeat(21) } }], edges: [] } },
    });
    expect(tooLong.statusCode).toBe(400);
  });
});

describe('a customer walks the bot', () => {
  let botId: string;
  beforeAll(async () => {
    botId = await newBot(walkCanvas(), { account: accountId, deploy: true });
  });

  it('greets, lists, branches on the choice, collects the e-mail and hands over to the member, with attributes on the contact', async () => {
    const waId = newCustomer();
    await say(waId, 'hi');
    const first = sentTo(waId);
    expect(first.map((m) => m.type)).toEqual(['text', 'interactive']);
    expect(textOf(first[0])).toContain('Welcome to the bakery');
    expect(textOf(first[1])).toContain('"Sales"');
    let c = await conversationOf(waId);
    expect(c.conversation.assigneeBotId).toBe(botId);
    expect(c.sessions[0]).toMatchObject({ status: 'active', waitingFor: 'list' });

    await tap(waId, { type: 'list_reply', id: 'sales' });
    expect(textOf(sentTo(waId)[2])).toContain('Your e-mail, Sales fan?');
    await say(waId, 'ada@bakery.test');
    const last = sentTo(waId).at(-1)!;
    expect(textOf(last)).toContain('Ada will answer ada@bakery.test');

    c = await conversationOf(waId);
    expect(c.contact.attributes).toMatchObject({ choice: 'Sales', email: 'ada@bakery.test' });
    expect(c.conversation.assigneeMemberId).toBe(admin.member.id);
    expect(c.conversation.assigneeBotId).toBeNull();
    expect(c.sessions[0]).toMatchObject({ status: 'ended', endReason: 'handoff' });
    const botMessages = await ta.db.select().from(t.messages).where(and(eq(t.messages.conversationId, c.conversation.id), eq(t.messages.creator, 'bot')));
    expect(botMessages).toHaveLength(4);
    const keys = await ta.db.select().from(t.outboundSends).where(eq(t.outboundSends.workspaceId, admin.workspaceId));
    expect(keys.some((k) => k.idempotencyKey.startsWith(`bot:${c.sessions[0].id}:`))).toBe(true);
    const events = await ta.db.select().from(t.conversationEvents).where(eq(t.conversationEvents.conversationId, c.conversation.id));
    const assigned = events.map((e) => e.data as { type: string; assignedByType?: string; assigneeType?: string });
    expect(assigned).toContainEqual(expect.objectContaining({ type: 'CONVERSATION_ASSIGNED', assignedByType: 'system', assigneeType: 'bot' }));
    expect(assigned).toContainEqual(expect.objectContaining({ type: 'CONVERSATION_ASSIGNED', assignedByType: 'bot', assigneeType: 'member' }));
    // The member's desktop app is told on the event stream, by name (never a uid), before the conversation update.
    const stream = await ta.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.workspaceId, admin.workspaceId));
    const handoff = stream.filter((e) => e.type === 'bot.handoff' && (e.payload as { conversationId: string }).conversationId === c.conversation.id);
    expect(handoff).toHaveLength(1);
    expect(handoff[0].payload).toEqual({
      conversationId: c.conversation.id,
      memberId: admin.member.id,
      memberName: 'Ada Admin',
      botId,
      botName: 'Bakery bot',
      contact: { name: c.contact.name, phoneNumber: `+${waId}` },
      message: 'Ada will answer ada@bakery.test',
    });
    const next = stream.find((e) => e.seq === handoff[0].seq + 1)!;
    expect(next.type).toBe('conversation.updated');
  });

  it('answers free text to a list with its errorMessage and the list again; the Default branch takes other choices', async () => {
    const waId = newCustomer();
    await say(waId, 'hello');
    await say(waId, 'I want bread');
    const sent = sentTo(waId);
    expect(textOf(sent[2])).toContain('Please pick an option');
    expect(sent[3].type).toBe('interactive');
    await say(waId, 'support');
    expect(textOf(sentTo(waId).at(-1)!)).toContain('Support opens at 9');
    const c = await conversationOf(waId);
    expect(c.sessions[0]).toMatchObject({ status: 'ended', endReason: 'completed' });
    expect(c.conversation.assigneeBotId).toBeNull();
  });

  it('applies two messages arriving together one after the other, never both against the same step', async () => {
    const waId = newCustomer();
    await say(waId, 'hi');
    // Both in one delivery: the first answers the list, the second the e-mail question.
    await Promise.all([
      ta.sandbox.customers.send(waId, { type: 'list_reply', id: 'sales' }, { phoneNumberId: number.phoneNumberId }),
      ta.sandbox.customers.say(waId, 'racer@bakery.test', { phoneNumberId: number.phoneNumberId }),
    ]);
    await drain();
    const c = await conversationOf(waId);
    expect(c.contact.attributes).toMatchObject({ choice: 'Sales', email: 'racer@bakery.test' });
    expect(c.sessions[0].endReason).toBe('handoff');
  });

  it('ends the session when an agent replies', async () => {
    const waId = newCustomer();
    await say(waId, 'hi');
    const c = await conversationOf(waId);
    const reply = await ta.call('POST', '/message', { token: admin.token, body: { text: 'Ada here', conversationId: c.conversation.id } });
    expect(reply.statusCode).toBe(201);
    await say(waId, 'Sales');
    const after = await conversationOf(waId);
    expect(after.sessions[0]).toMatchObject({ status: 'ended', endReason: 'member' });
    expect(sentTo(waId).filter((m) => textOf(m).includes('Your e-mail'))).toHaveLength(0);
  });

  it('keeps a session on the version it started on while the draft is edited and published again', async () => {
    const waId = newCustomer();
    await say(waId, 'hi');
    const changed = walkCanvas('A new greeting');
    changed.nodes.find((n) => n.id === 'ask-mail')!.data = { label: 'Mail', body: 'NEW question', variableId: attr.email } as never;
    await ta.call('PATCH', `/bot/${botId}`, { token: admin.token, body: { rfInstance: changed, isActive: true } });
    await tap(waId, { type: 'list_reply', id: 'sales' });
    expect(textOf(sentTo(waId).at(-1)!)).toContain('Your e-mail, Sales fan?');
    const fresh = newCustomer();
    await say(fresh, 'hi');
    expect(textOf(sentTo(fresh)[0])).toContain('A new greeting');
  }, 120_000);
});

describe('start conditions', () => {
  it('starts only on a keyword (contained, any case) when the Start node says so', async () => {
    const { n, id: acc } = await addNumber();
    const canvas = walkCanvas();
    canvas.nodes[0].data = { label: 'Start', startCondition: { type: 'keywords', keywords: ['menu'], match: 'contains' } } as never;
    await newBot(canvas, { account: acc, deploy: true });
    const waId = newCustomer();
    await say(waId, 'where is my order?', n);
    expect(sentTo(waId)).toHaveLength(0);
    await say(waId, 'Show me the MENU please', n);
    expect(sentTo(waId).length).toBeGreaterThan(0);
  });
});

describe('an agent hands a conversation to a bot from live chat', () => {
  it('starts a session at Start: the greeting goes out as the bot; reassigning to a member ends it', async () => {
    const { n, id: acc } = await addNumber();
    const canvas = walkCanvas('Hello from the handed-over bot');
    // A keyword start: the customer's own message does not start the bot; the agent's handoff does.
    canvas.nodes[0].data = { label: 'Start', startCondition: { type: 'keywords', keywords: ['robot'], match: 'exact' } } as never;
    const botId = await newBot(canvas, { account: acc, deploy: true });
    const waId = newCustomer();
    await say(waId, 'Can someone help me?', n);
    expect(sentTo(waId)).toHaveLength(0);
    let c = await conversationOf(waId);
    expect(c.sessions).toHaveLength(0);

    const res = await ta.call('PATCH', `/conversation/${c.conversation.id}`, { token: admin.token, body: { assigneeBotId: botId, assigneeMemberId: null } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ assigneeBotId: botId, assigneeMemberId: null });
    await drain();
    const sent = sentTo(waId);
    expect(sent.map((m) => m.type)).toEqual(['text', 'interactive']);
    expect(textOf(sent[0])).toContain('Hello from the handed-over bot');
    c = await conversationOf(waId);
    expect(c.sessions).toHaveLength(1);
    expect(c.sessions[0]).toMatchObject({ status: 'active', botId, waitingFor: 'list' });
    const botMessages = await ta.db.select().from(t.messages).where(and(eq(t.messages.conversationId, c.conversation.id), eq(t.messages.creator, 'bot')));
    expect(botMessages).toHaveLength(2);
    const events = (await ta.db.select().from(t.conversationEvents).where(eq(t.conversationEvents.conversationId, c.conversation.id))).map((e) => e.data);
    expect(events).toContainEqual(expect.objectContaining({ type: 'CONVERSATION_ASSIGNED', assignedByType: 'member', assignedById: admin.member.id, assigneeType: 'bot', assigneeBotId: botId }));

    // The customer's answer goes to the session the agent started.
    await tap(waId, { type: 'list_reply', id: 'sales' }, n);
    expect(textOf(sentTo(waId).at(-1)!)).toContain('Your e-mail, Sales fan?');

    const back = await ta.call('PATCH', `/conversation/${c.conversation.id}`, { token: admin.token, body: { assigneeMemberId: admin.member.id, assigneeBotId: null } });
    expect(back.statusCode).toBe(200);
    c = await conversationOf(waId);
    expect(c.sessions[0]).toMatchObject({ status: 'ended', endReason: 'member' });
    const before = sentTo(waId).length;
    await say(waId, 'me@bakery.test', n);
    expect(sentTo(waId)).toHaveLength(before);
    expect((await conversationOf(waId)).contact.attributes).not.toHaveProperty('email');
  });

  it('refuses a bot that is not active (409) or not on the conversation\'s number (400)', async () => {
    const { n, id: acc } = await addNumber();
    const other = await addNumber();
    const waId = newCustomer();
    await say(waId, 'hello', n);
    const c = await conversationOf(waId);
    const idle = await newBot(walkCanvas(), { account: acc });
    const elsewhere = await newBot(walkCanvas(), { account: other.id, deploy: true });
    const notActive = await ta.call('PATCH', `/conversation/${c.conversation.id}`, { token: admin.token, body: { assigneeBotId: idle } });
    expect(notActive.statusCode).toBe(409);
    expect(notActive.json()).toMatchObject({ statusCode: 409, error: 'Conflict', message: 'The bot Bakery bot is not active: deploy it before handing conversations to it' });
    const wrongNumber = await ta.call('PATCH', `/conversation/${c.conversation.id}`, { token: admin.token, body: { assigneeBotId: elsewhere } });
    expect(wrongNumber.statusCode).toBe(400);
    expect(wrongNumber.json().message).toBe("The bot Bakery bot is not connected to this conversation's WhatsApp number");
    await drain();
    const after = await conversationOf(waId);
    expect(after.conversation.assigneeBotId).toBeNull();
    expect(after.sessions).toHaveLength(0);
    expect(sentTo(waId)).toHaveLength(0);
    await deactivate(elsewhere);
  });
});

describe('a process dying right after a turn commits', () => {
  it("loses none of the turn's replies: their bots.deliver job committed with the turn and a worker sends them", async () => {
    const { n, id: acc } = await addNumber();
    await newBot(walkCanvas('Greeting that survives a crash'), { account: acc, deploy: true });
    const waId = newCustomer();
    const jobs = ta.app.parley.jobs;
    const runCommitted = jobs.runCommitted;
    // The process "dies" the moment the turn commits: nothing it held in memory runs.
    jobs.runCommitted = () => undefined;
    try {
      await ta.sandbox.customers.say(waId, 'hi', { phoneNumberId: n.phoneNumberId });
      const started = Date.now();
      while ((await conversationOf(waId).catch(() => null))?.sessions[0]?.waitingFor !== 'list') {
        expect(Date.now() - started).toBeLessThan(30_000);
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      jobs.runCommitted = runCommitted;
    }
    const c = await conversationOf(waId);
    expect(sentTo(waId)).toHaveLength(0);
    const queued = rowsOf<{ data: { requests: { idempotencyKey: string }[] }; state: string }>(
      await ta.db.execute(sql`select data, state::text as state from pgboss.job where name = 'bots.deliver' and data->>'workspaceId' = ${admin.workspaceId}`),
    ).filter((j) => j.data.requests.some((r) => r.idempotencyKey.startsWith(`bot:${c.sessions[0].id}:`)));
    expect(queued).toHaveLength(1);
    expect(queued[0].state).toBe('created');
    // A worker (of this process or any other) takes it after runInSenderSeconds: the greeting and the list, once.
    await drain();
    expect(sentTo(waId).map((m) => m.type)).toEqual(['text', 'interactive']);
    expect(textOf(sentTo(waId)[0])).toContain('Greeting that survives a crash');
  });
});

describe('HTTPRequest node', () => {
  let server: http.Server;
  let url: string;
  const idempotencyKeys: (string | undefined)[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      idempotencyKeys.push(req.headers['idempotency-key'] as string | undefined);
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (req.url?.startsWith('/slow')) return setTimeout(() => res.end('{}'), 2000);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ data: { topic: `got ${body}`, items: [{ age: 42 }] } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  it('refuses loopback, private, link-local/metadata and names resolving to them', async () => {
    const call = (u: string) => guardedFetch({ method: 'GET', url: u, headers: {}, timeoutMs: 2000 });
    for (const u of ['http://127.0.0.1:1/', 'http://10.1.2.3/', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]:1/', 'http://192.168.0.1/', 'http://localhost:1/']) {
      const r = await call(u);
      expect(r.ok, u).toBe(false);
      expect(!r.ok && r.reason, u).toBe('The address is not allowed: bots may call public addresses only');
    }
  });

  it('calls an allowed host, maps the answer into attributes, and times out', async () => {
    process.env.BOT_HTTP_ALLOWED_HOSTS = '127.0.0.1';
    try {
      const { n, id: acc } = await addNumber();
      const canvas = {
        nodes: [
          { id: 'start', type: 'StartNode', position: pos, data: { label: 'Start' }, deletable: false },
          { id: 'call', type: 'HTTPRequestNode', position: pos, data: { label: 'Call', url: `${url}/hook`, method: 'POST', headers: [], body: '{"q":"x"}', bodyType: 'raw', timeoutMs: 1000, responseMappings: [{ id: 'm1', path: '$.data.topic', attributeId: attr.topic }, { id: 'm2', path: '$.data.items[0].age', attributeId: attr.age }] } },
          { id: 'say', type: 'SendMessageNode', position: pos, data: { label: 'Say', messageBlocks: [{ id: 'b', type: 'text', text: 'Topic {{topic}}, age {{age}}' }] } },
          { id: 'slow', type: 'HTTPRequestNode', position: pos, data: { label: 'Slow', url: `${url}/slow`, method: 'GET', headers: [], bodyType: 'raw', timeoutMs: 200 } },
          { id: 'ok', type: 'SendMessageNode', position: pos, data: { label: 'Ok', messageBlocks: [{ id: 'b', type: 'text', text: 'slow worked' }] } },
          { id: 'failed', type: 'SendMessageNode', position: pos, data: { label: 'Failed', messageBlocks: [{ id: 'b', type: 'text', text: 'slow failed' }] } },
        ],
        edges: [edge('start', 'call'), edge('call', 'say'), edge('say', 'slow'), edge('slow', 'ok'), edge('slow', 'failed', 'failure')],
      };
      await newBot(canvas, { account: acc, deploy: true });
      const waId = newCustomer();
      await say(waId, 'hi', n);
      const texts = sentTo(waId).map(textOf);
      expect(texts[0]).toContain('Topic got {\\"q\\":\\"x\\"}, age 42');
      expect(texts[1]).toContain('slow failed');
      const c = await conversationOf(waId);
      const [values] = await ta.db.select().from(t.conversationAttributes).where(eq(t.conversationAttributes.conversationId, c.conversation.id));
      expect(values.values).toMatchObject({ topic: 'got {"q":"x"}' });
      expect(c.contact.attributes).toMatchObject({ age: '42' });
      // Each call is named by the session and its step: a turn run again sends the same key.
      expect(idempotencyKeys.slice(0, 2)).toEqual([`bot:${c.sessions[0].id}:2:0`, `bot:${c.sessions[0].id}:4:0`]);
    } finally {
      delete process.env.BOT_HTTP_ALLOWED_HOSTS;
    }
  });

  it("follows the failure edge when a customer's answer makes a header invalid; the turn itself never fails", async () => {
    process.env.BOT_HTTP_ALLOWED_HOSTS = '127.0.0.1';
    try {
      const { n, id: acc } = await addNumber();
      const canvas = {
        nodes: [
          { id: 'start', type: 'StartNode', position: pos, data: { label: 'Start' }, deletable: false },
          { id: 'ask', type: 'CollectInputNode', position: pos, data: { label: 'City', body: 'Your city?', variableId: attr.choice } },
          { id: 'call', type: 'HTTPRequestNode', position: pos, data: { label: 'Call', url: `${url}/city`, method: 'GET', headers: [{ key: 'X-City', value: '{{choice}}' }], bodyType: 'raw', timeoutMs: 1000 } },
          { id: 'ok', type: 'SendMessageNode', position: pos, data: { label: 'Ok', messageBlocks: [{ id: 'b', type: 'text', text: 'found your city' }] } },
          { id: 'failed', type: 'SendMessageNode', position: pos, data: { label: 'Failed', messageBlocks: [{ id: 'b', type: 'text', text: 'could not look it up' }] } },
        ],
        edges: [edge('start', 'ask'), edge('ask', 'call'), edge('call', 'ok'), edge('call', 'failed', 'failure')],
      };
      await newBot(canvas, { account: acc, deploy: true });
      const waId = newCustomer();
      await say(waId, 'hi', n);
      const before = idempotencyKeys.length;
      await say(waId, '東京', n);
      expect(textOf(sentTo(waId).at(-1)!)).toContain('could not look it up');
      expect(idempotencyKeys).toHaveLength(before);
      expect((await conversationOf(waId)).sessions[0]).toMatchObject({ status: 'ended', endReason: 'completed' });
    } finally {
      delete process.env.BOT_HTTP_ALLOWED_HOSTS;
    }
  });
});

describe('SendEmail node', () => {
  it('sends through SMTP with cc and bcc', async () => {
    const received: { to: string[]; data: string }[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      disableReverseLookup: true,
      onData(stream, session, cb) {
        let data = '';
        stream.on('data', (c) => (data += c));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
          cb();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
    const port = (smtp.server.address() as AddressInfo).port;
    const mailApp = await buildTestApp({ smtpUrl: `smtp://127.0.0.1:${port}` });
    try {
      const a = await mailApp.newAdmin('Mail Bakery');
      const n = mailApp.sandbox.addAccount();
      const acc = (await mailApp.call('POST', '/whatsapp', { token: a.token, body: { ...n, verifiedName: undefined, workspaceId: a.workspaceId } })).json().id;
      const bot = (await mailApp.call('POST', '/bot', { token: a.token, body: { workspaceId: a.workspaceId } })).json().id;
      const rfInstance = {
        nodes: [
          { id: 'start', type: 'StartNode', position: pos, data: { label: 'Start' }, deletable: false },
          { id: 'mail', type: 'SendEmailNode', position: pos, data: { label: 'Mail', to: ['ops@bakery.test'], cc: ['cc@bakery.test'], bcc: ['hidden@bakery.test'], subject: 'New lead', body: 'A customer wrote' } },
        ],
        edges: [edge('start', 'mail')],
      };
      await mailApp.call('PATCH', `/bot/${bot}`, { token: a.token, body: { rfInstance } });
      await mailApp.call('PATCH', `/bot/${bot}/connectWaba`, { token: a.token, body: { wabaAccountId: acc } });
      expect((await mailApp.call('PATCH', `/bot/${bot}`, { token: a.token, body: { isActive: true } })).statusCode).toBe(200);
      await mailApp.sandbox.customers.say(newCustomer(), 'hi', { phoneNumberId: n.phoneNumberId });
      // The e-mail job runs after the turn commits: wait for the mail itself.
      await mailApp.app.parley.jobs.drain().catch(() => undefined);
      for (let i = 0; i < 300 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(received).toHaveLength(1);
      expect(received[0].to.sort()).toEqual(['cc@bakery.test', 'hidden@bakery.test', 'ops@bakery.test']);
      expect(received[0].data).toContain('Subject: New lead');
      expect(received[0].data).toMatch(/Cc: cc@bakery.test/i);
      expect(received[0].data).not.toContain('hidden@bakery.test');
    } finally {
      await mailApp.close();
      smtp.close();
    }
  }, 120_000);
});

describe('preview', () => {
  it('runs the draft against a simulated customer and writes nothing', async () => {
    const id = await newBot(walkCanvas('Preview hello'));
    const before = await ta.db.select().from(t.contacts).where(eq(t.contacts.workspaceId, admin.workspaceId));
    const start = await ta.call('POST', `/bot/${id}/preview`, { token: admin.token, body: {} });
    expect(start.statusCode).toBe(200);
    const turn1 = start.json();
    expect(turn1.messages.map((m: { type: string }) => m.type)).toEqual(['text', 'list']);
    expect(turn1.messages[1].buttons.map((b: { title: string }) => b.title)).toEqual(['Sales', 'Support']);
    expect(turn1.currentNodeId).toBe('menu');
    const turn2 = (await ta.call('POST', `/bot/${id}/preview/answer`, { token: admin.token, body: { session: turn1.session, answer: { type: 'listRow', id: 'sales' } } })).json();
    expect(turn2.attributes).toEqual({ choice: 'Sales' });
    expect(turn2.currentNodeId).toBe('ask-mail');
    const turn3 = (await ta.call('POST', `/bot/${id}/preview/answer`, { token: admin.token, body: { session: turn2.session, answer: { type: 'text', text: 'p@bakery.test' } } })).json();
    expect(turn3.ended).toBe(true);
    expect(turn3.endReason).toBe('handoff');
    expect(turn3.messages.at(-1)).toMatchObject({ type: 'note', text: 'Conversation handed to Ada Admin' });
    const after = await ta.db.select().from(t.contacts).where(eq(t.contacts.workspaceId, admin.workspaceId));
    expect(after).toEqual(before);
    expect(await ta.db.select().from(t.botSessions).where(eq(t.botSessions.botId, id))).toHaveLength(0);
  });
});
