/**
 * Message search  on PostgreSQL, with the write cost of its indexes measured in the same run:
 * - BENCH_SEARCH_MESSAGES messages (default 1,000,000) in one workspace, over conversations of 20 messages, with
 *   texts drawn from a skewed vocabulary (a few words in a third of all messages, most in few), plus a unique
 *   reference in every tenth message, and 10% as many messages in a second workspace;
 * - the workspace search's first page (50), through the repository's own query, over words of every frequency,
 *   two-word and prefix queries and a query that finds nothing: p95 (goal <= 30 ms), and each query's p95;
 * - search inside one conversation;
 * - inbound ingestion through the webhook job's own write (storeInboundBatch, batches of 100 as the job takes
 *   them) with the search indexes, then without them (dropped), then the time to build them again:
 *   messages/second with them (goal >= 1,000) and the ratio.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf, type Database } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import { conversationMatches, searchTerms, workspaceMatches } from '../../src/server/repositories/message-search';
import { storeInboundBatch, type InboundItem } from '../../src/server/whatsapp/inbound-batch';
import { type Benchmark, percentile, round } from './types';

const MESSAGES = Number(process.env.BENCH_SEARCH_MESSAGES ?? 1_000_000);
const INGEST = Number(process.env.BENCH_SEARCH_INGEST ?? 5000);
const PER_CONVERSATION = 20;
const SAMPLES = Number(process.env.BENCH_SEARCH_SAMPLES ?? 20);

/** Frequent words first: word i is drawn with a probability falling with i (power(random(), 3) skews to 0). */
const vocabulary = [
  'hi', 'the', 'order', 'thanks', 'please', 'when', 'delivery', 'refund', 'is', 'my', 'where', 'you', 'can', 'it', 'size',
  'jacket', 'shoes', 'return', 'payment', 'card', 'invoice', 'address', 'tomorrow', 'today', 'courier', 'tracking', 'number',
  'colour', 'blue', 'black', 'white', 'red', 'green', 'medium', 'large', 'small', 'discount', 'code', 'voucher', 'broken',
  'damaged', 'missing', 'late', 'early', 'store', 'opening', 'hours', 'weekend', 'exchange', 'receipt', 'warranty', 'repair',
  'umbrella', 'scarf', 'gloves', 'boots', 'socks', 'hat', 'belt', 'wallet', 'backpack', 'lamp', 'chair', 'table', 'sofa',
  'cushion', 'blanket', 'kettle', 'toaster', 'blender', 'mixer', 'spoon', 'plate', 'bowl', 'glass', 'mug', 'teapot', 'pan',
  ...Array.from({ length: 400 }, (_, i) => `item${i}x`),
];
const queries = ['refund', 'the', 'jack', 'refund delivery', 'ref4242', 'teapot', 'item399x', 'nothingmatches'];

async function seed(db: Database['db'], workspaceId: string, accountId: string, count: number, label: string) {
  const conversations = Math.max(1, Math.ceil(count / PER_CONVERSATION));
  await db.execute(sql`
    insert into ${t.contacts} (workspace_id, phone_number, name, created_at)
    select ${workspaceId}, '+1313' || lpad(g::text, 7, '0'), ${label} || ' ' || g, now() - make_interval(secs => g)
    from generate_series(1, ${conversations}) g`);
  await db.execute(sql`
    insert into ${t.conversations} (workspace_id, contact_id, whatsapp_account_id, last_message_at, last_activity_at, created_at)
    select ${workspaceId}, id, ${accountId}, created_at, created_at, created_at from ${t.contacts} where workspace_id = ${workspaceId}`);
  const vocab = `{${vocabulary.join(',')}}`;
  await db.execute(sql`
    with cv as (select id, row_number() over (order by id) - 1 as n from ${t.conversations} where workspace_id = ${workspaceId})
    insert into ${t.messages} (workspace_id, conversation_id, type, text, creator, status, created_at)
    select ${workspaceId}, cv.id, 'text',
           (select string_agg((${vocab}::text[])[1 + floor(power(random(), 3) * ${vocabulary.length})::int], ' ')
              from generate_series(1, 3 + (g % 9)) w where w > 0 * g)
             || case when g % 10 = 0 then ' ref' || g else '' end,
           case when g % 2 = 0 then 'user' else 'agent' end, 'received',
           now() - make_interval(secs => ${count} - g)
    from generate_series(1, ${count}) g join cv on cv.n = g % ${conversations}`);
}

async function timeSamples(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 2; i++) await fn(i);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn(i);
    out.push(performance.now() - start);
  }
  return out;
}

/** INGEST inbound messages through the webhook job's write, 100 per transaction; answers messages/second. */
async function ingest(database: Database, workspaceId: string, account: typeof t.whatsappAccounts.$inferSelect, tag: string) {
  const batches = Math.ceil(INGEST / 100);
  const start = performance.now();
  for (let b = 0; b < batches; b++) {
    const now = Date.now();
    const items: InboundItem[] = Array.from({ length: 100 }, (_, i) => {
      const n = b * 100 + i;
      return {
        account,
        wamid: `wamid.${tag}.${n}`,
        // Half write on an existing conversation, half are new customers, as in a busy inbox.
        customer: {
          phoneNumber: n % 2 ? `+1313${String(1 + (n % 1000)).padStart(7, '0')}` : `+1414${tag.length}${String(n).padStart(7, '0')}`,
          userId: null,
          parentUserId: null,
          username: null,
          name: `Customer ${n}`,
        },
        content: { type: 'text', text: `${vocabulary[n % 30]} ${vocabulary[(n * 7) % 80]} message ${n} about my ${vocabulary[(n * 13) % vocabulary.length]}`, mediaUrl: null, header: null, action: null, footer: null },
        at: new Date(now + i),
        sentAt: new Date(now),
      };
    });
    await database.transaction((tx) => storeInboundBatch(tx, workspaceId, items));
  }
  return INGEST / ((performance.now() - start) / 1000);
}

export const benchmark: Benchmark = {
  name: 'message-search',
  needsDatabase: true,
  async run(ctx) {
    const database = await openDatabase({ url: ctx.databaseUrl! });
    await database.migrate();
    const db = database.db;
    try {
      const [ws] = await db.insert(t.workspaces).values({ name: 'Search Bench' }).returning();
      const [other] = await db.insert(t.workspaces).values({ name: 'Other Workspace' }).returning();
      const [member] = await db.insert(t.members).values({ uid: `bench-${randomUUID()}`, currentWorkspaceId: ws.id }).returning();
      const account = (w: string, n: string) => ({
        workspaceId: w, phoneNumber: `+1650555${n}`, wabaAccountId: `waba-${n}`, appId: 'bench', phoneNumberId: `pn-${n}`,
        tokenCiphertext: 'unused', tokenLast4: '0000', memberId: member.id,
      });
      const [acc] = await db.insert(t.whatsappAccounts).values(account(ws.id, '0101')).returning();
      const [acc2] = await db.insert(t.whatsappAccounts).values(account(other.id, '0202')).returning();

      ctx.log(`seeding ${MESSAGES} messages (+${Math.round(MESSAGES / 10)} in a second workspace)`);
      const seedStart = performance.now();
      await seed(db, ws.id, acc.id, MESSAGES, 'Customer');
      await seed(db, other.id, acc2.id, Math.round(MESSAGES / 10), 'Other');
      await db.execute(sql`vacuum analyze`);
      ctx.log(`seeded in ${round((performance.now() - seedStart) / 1000)} s`);

      const perQuery: Record<string, number> = {};
      const all: number[] = [];
      const found: Record<string, number> = {};
      for (const q of queries) {
        const terms = searchTerms(q);
        const s = await timeSamples(SAMPLES, () => workspaceMatches(db, ws.id, terms, { limit: 50 }));
        perQuery[q] = round(percentile(s, 95), 1);
        all.push(...s);
        found[q] = (await workspaceMatches(db, ws.id, terms, { limit: 50 })).items.length;
      }
      const [{ matches: refundMatches }] = rowsOf<{ matches: number }>(
        await db.execute(sql`select count(*)::int as matches from ${t.messages} where workspace_id = ${ws.id}
          and search_vector @@ to_tsquery('simple', 'refund:*')`),
      );
      const searchP95 = percentile(all, 95);
      ctx.log(`workspace search p95 ${round(searchP95)} ms; per query ${JSON.stringify(perQuery)}`);

      const [{ id: convId }] = rowsOf<{ id: string }>(await db.execute(sql`select conversation_id as id from ${t.messages} where workspace_id = ${ws.id} limit 1`));
      const convSamples = await timeSamples(SAMPLES * 2, (i) => conversationMatches(db, ws.id, convId, searchTerms(queries[i % 4])));
      const convP95 = percentile(convSamples, 95);

      // Write cost: the same ingestion with the two search indexes, without them, and their build time.
      ctx.log(`ingesting ${INGEST} inbound messages with the search indexes`);
      const withIdx = await ingest(database, ws.id, acc, 'with');
      await db.execute(sql`drop index messages_text_search_idx`);
      await db.execute(sql`drop index messages_workspace_created_idx`);
      ctx.log(`ingesting ${INGEST} inbound messages without them`);
      const withoutIdx = await ingest(database, ws.id, acc, 'without');
      const buildStart = performance.now();
      await db.execute(sql`create index messages_text_search_idx on messages using gin (search_vector)`);
      await db.execute(sql`create index messages_workspace_created_idx on messages (workspace_id, created_at, id)`);
      const buildS = (performance.now() - buildStart) / 1000;
      ctx.log(`ingestion ${Math.round(withIdx)} msg/s with the indexes, ${Math.round(withoutIdx)} without; rebuilt in ${round(buildS)} s`);

      return {
        metrics: {
          workspaceSearchP95: { value: round(searchP95, 1), unit: 'ms', goal: 30, description: `first page (50) of a workspace message search, ${MESSAGES} messages; queries ${queries.join(' | ')}` },
          ...Object.fromEntries(
            queries.map((q) => [`searchP95_${q.replace(/\W+/g, '_')}`, { value: perQuery[q], unit: 'ms' as const, description: `"${q}": p95, ${found[q]} hits on the first page` }]),
          ),
          conversationSearchP95: { value: round(convP95, 1), unit: 'ms', goal: 50, description: `all matches inside one conversation of ${PER_CONVERSATION} messages` },
          ingestWithIndexesMsgPerSecond: { value: Math.round(withIdx), unit: 'msg/s', description: `${INGEST} inbound messages through storeInboundBatch (100 per transaction) with the search indexes` },
          ingestWithoutIndexesMsgPerSecond: { value: Math.round(withoutIdx), unit: 'msg/s', description: 'the same without the two search indexes (dropped), same run' },
          ingestShortOfGoal: { value: round(Math.max(0, 1000 - withIdx)), unit: 'msg/s', goal: 0, description: 'how far ingestion with the indexes is below 1,000 msg/s (0 = met)' },
          ingestCostOfIndexes: { value: round(withoutIdx / withIdx, 2), unit: 'x', description: 'ingestion rate without the indexes / with them' },
          indexBuildSeconds: { value: round(buildS, 1), unit: 's', description: `building both indexes over ${Math.round(MESSAGES * 1.1)} messages` },
        },
        notes: [
          `"refund" (a frequent word, as a prefix) matches ${refundMatches} of ${MESSAGES} messages of the workspace.`,
          `Load average at the end: ${os.loadavg().map((l) => round(l)).join(', ')} on ${os.cpus().length} CPUs (shared machine).`,
        ],
      };
    } finally {
      await database.close();
    }
  },
};
