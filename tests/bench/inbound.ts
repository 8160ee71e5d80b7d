/**
 * Inbound WhatsApp traffic on PostgreSQL, through the real server (HTTP on 127.0.0.1, signed webhooks, the
 * durable webhook job, the event log):
 * - a burst: BENCH_INBOUND signed webhooks (one message each, some customers writing twice, 5% of deliveries
 *   sent again as Meta does on a retry) posted concurrently until every message is stored with its
 *   `message.created` event: messages/second end to end, p50/p99 time to answer a webhook, duplicates;
 * - the raw floor in the same run: the same count of single-row INSERT transactions into a bare table over a
 *   pool as large as the server's;
 * - a lone message: the time from posting its webhook to its event arriving on an open event stream;
 * - live chat with 100,000 conversations: the first page of each tab and a conversation search.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../../src/server/app';
import type { IdentityProvider } from '../../src/server/identity/identity-provider';
import { loadConfig } from '../../src/server/config';
import { type Executor, openDatabase, rowsOf } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import { listConversations, type Tab } from '../../src/server/repositories/conversations';
import { backendCpu } from './lib-cpu';
import { appSecret, delivery, phoneNumberId, pool, post, transportFloor } from './lib-inbound';
import { countStatements } from './lib-statements';
import { type Benchmark, percentile, round } from './types';

const MESSAGES = Number(process.env.BENCH_INBOUND ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_INBOUND_CONCURRENCY ?? 32);
const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 100_000);
const LONE_SAMPLES = 20;
const benchToken = 'bench-token';

/** Identity for a bench without the Auth emulator: one fixed token, one member. */
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An open event stream (SSE) of the workspace: resolves waiters when an event carrying `text` arrives. */
function openStream(port: number, workspaceId: string) {
  const waiters = new Map<string, (at: number) => void>();
  let buffer = '';
  let req: http.ClientRequest;
  const ready = new Promise<void>((resolve, reject) => {
    req = http.get(
      { host: '127.0.0.1', port, path: `/workspace/${workspaceId}/events`, headers: { authorization: `Bearer ${benchToken}` } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`event stream answered ${res.statusCode}`));
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const at = performance.now();
          if (buffer === '') resolve();
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2) || ' ';
            for (const [text, done] of waiters) {
              if (frame.includes('event: message.created') && frame.includes(text)) {
                waiters.delete(text);
                done(at);
              }
            }
          }
        });
      },
    );
    req.on('error', reject);
  });
  return {
    ready,
    waitFor: (text: string) => new Promise<number>((resolve) => waiters.set(text, resolve)),
    close: () => req.destroy(),
  };
}

async function samples(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 3; i++) await fn(i);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn(i);
    out.push(performance.now() - start);
  }
  return out;
}

/** The raw floor: the same count of single-row INSERT transactions, as many connections as the server's pool. */
async function rawFloor(url: string, workspaceId: string): Promise<{ floorMs: number; floorNodeS: number; floorDbS: number }> {
  const floorPool = new pg.Pool({ connectionString: url, max: 10 });
  await floorPool.query('create table bench_raw (id uuid primary key, workspace_id uuid not null, wamid text not null, body text not null)');
  const floorDbCpu = backendCpu(url);
  await floorDbCpu.start();
  const floorNodeBefore = process.cpuUsage();
  const floorStart = performance.now();
  await pool(MESSAGES, CONCURRENCY, (i) =>
    floorPool.query('insert into bench_raw values ($1, $2, $3, $4)', [randomUUID(), workspaceId, `wamid.raw${i}`, `burst message ${i}`]),
  );
  const floorMs = performance.now() - floorStart;
  const floorNode = process.cpuUsage(floorNodeBefore);
  const floorNodeS = (floorNode.user + floorNode.system) / 1e6;
  const floorDbS = await floorDbCpu.stop();
  await floorPool.query('drop table bench_raw');
  await floorPool.end();
  return { floorMs, floorNodeS, floorDbS };
}

/** A lone message: posted while nothing else happens, timed to its event on an open stream. */
async function loneMessages(agent: http.Agent, port: number, workspaceId: string): Promise<number[]> {
  const stream = openStream(port, workspaceId);
  await stream.ready;
  const lone: number[] = [];
  for (let i = 0; i < LONE_SAMPLES + 2; i++) {
    await sleep(150);
    const text = `lone message ${i} ${randomUUID()}`;
    const arrived = stream.waitFor(text);
    const start = performance.now();
    await post(agent, port, JSON.stringify(delivery('14155559999', 'Lone Customer', `wamid.lone${i}`, text)));
    const at = await Promise.race([arrived, sleep(10_000).then(() => Number.NaN)]);
    if (i >= 2) lone.push(at - start); // the first two warm the stream's path up
  }
  stream.close();
  return lone;
}

/** Live chat's CONVERSATIONS conversations, set-based: a tenth assigned to the member, a tenth to another, a fifth closed. */
async function seedConversations(db: Executor, workspaceId: string, memberId: string): Promise<void> {
  const [other] = await db.insert(t.members).values({ uid: `bench-other-${randomUUID()}` }).returning();
  await db.execute(sql`
    insert into ${t.contacts} (workspace_id, phone_number, name, created_at)
    select ${workspaceId}, '+1212' || lpad(g::text, 7, '0'), (array['Maria','Mark','Ada','Alan','Grace','Linus','Sofia','Omar'])[1 + g % 8]
           || ' ' || (array['Silva','Smith','Rossi','Kim','Okafor','Novak','Tanaka','Haddad'])[1 + (g / 8) % 8] || ' ' || g,
           now() - make_interval(secs => g)
    from generate_series(1, ${CONVERSATIONS}) g`);
  await db.execute(sql`
    insert into ${t.conversations} (workspace_id, contact_id, whatsapp_account_id, is_active, assignee_member_id, last_message_at, last_activity_at, created_at)
    select ${workspaceId}, c.id, (select id from ${t.whatsappAccounts} where workspace_id = ${workspaceId}),
           (n % 5) <> 0,
           case when n % 10 = 1 then ${memberId}::uuid when n % 10 = 2 then ${other.id}::uuid end,
           c.created_at, c.created_at, c.created_at
    from (select id, created_at, row_number() over (order by created_at) as n from ${t.contacts}
          where workspace_id = ${workspaceId} and phone_number like '+1212%') c`);
  await db.execute(sql`
    insert into ${t.messages} (workspace_id, conversation_id, type, text, creator, status, created_at)
    select workspace_id, id, 'text', 'hello', 'user', 'received', last_activity_at from ${t.conversations}
    where workspace_id = ${workspaceId}`);
}

export const benchmark: Benchmark = {
  name: 'inbound',
  needsDatabase: true,
  async run(ctx) {
    const url = ctx.databaseUrl!;
    const database = await openDatabase({ url });
    const statements = countStatements(database);
    await database.migrate();
    const db = database.db;
    const [ws] = await db.insert(t.workspaces).values({ name: 'Bench Workspace' }).returning();
    const uid = `bench-${randomUUID()}`;
    const [member] = await db.insert(t.members).values({ uid, currentWorkspaceId: ws.id }).returning();
    await db.insert(t.workspaceMembers).values({ workspaceId: ws.id, memberId: member.id, role: 'admin' });
    await db.insert(t.whatsappAccounts).values({
      workspaceId: ws.id,
      phoneNumber: '+16505550100',
      wabaAccountId: '102290129340398',
      appId: 'bench-app',
      phoneNumberId,
      tokenCiphertext: 'unused: text messages need no Graph call',
      tokenLast4: '0000',
      memberId: member.id,
    });

    const config = loadConfig({ LOG_LEVEL: 'warn', WHATSAPP_APP_SECRET: appSecret, PARLEY_DATA_DIR: os.tmpdir() } as NodeJS.ProcessEnv);
    const app = await buildApp({ config, database, identity: benchIdentity(uid), logger: { level: 'warn' } });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as AddressInfo).port;
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    try {
      // Warm-up: connections, prepared paths, the job queue's first fetch.
      for (let i = 0; i < 20; i++) await post(agent, port, JSON.stringify(delivery(`1999555${String(i).padStart(4, '0')}`, 'Warm Up', `wamid.warm${i}`, 'warm-up')));
      await app.parley.jobs.drain({ timeoutMs: 60_000 });

      // The burst: 80% distinct customers (some write twice), then 5% of the deliveries again.
      const customers = Math.max(1, Math.floor(MESSAGES * 0.8));
      const bodies = Array.from({ length: MESSAGES }, (_, i) => {
        const c = i % customers;
        return JSON.stringify(delivery(`1415${String(5_000_000 + c)}`, `Customer ${c} Archer`, `wamid.bench${i}`, `burst message ${i}`));
      });
      const repeats = Array.from({ length: Math.floor(MESSAGES * 0.05) }, (_, k) => bodies[(k * 19) % MESSAGES]);
      const all = [...bodies, ...repeats];
      // Counted over a plain connection (cheap queries, so watching the burst costs it little).
      const watcher = new pg.Client({ connectionString: url });
      await watcher.connect();
      const [{ seq: seqBefore }] = (
        await watcher.query('select coalesce(max(seq), 0)::int as seq from workspace_events where workspace_id = $1', [ws.id])
      ).rows as { seq: number }[];
      const countStored = async () =>
        (
          await watcher.query(
            `select (select count(*)::int from messages where workspace_id = $1 and wa_message_id like 'wamid.bench%') as messages,
                    (select count(*)::int from workspace_events where workspace_id = $1 and seq > $2 and type = 'message.created') as events`,
            [ws.id, seqBefore],
          )
        ).rows[0] as { messages: number; events: number };
      ctx.log(`posting ${all.length} webhooks (${MESSAGES} messages, ${repeats.length} repeated), ${CONCURRENCY} at a time`);
      const burstDbCpu = backendCpu(url);
      await burstDbCpu.start();
      const burstNodeBefore = process.cpuUsage();
      const burstStatementsBefore = { ...statements };
      const started = performance.now();
      const answers = await pool(all.length, CONCURRENCY, (i) => post(agent, port, all[i]));
      const answeredMs = performance.now() - started;
      let stored = await countStored();
      while (stored.messages < MESSAGES || stored.events < MESSAGES) {
        if (performance.now() - started > 600_000) throw new Error(`only ${stored.messages} of ${MESSAGES} stored after 10 minutes`);
        await sleep(25);
        stored = await countStored();
      }
      const burstMs = performance.now() - started;
      const burstNode = process.cpuUsage(burstNodeBefore);
      const burstNodeS = (burstNode.user + burstNode.system) / 1e6;
      const burstDbS = await burstDbCpu.stop();
      const burstStatements = (statements.statements - burstStatementsBefore.statements) / MESSAGES;
      const burstTransactions = (statements.transactions - burstStatementsBefore.transactions) / MESSAGES;
      await app.parley.jobs.drain({ timeoutMs: 60_000 });
      const final = await countStored();
      await watcher.end();
      const failedAnswers = answers.filter((a) => a.status !== 200).length;
      const [dups] = rowsOf<{ n: number }>(
        await db.execute(sql`
          select (select count(*) from ${t.messages} where workspace_id = ${ws.id} and text like 'burst message %')
               - (select count(distinct wa_message_id) from ${t.messages} where workspace_id = ${ws.id} and text like 'burst message %')
               + (${final.events}::int - ${MESSAGES}::int) + (${final.messages}::int - ${MESSAGES}::int) as n`),
      );
      const endToEnd = MESSAGES / (burstMs / 1000);
      const answerTimes = answers.map((a) => a.ms);
      ctx.log(`stored ${final.messages} in ${round(burstMs)} ms (${Math.round(endToEnd)} msg/s); answers p50 ${round(percentile(answerTimes, 50))} ms p99 ${round(percentile(answerTimes, 99))} ms`);

      const { floorMs, floorNodeS, floorDbS } = await rawFloor(url, ws.id);
      const floor = MESSAGES / (floorMs / 1000);
      ctx.log(`raw floor: ${MESSAGES} single-row INSERT transactions in ${round(floorMs)} ms (${Math.round(floor)}/s)`);
      const transport = await transportFloor(all, CONCURRENCY);
      // On the end-to-end basis: MESSAGES messages, carried by all.length posts (the retries included).
      const transportRate = MESSAGES / (transport.ms / 1000);
      ctx.log(`HTTP transport alone: ${all.length} posts verified and parsed in ${round(transport.ms)} ms (${Math.round(transportRate)} msg/s), CPU ${round(transport.nodeS, 2)} s, p99 ${round(percentile(transport.answerTimes, 99))} ms`);
      ctx.log(`burst: ${round(burstStatements, 2)} statements and ${round(burstTransactions, 2)} transactions per message (the app's pool; the job queue's own pool not counted)`);
      ctx.log(`CPU: burst node ${round(burstNodeS, 2)} s + database ${round(burstDbS, 2)} s; floor node ${round(floorNodeS, 2)} s + database ${round(floorDbS, 2)} s`);

      const lone = await loneMessages(agent, port, ws.id);
      const loneP50 = percentile(lone, 50);
      const loneMax = Math.max(...lone);
      ctx.log(`lone message to the event stream: p50 ${round(loneP50)} ms, max ${round(loneMax)} ms`);

      // Live chat over CONVERSATIONS conversations (set-based seed): tabs and a search, through the list's own query.
      ctx.log(`seeding ${CONVERSATIONS} conversations`);
      await seedConversations(db, ws.id, member.id);
      // The steady state autovacuum reaches after a bulk insert: statistics, visibility map, GIN pending list merged.
      await db.execute(sql`vacuum analyze`);
      const tabs: Tab[] = ['me', 'assigned', 'open', 'closed'];
      const tabP95: Record<string, number> = {};
      for (const tab of tabs) {
        const s = await samples(40, () => listConversations(db, ws.id, { tab, memberId: member.id, limit: 50 }));
        tabP95[tab] = percentile(s, 95);
      }
      const searches = ['silva', 'maria sm', '+1212000', 'nobody-here'];
      const searchSamples = await samples(60, (i) =>
        listConversations(db, ws.id, { tab: 'open', search: searches[i % searches.length], memberId: member.id, limit: 50 }),
      );
      const searchP95 = percentile(searchSamples, 95);
      const worstTab = Math.max(...Object.values(tabP95));
      ctx.log(`tabs p95 ${tabs.map((x) => `${x} ${round(tabP95[x])} ms`).join(', ')}; search p95 ${round(searchP95)} ms`);

      return {
        metrics: {
          inboundEndToEndMsgPerSecond: { value: Math.round(endToEnd), unit: 'rows/s', description: `${MESSAGES} messages from signed webhooks (${CONCURRENCY} concurrent posts) to stored rows with their events (goal >= 1,500 msg/s)` },
          inboundShortOfGoal: { value: round(Math.max(0, 1500 - endToEnd)), unit: 'rows/s', goal: 0, description: 'how far the end-to-end rate is below 1,500 msg/s (0 = met)' },
          rawFloorInsertsPerSecond: { value: Math.round(floor), unit: 'rows/s', description: `${MESSAGES} single-row INSERT transactions, 10 connections, ${CONCURRENCY} at a time` },
          floorOverEndToEnd: { value: round(floor / endToEnd, 2), unit: 'x', goal: 2.86, description: 'raw floor rate / end-to-end rate (goal <= 2.86, i.e. end to end at least 35% of the floor)' },
          transportFloorMsgPerSecond: { value: Math.round(transportRate), unit: 'rows/s', description: `the HTTP transport alone: the same ${all.length} signed posts, ${CONCURRENCY} at a time, to a bare node:http server in this process that verifies the HMAC and parses the JSON (no framework, no database), as messages/s on the end-to-end basis` },
          transportFloorOverEndToEnd: { value: round(transportRate / endToEnd, 2), unit: 'x', description: 'HTTP transport floor rate / end-to-end rate (end to end as a share of it: the inverse)' },
          transportFloorOverInsertFloor: { value: round(transportRate / floor, 2), unit: 'x', description: 'HTTP transport floor rate / raw INSERT floor rate (below 0.35, 35% of the INSERT floor is out of reach with this transport)' },
          transportFloorCpuNodeSeconds: { value: round(transport.nodeS, 2), unit: 's', description: 'CPU of this process (HTTP client and server, both HMACs, the parse) during the transport floor' },
          transportFloorAnswerP99: { value: round(percentile(transport.answerTimes, 99), 2), unit: 'ms', description: 'time to answer a post in the transport floor, p99' },
          transportFloorFailedAnswers: { value: transport.failed, unit: 'rows', goal: 0, description: 'transport floor posts not answered 200' },
          burstCpuNodeSeconds: { value: round(burstNodeS, 2), unit: 's', description: 'CPU of this process during the burst (HTTP server and client, signatures, ingestion)' },
          burstCpuDatabaseSeconds: { value: round(burstDbS, 2), unit: 's', description: 'CPU of the database backends during the burst' },
          burstStatementsPerMessage: { value: round(burstStatements, 2), unit: 'count', description: "statements per message during the burst on the app's pool (the job queue's own pool not counted)" },
          burstTransactionsPerMessage: { value: round(burstTransactions, 2), unit: 'count', description: "transactions per message during the burst on the app's pool" },
          floorCpuNodeSeconds: { value: round(floorNodeS, 2), unit: 's', description: 'CPU of this process during the raw floor' },
          floorCpuDatabaseSeconds: { value: round(floorDbS, 2), unit: 's', description: 'CPU of the database backends during the raw floor' },
          answerP50: { value: round(percentile(answerTimes, 50), 2), unit: 'ms', description: 'time to answer a webhook, median' },
          answerP99: { value: round(percentile(answerTimes, 99), 2), unit: 'ms', goal: 50, description: 'time to answer a webhook, p99' },
          answeredSeconds: { value: round(answeredMs / 1000, 2), unit: 's', description: 'until every webhook was answered' },
          duplicates: { value: Number(dups.n), unit: 'rows', goal: 0, description: `messages or message.created events beyond one per wamid (${repeats.length} deliveries were sent twice)` },
          failedAnswers: { value: failedAnswers, unit: 'rows', goal: 0, description: 'webhooks not answered 200' },
          loneMessageP50: { value: round(loneP50, 1), unit: 'ms', description: `a lone message, webhook posted to its event on an open stream, median of ${LONE_SAMPLES}` },
          loneMessageMax: { value: round(loneMax, 1), unit: 'ms', goal: 100, description: `the same, slowest of ${LONE_SAMPLES}` },
          conversationTabWorstP95: { value: round(worstTab, 1), unit: 'ms', goal: 20, description: `first page (50) of the slowest tab, ${CONVERSATIONS} conversations` },
          conversationTabMeP95: { value: round(tabP95.me, 1), unit: 'ms', goal: 20, description: 'first page of "me"' },
          conversationTabAssignedP95: { value: round(tabP95.assigned, 1), unit: 'ms', goal: 20, description: 'first page of "assigned"' },
          conversationTabOpenP95: { value: round(tabP95.open, 1), unit: 'ms', goal: 20, description: 'first page of "open"' },
          conversationTabClosedP95: { value: round(tabP95.closed, 1), unit: 'ms', goal: 20, description: 'first page of "closed"' },
          conversationSearchP95: { value: round(searchP95, 1), unit: 'ms', goal: 20, description: `first page of a search in "open"; queries ${searches.join(' | ')}` },
        },
        notes: [
          `Server in this process on 127.0.0.1 (Fastify, pg pool 10, pg-boss pool 4), posts over keep-alive HTTP from the same process.`,
          `Load average at the end: ${os.loadavg().map((l) => round(l)).join(', ')} on ${os.cpus().length} CPUs (shared machine).`,
        ],
      };
    } finally {
      agent.destroy();
      await app.close();
      await database.close();
    }
  },
};
