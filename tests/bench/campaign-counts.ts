/**
 * A campaign's progress read at 1,000,000 recipients, on PostgreSQL: the full count it used to be (every
 * recipient and log line of the campaign, `recountOf`), measured in the same run as the physical reference,
 * against the read a progress event makes now (fold the campaign's deltas, then sum its few campaign_counts
 * rows). Also what the counting triggers add to a batch's writes (200 recipients moved and 200 log lines, the
 * runner's batch) against the same writes with the triggers disabled. The counts are checked equal to the full
 * count before the write part. Size: BENCH_COUNTS_RECIPIENTS (1,000,000).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { type Database, openDatabase, rowsOf } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import { countsOf, foldCounts } from '../../src/server/repositories/campaign-results';
import { recountOf } from '../support/campaign-recount';
import { type Benchmark, percentile, round } from './types';

const N = Number(process.env.BENCH_COUNTS_RECIPIENTS ?? 1_000_000);

async function timed(times: number, f: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    await f();
    out.push(performance.now() - t0);
  }
  return out;
}

/** A workspace with one campaign of N recipients: 40% done (sent, delivered or read), 10% failed, 50% pending. */
async function bigCampaign(database: Database, log: (m: string) => void) {
  const db = database.db;
  const [ws] = await db.insert(t.workspaces).values({ name: 'Bench Counts' }).returning();
  const [c] = await db.insert(t.campaigns).values({ workspaceId: ws.id, name: 'Big', type: 'oneTime', status: 'inProgress', rfInstance: {}, memberId: randomUUID() }).returning();
  const [run] = await db.insert(t.campaignRuns).values({ workspaceId: ws.id, campaignId: c.id, snapshotDone: true, recipientCount: N }).returning();
  let t0 = performance.now();
  await db.execute(sql`
    insert into contacts (workspace_id, phone_number, name)
    select ${ws.id}, '+1415' || lpad(g::text, 7, '0'), 'Bench ' || g from generate_series(1, ${N}) g`);
  log(`${N} contacts in ${Math.round(performance.now() - t0)} ms`);
  t0 = performance.now();
  await db.execute(sql`
    insert into campaign_recipients (workspace_id, run_id, contact_id, campaign_id, step_id, status)
    select ${ws.id}, ${run.id}, id, ${c.id}, 's1',
           case when n % 10 < 4 then 'done' when n % 10 = 4 then 'failed' else 'pending' end
      from (select id, row_number() over (order by id) as n from contacts where workspace_id = ${ws.id}) x`);
  const recipientsMs = performance.now() - t0;
  log(`${N} recipients in ${Math.round(recipientsMs)} ms (one statement, its trigger included)`);
  t0 = performance.now();
  await db.execute(sql`
    insert into campaign_logs (workspace_id, campaign_id, run_id, recipient_id, contact_id, step_id, phone_number, template_name,
                               message_status, delivery_state, wa_message_id)
    select r.workspace_id, r.campaign_id, r.run_id, r.id, r.contact_id, 's1', '+1', 'bench_sale',
           case when r.status = 'failed' then 'failed' else 'success' end,
           case when r.status = 'failed' then 'failed' else (array['sent', 'delivered', 'read'])[1 + (hashtext(r.id::text) & 3) % 3] end,
           'wamid.' || r.id
      from campaign_recipients r where r.campaign_id = ${c.id} and r.status in ('done', 'failed')`);
  log(`log lines in ${Math.round(performance.now() - t0)} ms`);
  await db.execute(sql`vacuum analyze campaign_recipients`);
  await db.execute(sql`vacuum analyze campaign_logs`);
  await db.execute(sql`vacuum analyze campaign_counts`);
  return { workspaceId: ws.id, campaignId: c.id, runId: run.id, recipientsMs };
}

/** One runner batch's writes: 200 pending recipients done, their 200 log lines; answers its duration in ms. */
async function batchWrite(database: Database, ids: string[]): Promise<number> {
  const list = sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `);
  const t0 = performance.now();
  await database.transaction(async (tx) => {
    await tx.execute(sql`update campaign_recipients set status = 'done', updated_at = now() where id in (${list})`);
    await tx.execute(sql`
      insert into campaign_logs (workspace_id, campaign_id, run_id, recipient_id, contact_id, step_id, phone_number, template_name, message_status, delivery_state)
      select workspace_id, campaign_id, run_id, id, contact_id, 's1', '+1', 'bench_sale', 'success', 'sent'
        from campaign_recipients where id in (${list})`);
  });
  return performance.now() - t0;
}

export const benchmark: Benchmark = {
  name: 'campaign-counts',
  needsDatabase: true,
  async run({ databaseUrl, log }) {
    const database = await openDatabase({ url: databaseUrl!, poolSize: 4 });
    await database.migrate();
    try {
      const big = await bigCampaign(database, log);
      const { workspaceId, campaignId } = big;
      const db = database.db;

      // Before: the full count, warmed once (its pages in the cache), then measured.
      await recountOf(db, workspaceId, [campaignId]);
      const before = await timed(5, () => recountOf(db, workspaceId, [campaignId]));
      // After: what a progress event reads (fold then sum), in its transaction.
      const progressRead = () => database.transaction(async (tx) => {
        await foldCounts(tx, { workspaceId, campaignIds: [campaignId] });
        return countsOf(tx, workspaceId, [campaignId]);
      });
      await progressRead();
      const after = await timed(50, progressRead);
      const kept = (await countsOf(db, workspaceId, [campaignId])).get(campaignId);
      const truth = (await recountOf(db, workspaceId, [campaignId])).get(campaignId);
      if (JSON.stringify(kept) !== JSON.stringify(truth)) throw new Error(`kept counts ${JSON.stringify(kept)} differ from the count ${JSON.stringify(truth)}`);
      log(`counts exact: ${JSON.stringify(kept)}`);

      // The triggers' cost on a batch's writes: alternate batches with and without them (same table sizes).
      const pending = rowsOf<{ id: string }>(await db.execute(sql`select id from campaign_recipients where campaign_id = ${campaignId} and status = 'pending' limit 8000`)).map((r) => r.id);
      const withTriggers: number[] = [];
      const without: number[] = [];
      for (let i = 0; i < 40; i++) {
        const ids = pending.slice(i * 200, i * 200 + 200);
        const off = i % 2 === 1;
        if (off) await db.execute(sql`alter table campaign_recipients disable trigger user; alter table campaign_logs disable trigger user`);
        (off ? without : withTriggers).push(await batchWrite(database, ids));
        if (off) await db.execute(sql`alter table campaign_recipients enable trigger user; alter table campaign_logs enable trigger user`);
      }
      const med = (xs: number[]) => round(percentile(xs, 50), 2);
      const load = (await import('node:os')).loadavg()[0];
      return {
        metrics: {
          progressReadBeforeMs: { value: med(before), unit: 'ms', description: `one progress read as a full count of ${N} recipients and their log lines (median of 5, warm)` },
          progressReadAfterMs: { value: med(after), unit: 'ms', goal: 5, description: 'one progress read now: fold the campaign\'s deltas and sum its rows (median of 50)' },
          progressReadAfterP95Ms: { value: round(percentile(after, 95), 2), unit: 'ms', description: 'the same, p95' },
          readCostRatio: { value: round(percentile(after, 50) / percentile(before, 50), 5), unit: 'x', goal: 0.01, description: 'after / before (median)' },
          batchWriteWithTriggersMs: { value: med(withTriggers), unit: 'ms', description: 'a batch: 200 recipients moved and 200 log lines, with the counting triggers (median of 20)' },
          batchWriteWithoutTriggersMs: { value: med(without), unit: 'ms', description: 'the same batch with the triggers disabled (median of 20)' },
          recipientsInsertMs: { value: Math.round(big.recipientsMs), unit: 'ms', description: `${N} recipients in one statement, its trigger included` },
        },
        notes: [
          `Load average at the end: ${round(load, 2)}.`,
          'Before = recountOf (the query countsOf ran before the counts were kept); after = foldCounts + countsOf in one transaction, as a progress event does.',
        ],
      };
    } finally {
      await database.close();
    }
  },
};
