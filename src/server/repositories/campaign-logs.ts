/**
 * SQL of `campaign_logs`, one line per recipient and send step: written by the runner (upserted), moved on by
 * status webhooks and replies, paged for a campaign's log, and for the campaign list each campaign's newest
 * lines (bounded) and its counts per message status (an aggregate, so a campaign with a million recipients is
 * counted, not loaded).
 */
import { type SQL, and, desc, eq, inArray, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../db/client';
import * as t from '../db/schema';
import type { CampaignLog } from '../../shared/schemas/entities';
import type { z } from 'zod';
import { iso } from './pagination';

export type CampaignLogEntry = z.infer<typeof CampaignLog>;
export interface CampaignLogCounts {
  success: number;
  failed: number;
}

/**
 * The newest `perCampaign` log rows of each campaign, newest first. One lateral query walks the
 * (workspace_id, campaign_id, created_at) index once per campaign, so a big campaign cannot crowd out the others.
 */
export async function latestLogsOf(
  ex: Executor,
  workspaceId: string,
  campaignIds: string[],
  perCampaign: number,
): Promise<Map<string, CampaignLogEntry[]>> {
  const out = new Map<string, CampaignLogEntry[]>();
  if (campaignIds.length === 0) return out;
  const l = t.campaignLogs;
  const c = t.campaigns;
  const latest = ex
    .select({
      id: l.id,
      createdAt: l.createdAt,
      phoneNumber: l.phoneNumber,
      templateName: l.templateName,
      messageStatus: l.messageStatus,
      reason: l.reason,
      campaignId: l.campaignId,
    })
    .from(l)
    .where(and(eq(l.workspaceId, workspaceId), eq(l.campaignId, c.id)))
    .orderBy(desc(l.createdAt), desc(l.id))
    .limit(perCampaign)
    .as('latest');
  const rows = await ex
    .select({
      id: latest.id,
      createdAt: latest.createdAt,
      phoneNumber: latest.phoneNumber,
      templateName: latest.templateName,
      messageStatus: latest.messageStatus,
      reason: latest.reason,
      campaignId: latest.campaignId,
    })
    .from(c)
    .crossJoinLateral(latest)
    .where(and(eq(c.workspaceId, workspaceId), inArray(c.id, campaignIds)))
    .orderBy(desc(latest.createdAt), desc(latest.id));
  for (const r of rows) {
    const log: CampaignLogEntry = { ...r, createdAt: iso(r.createdAt) };
    out.set(r.campaignId, [...(out.get(r.campaignId) ?? []), log]);
  }
  return out;
}

/** How many log rows of each campaign succeeded and failed: one GROUP BY over the campaigns' log rows. */
export async function logCountsOf(ex: Executor, workspaceId: string, campaignIds: string[]): Promise<Map<string, CampaignLogCounts>> {
  const out = new Map<string, CampaignLogCounts>();
  if (campaignIds.length === 0) return out;
  const l = t.campaignLogs;
  const rows = await ex
    .select({
      campaignId: l.campaignId,
      success: sql<number>`count(*) filter (where ${l.messageStatus} = 'success')`.mapWith(Number),
      failed: sql<number>`count(*) filter (where ${l.messageStatus} = 'failed')`.mapWith(Number),
    })
    .from(l)
    .where(and(eq(l.workspaceId, workspaceId), inArray(l.campaignId, campaignIds)))
    .groupBy(l.campaignId);
  for (const r of rows) out.set(r.campaignId, { success: r.success, failed: r.failed });
  return out;
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
  deliveryState: 'sent' | 'failed' | 'unknown' | 'optedOut' | 'capped';
  reason: string | null;
  errorCode: number | null;
  wamid: string | null;
}

/**
 * One log line per recipient and send step: written again (a replayed send) it keeps the state it reached,
 * except a `capped` line, which the step's one retry after 131049 writes anew.
 */
export async function upsertLogs(ex: Executor, workspaceId: string, lines: LogLine[]): Promise<void> {
  if (lines.length === 0) return;
  const l = t.campaignLogs;
  await ex
    .insert(l)
    .values(lines.map((x) => ({ workspaceId, ...x, waMessageId: x.wamid })))
    .onConflictDoUpdate({
      target: [l.workspaceId, l.recipientId, l.stepId],
      set: {
        updatedAt: sql`now()`,
        ...Object.fromEntries(
          (['deliveryState', 'messageStatus', 'reason', 'errorCode', 'waMessageId'] as const).map((k) => [
            k,
            sql.raw(`case when campaign_logs.delivery_state = 'capped' then excluded.${l[k].name} else campaign_logs.${l[k].name} end`),
          ]),
        ),
      },
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
