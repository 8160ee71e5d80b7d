/**
 * A bot turn's steps on the real app and the sandbox (PGlite and PostgreSQL): decide in a short transaction, make
 * the network call outside it, record and go on in another. While twenty sessions wait on a slow HTTP endpoint,
 * webhooks, /healthz and other conversations' bots still answer; a call is made once under its key however
 * often its turn runs; a send that fails ends the turn and hands the conversation to people; a bot's e-mail goes
 * once, from the workspace's address, however often its job runs.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { SandboxAccount } from '../../src/sandbox';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { landedIn } from '../support/customers';
import { inbound, postWebhook } from '../support/sandbox-webhooks';
import { until } from '../support/until';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });
let ta: TestApp;
let admin: Session;
let topicId = '';

/** The business's API: `/slow` answers when the test releases it, `/fast` at once; every request is counted with its key. */
const seen: { path: string; key: string | undefined }[] = [];
/** `/slow` answers only when the test lets it: every measure while they wait is made with all twenty open. */
const heldSlow: (() => void)[] = [];
let server: http.Server;
let base = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? '', key: req.headers['idempotency-key'] as string | undefined });
    req.resume();
    const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"topic":"cakes"}');
    if (req.url?.startsWith('/slow')) heldSlow.push(answer);
    else answer();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The network rule lets bots reach only public addresses, or hosts an admin allows by name: this one.
  process.env.BOT_HTTP_ALLOWED_HOSTS = '127.0.0.1';
  ta = await buildTestApp();
  admin = await ta.newAdmin('Turn Bakery');
  const attr = await ta.call('POST', '/attribute', { token: admin.token, body: { name: 'topic', format: 'text', type: 'contact', workspaceId: admin.workspaceId } });
  topicId = attr.json().id;
});
afterAll(async () => {
  delete process.env.BOT_HTTP_ALLOWED_HOSTS;
  for (const answer of heldSlow.splice(0)) answer();
  await ta?.close();
  server?.close();
});

const pos = { x: 0, y: 0 };
const edge = (source: string, target: string) => ({ id: `${source}-${target}`, source, target });
const start = { id: 'start', type: 'StartNode', position: pos, data: { label: 'Start' }, deletable: false };
const say = (id: string, ...texts: string[]) => ({ id, type: 'SendMessageNode', position: pos, data: { label: id, messageBlocks: texts.map((text, i) => ({ id: `${id}${i}`, type: 'text', text })) } });
const call = (path: string) => ({
  id: 'call',
  type: 'HTTPRequestNode',
  position: pos,
  data: { label: 'Call', url: `${base}${path}`, method: 'POST', headers: [], body: '{"order":1}', bodyType: 'raw', timeoutMs: 20_000, responseMappings: [{ id: 'm', path: '$.topic', attributeId: topicId }] },
});

async function addNumber() {
  const n = ta.sandbox.addAccount();
  const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...n, verifiedName: undefined, workspaceId: admin.workspaceId } });
  expect(res.statusCode).toBe(201);
  return { n, id: res.json().id as string };
}

/** A number with an active bot on this canvas. */
async function numberWithBot(nodes: unknown[], edges: unknown[]): Promise<SandboxAccount> {
  const { n, id: acc } = await addNumber();
  const bot = (await ta.call('POST', '/bot', { token: admin.token, body: { workspaceId: admin.workspaceId, title: 'Turn bot' } })).json().id;
  expect((await ta.call('PATCH', `/bot/${bot}`, { token: admin.token, body: { rfInstance: { nodes, edges } } })).statusCode).toBe(200);
  expect((await ta.call('PATCH', `/bot/${bot}/connectWaba`, { token: admin.token, body: { wabaAccountId: acc } })).statusCode).toBe(200);
  expect((await ta.call('PATCH', `/bot/${bot}`, { token: admin.token, body: { isActive: true } })).json()).toMatchObject({ isActive: true });
  return n;
}

let seq = 0;
const newCustomer = () => `1650888${String(1000 + seq++).padStart(4, '0')}`;
const sentTo = (waId: string) => ta.sandbox.sent.filter((m) => m.waId === waId);
const textsTo = (waId: string) => sentTo(waId).map((m) => JSON.stringify(m.body));
async function sessionsOf(waId: string) {
  const { conversation } = await landedIn(ta, admin.workspaceId, waId);
  const sessions = await ta.db.select().from(t.botSessions).where(eq(t.botSessions.conversationId, conversation.id));
  return { conversation, sessions };
}
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)];
const timed = async (f: () => Promise<unknown>) => {
  const at = performance.now();
  await f();
  return performance.now() - at;
};

describe('a turn waiting on a slow HTTP call', () => {
  it('holds nothing while twenty sessions wait on their calls: webhooks, /healthz and another bot answer while all twenty are open, and each call is made once', async () => {
    const slowNumber = await numberWithBot([start, call('/slow'), say('after', 'Topic {{topic}}')], [edge('start', 'call'), edge('call', 'after')]);
    const greetNumber = await numberWithBot([start, say('hello', 'Hello there')], [edge('start', 'hello')]);
    const quietNumber = (await addNumber()).n;

    /** A webhook's acknowledgement, /healthz, and a greeting bot's reply to a new customer, each timed. */
    async function measure(rounds: number) {
      const out = { webhook: [] as number[], healthz: [] as number[], reply: [] as number[] };
      for (let i = 0; i < rounds; i++) {
        out.webhook.push(await timed(async () => expect((await postWebhook(ta, inbound(quietNumber.phoneNumberId, newCustomer(), { type: 'text', text: { body: 'hi' } }))).statusCode).toBe(200)));
        out.healthz.push(await timed(async () => expect((await ta.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200)));
        const waId = newCustomer();
        out.reply.push(await timed(async () => {
          await ta.sandbox.customers.say(waId, 'hi', { phoneNumberId: greetNumber.phoneNumberId });
          await until(() => sentTo(waId).length > 0, 30_000, 10);
        }));
      }
      return out;
    }
    await measure(2); // warm-up: first statements, first sends
    const baseline = await measure(6);

    const waiting = Array.from({ length: 20 }, () => newCustomer());
    for (const waId of waiting) await ta.sandbox.customers.say(waId, 'hi', { phoneNumberId: slowNumber.phoneNumberId });
    // All twenty calls are on their way at once: no turn holds them back.
    await until(() => seen.filter((s) => s.path === '/slow').length === 20, 8_000, 20);
    const loaded = await measure(6);
    // Every measure above ended while all twenty calls were still open (none is answered before the release
    // below): had a waiting turn held a database connection, a job worker or the event loop, a webhook or the
    // other bot's reply could not have finished. Timings are logged, not bounded: a busy machine moves them.
    console.info((['webhook', 'healthz', 'reply'] as const).map((k) => `${k} p95 ${p95(loaded[k]).toFixed(0)} ms (alone ${p95(baseline[k]).toFixed(0)} ms)`).join(', '));
    expect(loaded.reply).toHaveLength(6);
    expect(heldSlow).toHaveLength(20);
    for (const answer of heldSlow.splice(0)) answer();

    // Each session goes on once its call answered: the mapped value in its next message, the call made once.
    await until(() => waiting.every((w) => sentTo(w).length === 1), 30_000, 50);
    for (const waId of waiting) {
      expect(textsTo(waId)[0]).toContain('Topic cakes');
      const { sessions } = await sessionsOf(waId);
      expect(sessions[0]).toMatchObject({ status: 'ended', endReason: 'completed' });
      expect(seen.filter((s) => s.key === `bot:${sessions[0].id}:2:0`)).toHaveLength(1);
    }
  });

  it('a turn run again after its call reuses the recorded answer: the endpoint is called once, with the Idempotency-Key', async () => {
    const number = await numberWithBot([start, call('/fast'), say('after', 'Result {{topic}}')], [edge('start', 'call'), edge('call', 'after')]);
    const jobs = ta.app.parley.jobs;
    const send = jobs.send;
    let failures = 0;
    // The transaction that records the answer and queues the reply fails once (a lost connection, a deadlock):
    // the turn is run again.
    jobs.send = ((name: string, data: unknown, opts: unknown) => {
      if (name === 'bots.deliver' && failures === 0 && JSON.stringify(data).includes('Result')) {
        failures += 1;
        throw new Error('connection lost while recording the turn');
      }
      return (send as (n: string, d: unknown, o: unknown) => Promise<string | null>).call(jobs, name, data, opts);
    }) as typeof jobs.send;
    const waId = newCustomer();
    try {
      await ta.sandbox.customers.say(waId, 'hi', { phoneNumberId: number.phoneNumberId });
      await until(() => sentTo(waId).length > 0, 60_000, 50);
    } finally {
      jobs.send = send;
    }
    expect(failures).toBe(1);
    expect(textsTo(waId)).toHaveLength(1);
    expect(textsTo(waId)[0]).toContain('Result cakes');
    const { sessions } = await sessionsOf(waId);
    const key = `bot:${sessions[0].id}:2:0`;
    // One request in all (only this bot calls /fast), under the key of the session that went on.
    expect(seen.filter((s) => s.path === '/fast')).toEqual([{ path: '/fast', key }]);
    const [recorded] = await ta.db.select().from(t.botCalls).where(and(eq(t.botCalls.workspaceId, admin.workspaceId), eq(t.botCalls.key, key)));
    expect(recorded).toMatchObject({ kind: 'http', attempts: 1, outcome: { ok: true, status: 200 } });
  });
});

describe('a bot send that fails', () => {
  it('ends the turn: the rest is not sent, the session ends failed and the conversation needs a person', async () => {
    const number = await numberWithBot(
      [start, say('hello', 'First block', 'Second block'), { id: 'ask', type: 'CollectInputNode', position: pos, data: { label: 'Ask', body: 'Your order number?', variableId: topicId } }],
      [edge('start', 'hello'), edge('hello', 'ask')],
    );
    const waId = newCustomer();
    // Meta refuses the first message for good (undeliverable).
    ta.sandbox.injectFailure({ code: 131026, mode: 'sync', count: 1 });
    await ta.sandbox.customers.say(waId, 'hi', { phoneNumberId: number.phoneNumberId });
    // The inbound pipeline stores the conversation a moment after the webhook's acknowledgement.
    await until(async () => (await sessionsOf(waId).catch(() => null))?.sessions[0]?.status === 'ended', 30_000, 50);
    await ta.app.parley.jobs.drain({ timeoutMs: 30_000 });
    const { conversation, sessions } = await sessionsOf(waId);
    expect(sessions[0]).toMatchObject({ status: 'ended', endReason: 'failed', waitingFor: null, noAnswerAt: null });
    expect(sentTo(waId)).toHaveLength(0);
    expect(conversation).toMatchObject({ needsPerson: true, assigneeBotId: null });
    const res = await ta.call('GET', `/conversation/${conversation.id}`, { token: admin.token });
    expect(res.json()).toMatchObject({ needsPerson: true });
  });
});

describe("a bot's e-mail", () => {
  it('goes once however often its job runs, from the workspace address, with a Message-ID named by its key', async () => {
    const put = await ta.call('PATCH', `/workspace/${admin.workspaceId}/bot-settings`, { token: admin.token, body: { emailFrom: 'Turn Bakery <bots@turn-bakery.test>' } });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ emailFrom: 'Turn Bakery <bots@turn-bakery.test>' });
    const number = await numberWithBot(
      [start, { id: 'mail', type: 'SendEmailNode', position: pos, data: { label: 'Mail', to: ['ops@turn-bakery.test'], cc: [], bcc: [], subject: 'New lead', body: 'A customer wrote' } }],
      [edge('start', 'mail')],
    );
    const jobs = ta.app.parley.jobs;
    const send = jobs.send;
    const queued: unknown[] = [];
    jobs.send = ((name: string, data: unknown, opts: unknown) => {
      if (name === 'bots.email') queued.push(data);
      return (send as (n: string, d: unknown, o: unknown) => Promise<string | null>).call(jobs, name, data, opts);
    }) as typeof jobs.send;
    const outbox = ta.app.parley.mailer.outbox;
    const before = outbox.length;
    const waId = newCustomer();
    try {
      await ta.sandbox.customers.say(waId, 'hi', { phoneNumberId: number.phoneNumberId });
      await until(() => outbox.length > before, 30_000, 50);
    } finally {
      jobs.send = send;
    }
    expect(queued).toHaveLength(1);
    // The job runs again (a retry after a lost acknowledgement, a second worker): nothing more is sent.
    await ta.app.parley.services.bots.email(queued[0] as Parameters<typeof ta.app.parley.services.bots.email>[0]);
    await ta.app.parley.jobs.drain({ timeoutMs: 30_000 });
    const { sessions } = await sessionsOf(waId);
    const mails = outbox.slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ from: 'Turn Bakery <bots@turn-bakery.test>', to: 'ops@turn-bakery.test', subject: 'New lead', messageId: `<bot.${sessions[0].id}.2.0@turn-bakery.test>` });
    const [recorded] = await ta.db.select().from(t.botCalls).where(and(eq(t.botCalls.workspaceId, admin.workspaceId), eq(t.botCalls.key, `bot:${sessions[0].id}:2:0`)));
    expect(recorded).toMatchObject({ kind: 'email', outcome: { sent: true } });
  });
});
