/**
 * SQL of the campaign runner (src/server/campaigns): runs, the recipients' due work in campaign_recipients
 * (claimed in batches with FOR UPDATE SKIP LOCKED, so any number of processes share a campaign), the log lines
 * (one per recipient and send step, upserted), and the statuses webhooks bring through the wamid.
 */
import { type SQL, and, eq, inArray, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../db/client';
import * as t from '../db/schema';

export type RunRow = typeof t.campaignRuns.$inferSelect;
export type CampaignRow = typeof t.campaigns.$inferSelect;

export async function insertRun(ex: Executor, v: { workspaceId: string; campaignId: string; snapshotDone: boolean; recipientCount?: number }): Promise<RunRow> {
  const [row] = await ex.insert(t.campaignRuns).values(v).returning();
  return row;
}

/**
 * Writes the next `limit` contacts of the audience (in id order after the last one written) as recipients at
 * the first step, due now: one INSERT … SELECT. Answers how many were written. Idempotent (a contact is a
 * recipient of a run once), so a snapshot interrupted by a crash is continued by whoever holds the run's lock.
 */
export async function snapshotChunk(
  ex: Executor,
  v: { workspaceId: string; runId: string; campaignId: string; firstStepId: string; audience: SQL; limit: number },
): Promise<number> {
  const rows = rowsOf<{ n: number }>(
    await ex.execute(sql`
      with last as (
        select (select contact_id from campaign_recipients where workspace_id = ${v.workspaceId} and run_id = ${v.runId}
                 order by contact_id desc limit 1) as id
      ), ins as (
        insert into campaign_recipients (workspace_id, run_id, campaign_id, contact_id, step_id, status, next_at)
        select ${v.workspaceId}, ${v.runId}, ${v.campaignId}, contacts.id, ${v.firstStepId}, 'pending', now()
          from contacts, last
         where ${v.audience} and (last.id is null or contacts.id > last.id)
         order by contacts.id
         limit ${v.limit}
        on conflict do nothing
        returning 1
      )
      select count(*)::int as n from ins`),
  );
  const n = Number(rows[0]?.n ?? 0);
  if (n > 0) {
    await ex
      .update(t.campaignRuns)
      .set({ recipientCount: sql`${t.campaignRuns.recipientCount} + ${n}` })
      .where(and(eq(t.campaignRuns.workspaceId, v.workspaceId), eq(t.campaignRuns.id, v.runId)));
  }
  return n;
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

/** One recipient of a run, at a step of a deployed canvas. */
export interface Recipients {
  workspaceId: string;
  runId: string;
  campaignId: string;
  contactIds: string[];
  stepId: string;
}
/** Recurring runs: recipients written for contacts of one call (each due now; an existing one is left alone). */
export async function insertRecipients(ex: Executor, v: Recipients): Promise<number> {
  if (v.contactIds.length === 0) return 0;
  const rows = await ex
    .insert(t.campaignRecipients)
    .values(v.contactIds.map((contactId) => ({ workspaceId: v.workspaceId, runId: v.runId, campaignId: v.campaignId, contactId, stepId: v.stepId, status: 'pending' as const, nextAt: new Date() })))
    .onConflictDoNothing()
    .returning({ id: t.campaignRecipients.id });
  await ex
    .update(t.campaignRuns)
    .set({ recipientCount: sql`${t.campaignRuns.recipientCount} + ${rows.length}` })
    .where(and(eq(t.campaignRuns.workspaceId, v.workspaceId), eq(t.campaignRuns.id, v.runId)));
  return rows.length;
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

/** Where a recipient goes after its step: the next step due at `nextAt`, or an end state. */
export interface RecipientMove {
  id: string;
  status: 'pending' | 'waiting' | 'done' | 'skipped' | 'failed';
  stepId: string | null;
  nextAt: Date | null;
  attempts: number;
}
/** Moves claimed recipients on, set-based (one statement for a batch). */
export async function moveRecipients(ex: Executor, workspaceId: string, moves: RecipientMove[]): Promise<void> {
  if (moves.length === 0) return;
  const data = JSON.stringify(moves.map((m) => ({ id: m.id, status: m.status, step_id: m.stepId, next_at: m.nextAt?.toISOString() ?? null, attempts: m.attempts })));
  await ex.execute(sql`
    update campaign_recipients r
       set status = v.status, step_id = v.step_id, next_at = v.next_at, attempts = v.attempts, updated_at = now()
      from jsonb_to_recordset(${data}::jsonb) as v(id uuid, status text, step_id text, next_at timestamptz, attempts int)
     where r.workspace_id = ${workspaceId} and r.id = v.id and r.status = 'sending'`);
}

/** Delivery states in the order they are reached: a status never moves a log line backwards. */
const rank = sql`(case delivery_state when 'pending' then 0 when 'unknown' then 1 when 'sent' then 2 when 'delivered' then 3 when 'read' then 4 else 5 end)`;

export interface LogLine {
  campaignId: string;
  runId: string;
  recipientId: string;
  contactId: string;
  stepId: string;
  phoneNumber: string;
  templateName: string;
  messageStatus: 'success' | 'failed';
  deliveryState: 'sent' | 'failed' | 'unknown' | 'optedOut';
  reason: string | null;
  errorCode: number | null;
  wamid: string | null;
}
/** One log line per recipient and send step: written again (a replayed send) it keeps the state it reached. */
export async function upsertLogs(ex: Executor, workspaceId: string, lines: LogLine[]): Promise<void> {
  if (lines.length === 0) return;
  const l = t.campaignLogs;
  await ex
    .insert(l)
    .values(lines.map((x) => ({ workspaceId, ...x, waMessageId: x.wamid })))
    .onConflictDoUpdate({
      target: [l.workspaceId, l.recipientId, l.stepId],
      set: { updatedAt: sql`now()` },
    });
  // A status webhook may have come before this line was written (it updated the message, found no line): take
  // the message's state. FOR SHARE waits for a status transaction under way, which then finds the line.
  const wamids = lines.flatMap((x) => (x.wamid ? [x.wamid] : []));
  if (wamids.length === 0) return;
  await ex.execute(sql`
    with m as (
      select wa_message_id, status, failure_reason from messages
       where workspace_id = ${workspaceId} and wa_message_id = any(${sql.param(wamids)}::text[])
       for share
    )
    update campaign_logs
       set delivery_state = m.status,
           message_status = case when m.status = 'failed' then 'failed' else 'success' end,
           reason = case when m.status = 'failed' then m.failure_reason else reason end,
           updated_at = now()
      from m
     where campaign_logs.workspace_id = ${workspaceId} and campaign_logs.wa_message_id = m.wa_message_id
       and m.status in ('delivered', 'read', 'failed') and ${rank} < (case m.status when 'delivered' then 3 when 'read' then 4 else 5 end)
       and not (m.status = 'failed' and delivery_state = 'read')`);
}


/**
 * A status webhook for a campaign's message: delivered and read move the log line forward only (a late
 * `delivered` after `read` leaves `read`); `failed` (an asynchronous refusal such as 131049) ends a line that
 * was not read yet. Answers the campaigns whose lines changed.
 */
export async function applyDeliveryStatus(
  ex: Executor,
  workspaceId: string,
  wamid: string,
  status: 'sent' | 'delivered' | 'read' | 'failed',
  failure: { code: number | null; reason: string | null },
): Promise<string[]> {
  const target = { sent: 2, delivered: 3, read: 4, failed: 5 }[status];
  const rows = rowsOf<{ campaign_id: string }>(
    await ex.execute(sql`
      update campaign_logs
         set delivery_state = ${status},
             message_status = ${status === 'failed' ? 'failed' : 'success'},
             reason = ${status === 'failed' ? failure.reason : sql`case when delivery_state = 'unknown' then null else reason end`},
             error_code = ${status === 'failed' ? failure.code : sql`error_code`},
             updated_at = now()
       where workspace_id = ${workspaceId} and wa_message_id = ${wamid}
         and ${status === 'failed' ? sql`delivery_state in ('unknown', 'sent', 'delivered')` : sql`${rank} < ${target}`}
      returning campaign_id`),
  );
  return [...new Set(rows.map((r) => r.campaign_id))];
}

/** Contacts that wrote: their campaign sends of the last 72 hours count as replied (once). */
export async function markReplied(ex: Executor, workspaceId: string, contactIds: string[]): Promise<string[]> {
  if (contactIds.length === 0) return [];
  const rows = rowsOf<{ campaign_id: string }>(
    await ex.execute(sql`
      update campaign_logs set replied_at = now(), updated_at = now()
       where workspace_id = ${workspaceId} and contact_id = any(${sql.param(contactIds)}::uuid[])
         and replied_at is null and message_status = 'success' and created_at > now() - interval '72 hours'
      returning campaign_id`),
  );
  return [...new Set(rows.map((r) => r.campaign_id))];
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

/** One-time campaigns whose every run is over: inProgress -> completed. */
export async function completeCampaigns(ex: Executor, campaignIds: string[]): Promise<CampaignRow[]> {
  if (campaignIds.length === 0) return [];
  const c = t.campaigns;
  return ex
    .update(c)
    .set({ status: 'completed' })
    .where(
      and(
        inArray(c.id, campaignIds),
        eq(c.status, 'inProgress'),
        eq(c.type, 'oneTime'),
        sql`not exists (select 1 from campaign_runs run where run.campaign_id = ${c.id} and run.status in ('running', 'paused'))`,
      ),
    )
    .returning();
}

/** Pause or resume every unfinished run of a campaign. */
export async function setRunsStatus(ex: Executor, workspaceId: string, campaignId: string, from: 'running' | 'paused', to: 'running' | 'paused' | 'cancelled'): Promise<void> {
  const r = t.campaignRuns;
  await ex.update(r).set({ status: to, ...(to === 'cancelled' && { finishedAt: new Date() }) }).where(and(eq(r.workspaceId, workspaceId), eq(r.campaignId, campaignId), eq(r.status, from)));
}

/**
 * Campaigns whose time has come, locked for the caller's transaction (another process skips them): scheduled
 * ones due to start, paused ones due to resume. The caller moves each on in the same transaction.
 */
export async function lockDueCampaigns(ex: Executor, kind: 'scheduled' | 'resume', limit = 20): Promise<CampaignRow[]> {
  const c = t.campaigns;
  return ex
    .select()
    .from(c)
    .where(kind === 'scheduled' ? and(eq(c.status, 'scheduled'), sql`${c.scheduledAt} <= now()`) : and(eq(c.status, 'paused'), sql`${c.resumeAt} <= now()`))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** A campaign row locked for the caller's transaction (state changes are decided one at a time). */
export async function lockCampaign(ex: Executor, workspaceId: string, id: string): Promise<CampaignRow | null> {
  const c = t.campaigns;
  const [row] = await ex.select().from(c).where(and(eq(c.workspaceId, workspaceId), eq(c.id, id))).for('update').limit(1);
  return row ?? null;
}

export async function updateCampaign(ex: Executor, workspaceId: string, id: string, set: Partial<typeof t.campaigns.$inferInsert>): Promise<CampaignRow> {
  const c = t.campaigns;
  const [row] = await ex.update(c).set(set).where(and(eq(c.workspaceId, workspaceId), eq(c.id, id))).returning();
  return row;
}

/** A recurring campaign by the sha256 of its trigger key (any workspace: the key names it). */
export async function campaignByKeyHash(ex: Executor, hash: string): Promise<CampaignRow | null> {
  const [row] = await ex.select().from(t.campaigns).where(eq(t.campaigns.triggerKeyHash, hash)).limit(1);
  return row ?? null;
}

/**
 * The audience of a retarget: contacts whose log lines in `campaignId` have `outcome` (optionally one error
 * code). `readNotReplied`: read and no reply within 72 hours; `pending`: recipients not reached yet.
 */
export function retargetAudience(workspaceId: string, campaignId: string, outcome: string, errorCode?: number): SQL {
  const code = errorCode !== undefined ? sql` and l.error_code = ${errorCode}` : sql``;
  const cond: Record<string, SQL> = {
    sent: sql`l.delivery_state in ('sent', 'delivered', 'read')`,
    delivered: sql`l.delivery_state in ('delivered', 'read')`,
    read: sql`l.delivery_state = 'read'`,
    replied: sql`l.replied_at is not null`,
    readNotReplied: sql`l.delivery_state = 'read' and l.replied_at is null`,
    failed: sql`l.delivery_state = 'failed'`,
    unknown: sql`l.delivery_state = 'unknown'`,
    optedOut: sql`l.delivery_state = 'optedOut'`,
  };
  if (outcome === 'pending') {
    return sql`contacts.workspace_id = ${workspaceId} and contacts.id in (select r.contact_id from campaign_recipients r where r.workspace_id = ${workspaceId} and r.campaign_id = ${campaignId} and r.status in ('pending', 'waiting', 'sending'))`;
  }
  return sql`contacts.workspace_id = ${workspaceId} and contacts.id in (select l.contact_id from campaign_logs l where l.workspace_id = ${workspaceId} and l.campaign_id = ${campaignId} and ${cond[outcome]}${code})`;
}

export type ContactRow = typeof t.contacts.$inferSelect;
export async function contactsByIds(ex: Executor, workspaceId: string, ids: string[]): Promise<Map<string, ContactRow>> {
  if (ids.length === 0) return new Map();
  const rows = await ex.select().from(t.contacts).where(and(eq(t.contacts.workspaceId, workspaceId), inArray(t.contacts.id, ids)));
  return new Map(rows.map((r) => [r.id, r]));
}

export async function campaignsByIds(ex: Executor, ids: string[]): Promise<Map<string, CampaignRow>> {
  if (ids.length === 0) return new Map();
  const rows = await ex.select().from(t.campaigns).where(inArray(t.campaigns.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}

export interface WorkspaceCampaignSettings {
  timeZone: string;
  optOutKeywords: string[];
  optOutConfirmation: string;
}
export async function campaignSettingsOf(ex: Executor, workspaceId: string): Promise<WorkspaceCampaignSettings> {
  const w = t.workspaces;
  const [row] = await ex
    .select({ timeZone: w.timeZone, optOutKeywords: w.optOutKeywords, optOutConfirmation: w.optOutConfirmation })
    .from(w)
    .where(eq(w.id, workspaceId));
  return row ?? { timeZone: 'UTC', optOutKeywords: [], optOutConfirmation: '' };
}
export async function setCampaignSettings(ex: Executor, workspaceId: string, set: Partial<WorkspaceCampaignSettings>): Promise<void> {
  if (Object.keys(set).length === 0) return;
  await ex.update(t.workspaces).set(set).where(eq(t.workspaces.id, workspaceId));
}

/** Opt contacts out of (date) or back in to (null) campaigns; answers the contacts that changed. */
export async function setOptedOut(ex: Executor, workspaceId: string, contactIds: string[], optedOut: boolean): Promise<ContactRow[]> {
  if (contactIds.length === 0) return [];
  const c = t.contacts;
  return ex
    .update(c)
    .set({ optedOutAt: optedOut ? sql`now()` : null, updatedAt: sql`now()` })
    .where(and(eq(c.workspaceId, workspaceId), inArray(c.id, contactIds), optedOut ? sql`${c.optedOutAt} is null` : sql`${c.optedOutAt} is not null`))
    .returning();
}

/** A contacts condition narrowed by the contacts list's opt-out filter (none when `optedOut` is undefined). */
export function withOptOutFilter(cond: SQL | undefined, optedOut: boolean | undefined): SQL | undefined {
  if (optedOut === undefined) return cond;
  return and(cond, optedOut ? sql`${t.contacts.optedOutAt} is not null` : sql`${t.contacts.optedOutAt} is null`);
}

export async function attributeNamesOf(ex: Executor, workspaceId: string): Promise<Map<string, string>> {
  const rows = await ex.select({ id: t.attributes.id, name: t.attributes.name }).from(t.attributes).where(eq(t.attributes.workspaceId, workspaceId));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Merges each contact's new attribute values into its attributes (one statement). */
export async function mergeContactAttributes(ex: Executor, workspaceId: string, updates: { id: string; attributes: Record<string, string> }[]): Promise<void> {
  const withValues = updates.filter((u) => Object.keys(u.attributes).length > 0);
  if (withValues.length === 0) return;
  await ex.execute(sql`
    update contacts c set attributes = c.attributes || v.attributes, updated_at = now()
      from jsonb_to_recordset(${JSON.stringify(withValues)}::jsonb) as v(id uuid, attributes jsonb)
     where c.workspace_id = ${workspaceId} and c.id = v.id`);
}

/** Log lines of a campaign, newest first, after a cursor (created_at, id), optionally one outcome. */
export async function logsPage(ex: Executor, workspaceId: string, campaignId: string, q: { limit: number; after?: { at: Date; id: string }; outcome?: string }) {
  const l = t.campaignLogs;
  return ex
    .select()
    .from(l)
    .where(
      and(
        eq(l.workspaceId, workspaceId),
        eq(l.campaignId, campaignId),
        q.outcome ? outcomeCondition(q.outcome) : undefined,
        q.after ? sql`(${l.createdAt}, ${l.id}) < (${q.after.at.toISOString()}::timestamptz, ${q.after.id}::uuid)` : undefined,
      ),
    )
    .orderBy(sql`${l.createdAt} desc`, sql`${l.id} desc`)
    .limit(q.limit);
}
export type LogRow = typeof t.campaignLogs.$inferSelect;

function outcomeCondition(outcome: string): SQL {
  const s = sql.raw('"campaign_logs"."delivery_state"');
  switch (outcome) {
    case 'sent':
      return sql`${s} in ('sent', 'delivered', 'read')`;
    case 'delivered':
      return sql`${s} in ('delivered', 'read')`;
    case 'replied':
      return sql`${t.campaignLogs.repliedAt} is not null`;
    case 'readNotReplied':
      return sql`${s} = 'read' and ${t.campaignLogs.repliedAt} is null`;
    default:
      return sql`${s} = ${outcome}`;
  }
}

/** What deploy's validator needs to know of the workspace (ids, and the templates the canvas names). */
export async function validationFacts(ex: Executor, workspaceId: string, templateIds: string[]) {
  const uuids = templateIds.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  const [segments, accounts, attributes, templates] = await Promise.all([
    ex.select({ id: t.segments.id }).from(t.segments).where(eq(t.segments.workspaceId, workspaceId)),
    ex.select({ id: t.whatsappAccounts.id }).from(t.whatsappAccounts).where(eq(t.whatsappAccounts.workspaceId, workspaceId)),
    ex.select({ id: t.attributes.id }).from(t.attributes).where(eq(t.attributes.workspaceId, workspaceId)),
    uuids.length
      ? ex.select().from(t.whatsappTemplates).where(and(eq(t.whatsappTemplates.workspaceId, workspaceId), inArray(t.whatsappTemplates.id, uuids)))
      : Promise.resolve([]),
  ]);
  return {
    segmentIds: segments.map((x) => x.id),
    whatsappAccountIds: accounts.map((x) => x.id),
    attributeIds: attributes.map((x) => x.id),
    templates: templates.map((x) => ({ ...x, components: x.components as { type: string }[] })),
  };
}

export async function cancelRunsAndDelete(ex: Executor, workspaceId: string, campaignId: string): Promise<boolean> {
  await ex
    .update(t.campaignRuns)
    .set({ status: 'cancelled', finishedAt: new Date() })
    .where(and(eq(t.campaignRuns.workspaceId, workspaceId), eq(t.campaignRuns.campaignId, campaignId), inArray(t.campaignRuns.status, ['running', 'paused'])));
  const rows = await ex.delete(t.campaigns).where(and(eq(t.campaigns.workspaceId, workspaceId), eq(t.campaigns.id, campaignId))).returning({ id: t.campaigns.id });
  return rows.length > 0;
}

export async function contactsByPhones(ex: Executor, workspaceId: string, phones: string[]): Promise<Map<string, ContactRow>> {
  if (phones.length === 0) return new Map();
  const rows = await ex.select().from(t.contacts).where(and(eq(t.contacts.workspaceId, workspaceId), inArray(t.contacts.phoneNumber, phones)));
  return new Map(rows.map((r) => [r.phoneNumber, r]));
}
