/**
 * SQL of the campaign runner's runs and recipients (src/server/campaigns): runs, the recipients' due work in
 * campaign_recipients (claimed in batches with FOR UPDATE SKIP LOCKED, so any number of processes share a
 * campaign), and a run's completion.
 */
import { type SQL, and, eq, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../db/client';
import * as t from '../db/schema';

export type RunRow = typeof t.campaignRuns.$inferSelect;

export async function insertRun(ex: Executor, v: { workspaceId: string; campaignId: string; snapshotDone: boolean; recipientCount?: number }): Promise<RunRow> {
  const [row] = await ex.insert(t.campaignRuns).values(v).returning();
  return row;
}

/** Where a snapshot stopped: the last audience contact it walked past, in (created_at, id) order. */
export interface SnapshotCursor {
  createdAt: Date;
  id: string;
}

/**
 * Writes the audience's next `limit` contacts after `after` as recipients at the first step, due now, and moves
 * the run's cursor to the last of them and its count by those written: one statement. Answers how many audience
 * contacts it walked past (written now or already recipients): fewer than `limit` means the audience is written.
 *
 * The walk reads the workspace's contacts in (created_at, id) order from the cursor (index
 * `contacts_workspace_created_idx`) and stops at the `limit`th match, so a chunk reads only its own contacts. The
 * subquery is fenced (`offset 0`): neither the audience's condition nor the planner's estimate of it reaches the
 * walk. Before, the chunk asked for the audience's next contacts by id; right after a bulk insert the statistics
 * said the segment's phone prefix matched about 10 contacts, so each chunk read every match of the phone index
 * and sorted them. Idempotent (a contact is a recipient of a run once, and the cursor moves in the chunk's
 * transaction), so a snapshot interrupted by a crash is continued by whoever holds the run's lock.
 */
export async function snapshotChunk(
  ex: Executor,
  v: { workspaceId: string; runId: string; campaignId: string; firstStepId: string; audience: SQL; limit: number; after: SnapshotCursor | null },
): Promise<number> {
  const after = v.after ? sql`and (created_at, id) > (${v.after.createdAt.toISOString()}::timestamptz, ${v.after.id}::uuid)` : sql``;
  const rows = rowsOf<{ n: number }>(
    await ex.execute(sql`
      with hits as (
        select contacts.id, contacts.created_at
          from (select * from contacts where workspace_id = ${v.workspaceId} ${after} order by created_at, id offset 0) contacts
         where ${v.audience}
         limit ${v.limit}
      ), ins as (
        insert into campaign_recipients (workspace_id, run_id, campaign_id, contact_id, step_id, status, next_at)
        select ${v.workspaceId}, ${v.runId}, ${v.campaignId}, hits.id, ${v.firstStepId}, 'pending', now() from hits
        on conflict do nothing
        returning 1
      ), last as (
        select created_at, id from hits order by created_at desc, id desc limit 1
      ), moved as (
        update campaign_runs run
           set recipient_count = run.recipient_count + (select count(*) from ins),
               snapshot_after_created_at = last.created_at, snapshot_after_id = last.id
          from last
         where run.workspace_id = ${v.workspaceId} and run.id = ${v.runId}
      )
      select (select count(*) from hits)::int as n`),
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * Refreshes the contacts' statistics when they lag behind the table (never analyzed, or more rows changed since
 * than autovacuum's own threshold of 50 + 10%): answers whether it did. The snapshot's walk needs them: with a
 * table never analyzed the planner takes a workspace of a million contacts for about a thousand and reads and
 * sorts all of them for each chunk instead of walking the index. Autovacuum gets there within a minute or so
 * of a bulk import; a deploy right after it would not wait.
 */
export async function analyzeContactsIfStale(ex: Executor): Promise<boolean> {
  const rows = rowsOf<{ stale: boolean }>(
    await ex.execute(sql`
      select c.reltuples < 0 or coalesce(s.n_mod_since_analyze, 0) > 50 + 0.1 * greatest(c.reltuples, 0) as stale
        from pg_class c left join pg_stat_user_tables s on s.relid = c.oid
       where c.oid = 'contacts'::regclass`),
  );
  if (!rows[0]?.stale) return false;
  await ex.execute(sql`analyze contacts`);
  return true;
}

/** First key of the advisory lock that orders writes of a workspace's recipients against its contacts' deletes ("PRCR"). */
const recipientWritesClass = 0x50524352;

/**
 * Before recipients are written for contacts this transaction reads (a snapshot chunk, a trigger call): waits for a
 * contact's delete under way in the workspace, and makes one that starts wait for this transaction's end (a
 * trigger on contacts takes the lock exclusively, migration 0031). Recipients have no foreign key to their contact,
 * so without it a contact deleted after the read would keep a recipient. Run it before the statement that reads
 * the contacts: that statement's snapshot then sees any delete that went first.
 */
export async function lockRecipientWrites(ex: Executor, workspaceId: string): Promise<void> {
  await ex.execute(sql`select pg_advisory_xact_lock_shared(${sql.raw(String(recipientWritesClass))}, hashtext(${workspaceId}))`);
}

/**
 * A run whose snapshot is unfinished, locked for this transaction (null when another process holds it). FOR NO KEY
 * UPDATE: the run's key never changes, and a stronger lock would make every claim loop writing that run's log lines
 * (their foreign key takes FOR KEY SHARE on the run) wait for each chunk's transaction.
 */
export async function lockUnfinishedSnapshot(ex: Executor): Promise<RunRow | null> {
  const r = t.campaignRuns;
  const [row] = await ex.select().from(r).where(and(eq(r.snapshotDone, false), eq(r.status, 'running'))).limit(1).for('no key update', { skipLocked: true });
  return row ?? null;
}

export async function markSnapshotDone(ex: Executor, workspaceId: string, runId: string): Promise<void> {
  await ex.update(t.campaignRuns).set({ snapshotDone: true }).where(and(eq(t.campaignRuns.workspaceId, workspaceId), eq(t.campaignRuns.id, runId)));
}

/**
 * A recurring trigger call's run and its recipients, due now at the first step, in one statement (the contacts
 * are distinct, so the run's count is theirs). Answers the run's id.
 */
export async function insertRunWithRecipients(ex: Executor, v: { workspaceId: string; campaignId: string; stepId: string; contactIds: string[] }): Promise<string> {
  const rows = rowsOf<{ id: string }>(
    await ex.execute(sql`
      with run as (
        insert into campaign_runs (workspace_id, campaign_id, snapshot_done, recipient_count)
        values (${v.workspaceId}, ${v.campaignId}, true, ${v.contactIds.length})
        returning id
      ), ins as (
        insert into campaign_recipients (workspace_id, run_id, campaign_id, contact_id, step_id, status, next_at)
        select ${v.workspaceId}, run.id, ${v.campaignId}, c.id, ${v.stepId}, 'pending', now()
          from run, unnest(${sql.param(v.contactIds)}::uuid[]) as c(id)
      )
      select id from run`),
  );
  return rows[0].id;
}

export interface ClaimedRecipient {
  id: string;
  workspaceId: string;
  runId: string;
  campaignId: string;
  contactId: string;
  stepId: string | null;
  attempts: number;
}

/**
 * Claims up to `limit` due recipients of running runs: marks them `sending` with a lease (next_at = now +
 * lease), so a process that dies mid-batch leaves them to be claimed again once the lease ends; the send's
 * idempotency key makes that second attempt answer the first one's outcome instead of sending twice.
 *
 * Walks the running runs, and in each its due recipients in due order (index `(run_id, next_at)`): a claim
 * that walked every due recipient in due order and dropped those of paused runs read a paused million-recipient
 * campaign's rows on every claim. Runs share a claim round-robin, so one campaign's backlog does not hold back
 * another's first sends.
 */
export async function claimDue(ex: Executor, limit: number, leaseMs: number): Promise<ClaimedRecipient[]> {
  return rowsOf<ClaimedRecipient>(
    await ex.execute(sql`
      with due as (
        select d.id from campaign_runs run
         cross join lateral (
           select r.id, r.next_at from campaign_recipients r
            where r.run_id = run.id and r.status in ('pending', 'waiting', 'sending') and r.next_at <= now()
            order by r.next_at
            limit ${limit}
            for update of r skip locked
         ) d
         where run.status = 'running'
         -- Round-robin across runs: each run's oldest first, then the next of each. A new trigger call's run (or
         -- a small campaign) gets its first sends in the next claim instead of waiting behind another's backlog.
         order by row_number() over (partition by run.id order by d.next_at), d.next_at
         limit ${limit}
      )
      update campaign_recipients r
         set status = 'sending', next_at = now() + make_interval(secs => ${leaseMs / 1000}), updated_at = now()
        from due where r.id = due.id
      returning r.id, r.workspace_id as "workspaceId", r.run_id as "runId", r.campaign_id as "campaignId",
                r.contact_id as "contactId", r.step_id as "stepId", r.attempts`),
  );
}

/** Keeps a batch's claims while it runs: their lease starts again (a live process never loses its claims). */
export async function renewLeases(ex: Executor, ids: string[], leaseMs: number): Promise<void> {
  if (ids.length === 0) return;
  await ex.execute(sql`
    update campaign_recipients set next_at = now() + make_interval(secs => ${leaseMs / 1000})
     where id = any(${sql.param(ids)}::uuid[]) and status = 'sending'`);
}

/**
 * The recipients among `ids` that may still be sent: still claimed (not released by a pause, not deleted) and
 * their run running; one statement for the sends of a batch whose slots came together.
 */
export async function stillClaimedAmong(ex: Executor, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = rowsOf<{ id: string }>(
    await ex.execute(sql`
      select r.id from campaign_recipients r join campaign_runs run on run.id = r.run_id
       where r.id = any(${sql.param(ids)}::uuid[]) and r.status = 'sending' and run.status = 'running'`),
  );
  return new Set(rows.map((r) => r.id));
}

/** A paused campaign's claimed recipients go back to pending (what a batch already sent still records its outcome). */
export async function releaseClaimed(ex: Executor, workspaceId: string, campaignId: string): Promise<void> {
  await ex.execute(sql`
    update campaign_recipients set status = 'pending', next_at = now(), updated_at = now()
     where workspace_id = ${workspaceId} and campaign_id = ${campaignId} and status = 'sending'`);
}

/**
 * The recipients among `ids` that still exist, their campaigns first, each locked FOR KEY SHARE until the caller's
 * transaction ends: a campaign or contact deleted meanwhile takes its recipients with it, and the log lines of
 * those are left out instead of failing the batch's write (campaigns locked before recipients, in the order a
 * campaign's delete takes them, so the two never wait on each other in a cycle).
 */
export async function lockExistingRecipients(ex: Executor, campaignIds: string[], ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  await ex.execute(sql`select id from campaigns where id = any(${sql.param(campaignIds)}::uuid[]) order by id for key share`);
  const rows = rowsOf<{ id: string }>(
    await ex.execute(sql`select id from campaign_recipients where id = any(${sql.param(ids)}::uuid[]) order by id for key share`),
  );
  return new Set(rows.map((r) => r.id));
}

/** Where a recipient goes after its step: the next step due at `nextAt`, or an end state. */
export interface RecipientMove {
  id: string;
  status: 'pending' | 'waiting' | 'done' | 'skipped' | 'failed';
  stepId: string | null;
  nextAt: Date | null;
  attempts: number;
}

/**
 * Moves claimed recipients on, set-based (one statement for a batch). A recipient a pause released (`pending`)
 * still takes the outcome of a send that had already left.
 */
export async function moveRecipients(ex: Executor, workspaceId: string, moves: RecipientMove[]): Promise<void> {
  if (moves.length === 0) return;
  const data = JSON.stringify(moves.map((m) => ({ id: m.id, status: m.status, step_id: m.stepId, next_at: m.nextAt?.toISOString() ?? null, attempts: m.attempts })));
  await ex.execute(sql`
    update campaign_recipients r
       set status = v.status, step_id = v.step_id, next_at = v.next_at, attempts = v.attempts, updated_at = now()
      from jsonb_to_recordset(${data}::jsonb) as v(id uuid, status text, step_id text, next_at timestamptz, attempts int)
     where r.workspace_id = ${workspaceId} and r.id = v.id and r.status in ('sending', 'pending')`);
}

/**
 * Runs among `runIds` with no work left and their snapshot written: completed. Answers their campaigns.
 *
 * The runs are locked first and checked in a new statement: two transactions that each finish the last
 * recipients of one run would otherwise each see the other's still `sending` (each statement's READ COMMITTED
 * snapshot), and neither would complete it. `wait: false` (the claim loops) skips a run another transaction holds
 * (a snapshot chunk, another loop) instead of waiting for it; the runner's sweep (`runningRunsToSweep`) then
 * completes what such a skip left. Locked in id order, so two transactions never wait on each other in a cycle;
 * FOR NO KEY UPDATE (two such locks still exclude each other), so inserts of log lines and recipients of the run,
 * whose foreign keys take FOR KEY SHARE on it, do not wait for the lock.
 */
export async function completeFinishedRuns(ex: Executor, runIds: string[], opts: { wait?: boolean } = {}): Promise<{ campaignId: string; workspaceId: string }[]> {
  if (runIds.length === 0) return [];
  const locked = rowsOf<{ id: string }>(
    await ex.execute(sql`
      select id from campaign_runs where id = any(${sql.param(runIds)}::uuid[]) and status = 'running'
       order by id for no key update ${opts.wait === false ? sql`skip locked` : sql``}`),
  );
  if (locked.length === 0) return [];
  return rowsOf<{ campaignId: string; workspaceId: string }>(
    await ex.execute(sql`
      update campaign_runs run set status = 'completed', finished_at = now()
       where run.id = any(${sql.param(locked.map((r) => r.id))}::uuid[]) and run.status = 'running' and run.snapshot_done
         and not exists (select 1 from campaign_recipients r where r.run_id = run.id and r.status in ('pending', 'waiting', 'sending'))
      returning run.campaign_id as "campaignId", run.workspace_id as "workspaceId"`),
  );
}

/** Running runs whose snapshot is written and that have no recipient left to move: the sweep completes them. */
export async function runningRunsToSweep(ex: Executor, limit = 100): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await ex.execute(sql`
      select run.id from campaign_runs run
       where run.status = 'running' and run.snapshot_done
         and not exists (select 1 from campaign_recipients r where r.run_id = run.id and r.status in ('pending', 'waiting', 'sending'))
       limit ${limit}`),
  );
  return rows.map((r) => r.id);
}

/** Pause or resume every unfinished run of a campaign. */
export async function setRunsStatus(ex: Executor, workspaceId: string, campaignId: string, from: 'running' | 'paused', to: 'running' | 'paused' | 'cancelled'): Promise<void> {
  const r = t.campaignRuns;
  await ex.update(r).set({ status: to, ...(to === 'cancelled' && { finishedAt: new Date() }) }).where(and(eq(r.workspaceId, workspaceId), eq(r.campaignId, campaignId), eq(r.status, from)));
}

