/**
 * Bots, on PostgreSQL with the sandbox as the Graph API (sizes by env; run small to check the script):
 * - reply latency: BENCH_BOT_SESSIONS conversations (default 500) are put in live bot sessions waiting on a
 *   question; then BENCH_BOT_SAMPLES times (default 100) one customer answers and we time from the inbound
 *   message's commit (the moment the hook after the batch queues its `bots.turn`) to the bot's reply reaching
 *   the Graph API (the sandbox records it), p50/p95, with where the time goes (waiting for the turn to run, the
 *   turn's transaction, waiting for the delivery, the send); also from the app answering the webhook POST;
 * - ingestion with bots: BENCH_BOT_INGEST customers (default 2,000) each write once, BENCH_BOT_INGEST_CONCURRENCY
 *   (default 32) webhooks at a time, on a number without a bot and then on the number whose bot is active (every
 *   message starts a session: greeting and question sent while the others are stored); messages stored per
 *   second with bots as a share of the same without bots, same run.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import type { IdentityProvider } from '../../src/server/identity/identity-provider';
import { loadConfig } from '../../src/server/config';
import { eq, sql } from 'drizzle-orm';
import { openDatabase, rowsOf } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import { startTestSandbox } from '../support/sandbox';
import { testAppSecret, testSecretsKey, testVerifyToken } from '../support/sandbox-webhooks';
import { type Benchmark, percentile, round } from './types';
import { loopCanvas } from '../support/loop-bot';

const SESSIONS = Number(process.env.BENCH_BOT_SESSIONS ?? 500);
const SAMPLES = Number(process.env.BENCH_BOT_SAMPLES ?? 100);
const INGEST = Number(process.env.BENCH_BOT_INGEST ?? 2000);
const INGEST_CONCURRENCY = Number(process.env.BENCH_BOT_INGEST_CONCURRENCY ?? 32);
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

      // Where the time goes: marks by conversation, from the hook queuing the turn to the delivery starting.
      type Marks = { committed?: number; turnStart?: number; turnEnd?: number; deliverStart?: number };
      const marks = new Map<string, Marks>();
      const markOf = (id: string) => marks.get(id) ?? (marks.set(id, {}), marks.get(id)!);
      const jobs = app.parley.jobs;
      const send = jobs.send.bind(jobs);
      jobs.send = ((name, data, opts) => {
        if (name === 'bots.turn') markOf((data as { conversationId: string }).conversationId).committed ??= Date.now();
        return send(name, data, opts);
      }) as typeof jobs.send;
      const bots = app.parley.services.bots;
      const onInbound = bots.onInbound;
      bots.onInbound = async (data) => {
        markOf(data.conversationId).turnStart ??= Date.now();
        try {
          await onInbound(data);
        } finally {
          markOf(data.conversationId).turnEnd ??= Date.now();
        }
      };
      const deliver = bots.deliver;
      bots.deliver = (data) => {
        const target = data.requests[0]?.target;
        if (target && 'conversationId' in target) markOf(target.conversationId).deliverStart ??= Date.now();
        return deliver(data);
      };

      const conversationOf = new Map(
        (await db.select({ id: t.conversations.id, phone: t.contacts.phoneNumber }).from(t.conversations).innerJoin(t.contacts, eq(t.contacts.id, t.conversations.contactId)).where(eq(t.conversations.workspaceId, ws.id))).map((r) => [r.phone, r.id]),
      );
      const fromCommit: number[] = [];
      const fromPost: number[] = [];
      const parts = { toTurn: [] as number[], turn: [] as number[], toDeliver: [] as number[], send: [] as number[] };
      for (let i = 0; i < SAMPLES; i++) {
        const who = waId(i % SESSIONS);
        const conversationId = conversationOf.get(`+${who}`) ?? '';
        marks.delete(conversationId);
        const before = sandbox.sent.filter((m) => m.waId === who).length;
        const t0 = Date.now();
        await sandbox.customers.say(who, `wish ${i}`, { phoneNumberId: number.phoneNumberId });
        const accepted = Date.now();
        let replied = false;
        for (let spin = 0; spin < 5000 && !replied; spin++) {
          const reply = sandbox.sent.filter((m) => m.waId === who)[before];
          if (reply) {
            replied = true;
            const at = reply.at.getTime();
            fromPost.push(Math.max(0, at - accepted));
            const m = marks.get(conversationId) ?? {};
            if (m.committed !== undefined && m.turnStart !== undefined && m.turnEnd !== undefined && m.deliverStart !== undefined) {
              fromCommit.push(Math.max(0, at - m.committed));
              parts.toTurn.push(m.turnStart - m.committed);
              parts.turn.push(m.turnEnd - m.turnStart);
              parts.toDeliver.push(Math.max(0, m.deliverStart - m.turnEnd));
              parts.send.push(Math.max(0, at - m.deliverStart));
            }
          } else await new Promise((r) => setTimeout(r, 1));
        }
        if (!replied) log(`no reply for sample ${i} after ${Date.now() - t0} ms`);
      }
      await app.parley.jobs.drain({ timeoutMs: 600_000 });
      const p50 = (xs: number[]) => round(percentile(xs, 50));
      log(`reply from commit p50 ${p50(fromCommit)} ms, p95 ${round(percentile(fromCommit, 95))} ms (p50 parts: to turn ${p50(parts.toTurn)}, turn ${p50(parts.turn)}, to delivery ${p50(parts.toDeliver)}, send ${p50(parts.send)})`);

      // Ingestion with bots active as a share of the same without bots, same run, same shape.
      const plain = sandbox.addAccount();
      await call('POST', '/whatsapp', { ...plain, verifiedName: undefined, workspaceId: ws.id });
      const ingest = async (phoneNumberId: string, prefix: string) => {
        const stored = async () => rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from ${t.messages} m join ${t.conversations} v on v.id = m.conversation_id join ${t.contacts} c on c.id = v.contact_id where m.workspace_id = ${ws.id} and m.creator = 'user' and c.phone_number like ${`+${prefix}%`}`))[0].n;
        const began = performance.now();
        const cpu = process.cpuUsage();
        let next = 0;
        await Promise.all(
          Array.from({ length: Math.min(INGEST_CONCURRENCY, INGEST) }, async () => {
            while (next < INGEST) {
              const i = next++;
              await sandbox.customers.say(`${prefix}${String(i).padStart(6, '0')}`, `hello ${i}`, { phoneNumberId });
            }
          }),
        );
        while ((await stored()) < INGEST) await new Promise((r) => setTimeout(r, 10));
        const seconds = (performance.now() - began) / 1000;
        const used = process.cpuUsage(cpu);
        const cpuSeconds = (used.user + used.system) / 1e6;
        await app.parley.jobs.drain({ timeoutMs: 600_000 });
        log(`ingestion ${prefix}: ${Math.round(INGEST / seconds)} msg/s, ${round(seconds, 2)} s wall, ${round(cpuSeconds, 2)} s CPU of this process (app + sandbox + webhooks)`);
        return { rate: INGEST / seconds, cpuSeconds };
      };
      const without = await ingest(plain.phoneNumberId, '1416');
      const withB = await ingest(number.phoneNumberId, '1417');
      const withoutBots = without.rate;
      const withBots = withB.rate;
      const ms = (xs: number[], p: number) => round(percentile(xs, p));
      return {
        metrics: {
          replyP50: { value: ms(fromCommit, 50), unit: 'ms', description: `committed inbound -> bot reply at the Graph API, p50 over ${fromCommit.length} answers with ${SESSIONS} live sessions` },
          replyP95: { value: ms(fromCommit, 95), unit: 'ms', goal: 20, description: 'the same, p95' },
          replyFromPostP95: { value: ms(fromPost, 95), unit: 'ms', description: 'webhook POST answered -> bot reply at the Graph API, p95 (adds the webhook job and the store)' },
          partToTurnP50: { value: ms(parts.toTurn, 50), unit: 'ms', description: 'of which: commit -> the turn starts (job queued and run from memory), p50' },
          partTurnP50: { value: ms(parts.turn, 50), unit: 'ms', description: 'of which: the turn transaction, p50' },
          partToDeliverP50: { value: ms(parts.toDeliver, 50), unit: 'ms', description: 'of which: turn committed -> delivery starts, p50' },
          partSendP50: { value: ms(parts.send, 50), unit: 'ms', description: 'of which: delivery starts -> the Graph API has the reply (pacer, send record, HTTP), p50' },
          ingestWithoutBots: { value: Math.round(withoutBots), unit: 'msg/s', description: `${INGEST} customers writing once (${INGEST_CONCURRENCY} webhooks at a time) on a number without a bot, until stored` },
          ingestWithBots: { value: Math.round(withBots), unit: 'msg/s', description: 'the same on the number whose bot is active (each message starts a session)' },
          ingestCpuWithoutBots: { value: round(without.cpuSeconds, 2), unit: 's', description: 'CPU of this process (app, sandbox Graph API and its webhooks) during the ingestion without bots' },
          ingestCpuWithBots: { value: round(withB.cpuSeconds, 2), unit: 's', description: 'the same with bots (adds the turns, the replies through the sandbox and their sent/delivered/read webhooks)' },
          ingestSlowdownWithBots: { value: round(withoutBots / withBots, 2), unit: 'x', goal: 1.25, description: `time with bots / without (1.25 = bots keep 80% of the throughput); share kept: ${Math.round((100 * withBots) / withoutBots)}%` },
        },
        notes: [
          'Each sample: one customer answers a CollectInput; the reply is the SendMessage that follows (the next question is a second send).',
          'The reply clock starts when the hook after the inbound batch commit queues the bots.turn job and stops at the sandbox recording the first reply.',
          'Ingestion: messages stored per second from the first webhook posted to the last message stored; with bots, the sessions it starts send while the rest are stored (their sends are not waited for).',
        ],
      };
    } finally {
      await app.close();
      await sandbox.close();
      await database.close();
    }
  },
};
