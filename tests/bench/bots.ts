/**
 * Bots (issue 18), on PostgreSQL with the sandbox as the Graph API: BENCH_BOT_SESSIONS conversations (default
 * 500) are put in live bot sessions waiting on a question; then one customer at a time answers and we time
 * from the app answering the webhook POST (storing, the bot turn and the send follow) to the bot's reply
 * reaching the Graph API (the sandbox records it), p50/p95. Not measured here yet: ingestion throughput with bots
 * active as a share of the same without bots.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import type { IdentityProvider } from '../../src/server/auth/identity';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import { startTestSandbox } from '../support/sandbox';
import { testAppSecret, testSecretsKey, testVerifyToken } from '../support/sandbox-webhooks';
import { type Benchmark, percentile, round } from './types';

const SESSIONS = Number(process.env.BENCH_BOT_SESSIONS ?? 500);
const SAMPLES = Number(process.env.BENCH_BOT_SAMPLES ?? 100);
const benchToken = 'bench-token';

const benchIdentity = (uid: string): IdentityProvider => ({
  async verifyIdToken(token) {
    if (token !== benchToken) throw new Error('bad token');
    return { uid, email: 'bench@parley.test', emailVerified: true, expiresAt: new Date(Date.now() + 3_600_000) };
  },
  createUser: async () => uid,
  deleteUser: async () => undefined,
  findUidByEmail: async () => null,
  profiles: async () => new Map(),
  close: async () => undefined,
});

const pos = { x: 0, y: 0 };
/** Start -> ask (waits) -> thanks -> ask again: every answer gets one reply and leaves the session waiting. */
const loopCanvas = (attributeId: string) => ({
  nodes: [
    { id: 'start', type: 'StartNode', position: pos, data: { label: 'Start' }, deletable: false },
    { id: 'ask', type: 'CollectInputNode', position: pos, data: { label: 'Ask', body: 'What would you like?', variableId: attributeId } },
    { id: 'thanks', type: 'SendMessageNode', position: pos, data: { label: 'Thanks', messageBlocks: [{ id: 'b', type: 'text', text: 'Noted: {{wish}}' }] } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'ask' },
    { id: 'e2', source: 'ask', target: 'thanks' },
    { id: 'e3', source: 'thanks', target: 'ask' },
  ],
});

export const benchmark: Benchmark = {
  name: 'bots',
  needsDatabase: true,
  async run({ databaseUrl, log }) {
    const database = await openDatabase({ url: databaseUrl! });
    await database.migrate();
    const db = database.db;
    const [ws] = await db.insert(t.workspaces).values({ name: 'Bot Bench' }).returning();
    const uid = `bench-${randomUUID()}`;
    const [member] = await db.insert(t.members).values({ uid, currentWorkspaceId: ws.id }).returning();
    await db.insert(t.workspaceMembers).values({ workspaceId: ws.id, memberId: member.id, role: 'admin' });

    const target: { app?: FastifyInstance } = {};
    const sandbox = await startTestSandbox(() => target.app);
    const config = loadConfig({ LOG_LEVEL: 'warn', PARLEY_DATA_DIR: os.tmpdir() } as NodeJS.ProcessEnv, {
      graphApiUrl: sandbox.baseUrl,
      whatsappAppSecret: testAppSecret,
      whatsappVerifyToken: testVerifyToken,
      secretsKey: testSecretsKey,
    });
    const app = await buildApp({ config, database, identity: benchIdentity(uid), logger: { level: 'warn' } });
    target.app = app;
    const call = async (method: 'POST' | 'PATCH', url: string, body: unknown) => {
      const res = await app.inject({ method, url, headers: { authorization: `Bearer ${benchToken}` }, payload: body as object });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json();
    };
    try {
      const number = sandbox.addAccount();
      const account = await call('POST', '/whatsapp', { ...number, verifiedName: undefined, workspaceId: ws.id });
      const attribute = await call('POST', '/attribute', { name: 'wish', format: 'text', workspaceId: ws.id });
      const bot = await call('POST', '/bot', { workspaceId: ws.id });
      await call('PATCH', `/bot/${bot.id}`, { rfInstance: loopCanvas(attribute.id) });
      await call('PATCH', `/bot/${bot.id}/connectWaba`, { wabaAccountId: account.id });
      await call('PATCH', `/bot/${bot.id}`, { isActive: true });

      const waId = (i: number) => `1415${String(7_000_000 + i)}`;
      const started = performance.now();
      for (let i = 0; i < SESSIONS; i += 25) {
        await Promise.all(Array.from({ length: Math.min(25, SESSIONS - i) }, (_, k) => sandbox.customers.say(waId(i + k), 'hi', { phoneNumberId: number.phoneNumberId })));
      }
      await app.parley.jobs.drain({ timeoutMs: 600_000 });
      log(`${SESSIONS} sessions live in ${round((performance.now() - started) / 1000)} s`);

      const latencies: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const who = waId(i % SESSIONS);
        const before = sandbox.sent.filter((m) => m.waId === who).length;
        const t0 = Date.now();
        await sandbox.customers.say(who, `wish ${i}`, { phoneNumberId: number.phoneNumberId });
        const accepted = Date.now();
        for (let spin = 0; spin < 2000; spin++) {
          const reply = sandbox.sent.filter((m) => m.waId === who)[before];
          if (reply) {
            latencies.push(Math.max(0, reply.at.getTime() - accepted));
            break;
          }
          await new Promise((r) => setTimeout(r, 2));
        }
        if (latencies.length < i + 1) log(`no reply for sample ${i} after ${Date.now() - t0} ms`);
      }
      return {
        metrics: {
          replyP50: { value: round(percentile(latencies, 50)), unit: 'ms', description: `webhook accepted -> bot reply at the Graph API, p50 over ${latencies.length} answers with ${SESSIONS} live sessions` },
          replyP95: { value: round(percentile(latencies, 95)), unit: 'ms', goal: 20, description: 'the same, p95' },
        },
        notes: [
          'Each sample: one customer answers a CollectInput; the reply is the SendMessage that follows (the next question is a second send).',
          'The clock starts when the app has answered the webhook POST (the delivery queued; storing, the bot turn and the send follow) and stops at the sandbox recording the first reply: an upper bound of committed inbound -> reply handed to the Graph API.',
          'Not measured yet: ingestion throughput with bots active vs without.',
        ],
      };
    } finally {
      await app.close();
      await sandbox.close();
      await database.close();
    }
  },
};
