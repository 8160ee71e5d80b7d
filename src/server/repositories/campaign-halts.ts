/**
 * What Meta's limits and refusals do to campaigns: a halt pauses a campaign (and its runs) with Meta's code and
 * words, a resume clears them; a hold for the portfolio's limit is shown on the campaign until it sends again; a marketing send WhatsApp capped later (a `failed` status with 131049) puts its
 * recipient back on that step once, 24 hours on.
 */
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { rowsOf } from '../db/client';
import * as t from '../db/schema';

type CampaignRow = typeof t.campaigns.$inferSelect;

/** The workspace's deployed campaigns that are sending (a halt looks among them for those it stops too). */
export async function runningCampaignsOf(ex: Executor, workspaceId: string): Promise<CampaignRow[]> {
  const c = t.campaigns;
  return ex
    .select()
    .from(c)
    .where(and(eq(c.workspaceId, workspaceId), inArray(c.status, ['inProgress', 'active'])));
}

/**
 * Pauses running campaigns with the refusal that halted them (a campaign already paused keeps its first halt),
 * and releases their claimed recipients like a pause does (a batch holding some sends none of them after this);
 * answers the campaigns that changed.
 */
export async function haltCampaigns(ex: Executor, workspaceId: string, halts: { campaignId: string; code: number; reason: string }[]): Promise<CampaignRow[]> {
  if (halts.length === 0) return [];
  const c = t.campaigns;
  const out: CampaignRow[] = [];
  for (const h of halts) {
    const [row] = await ex
      .update(c)
      .set({ status: 'paused', resumeAt: null, haltCode: h.code, haltReason: h.reason, haltedAt: sql`now()` })
      .where(and(eq(c.workspaceId, workspaceId), eq(c.id, h.campaignId), inArray(c.status, ['inProgress', 'active'])))
      .returning();
    if (!row) continue;
    await ex
      .update(t.campaignRuns)
      .set({ status: 'paused' })
      .where(and(eq(t.campaignRuns.workspaceId, workspaceId), eq(t.campaignRuns.campaignId, h.campaignId), eq(t.campaignRuns.status, 'running')));
    await ex.execute(sql`
      update campaign_recipients set status = 'pending', next_at = now(), updated_at = now()
       where workspace_id = ${workspaceId} and campaign_id = ${h.campaignId} and status = 'sending'`);
    out.push(row);
  }
  return out;
}

/** Campaigns holding recipients for the portfolio's limit, with why and until when; answers those that changed. */
export async function setHolds(ex: Executor, workspaceId: string, holds: { campaignId: string; reason: string; until: Date }[]): Promise<CampaignRow[]> {
  const c = t.campaigns;
  const out: CampaignRow[] = [];
  for (const h of holds) {
    const [row] = await ex
      .update(c)
      .set({ holdReason: h.reason, heldUntil: h.until })
      .where(
        and(
          eq(c.workspaceId, workspaceId),
          eq(c.id, h.campaignId),
          sql`(${c.holdReason} is distinct from ${h.reason} or ${c.heldUntil} is distinct from ${h.until.toISOString()}::timestamptz)`,
        ),
      )
      .returning();
    if (row) out.push(row);
  }
  return out;
}

/** Campaigns that sent without holding anyone no longer show a hold; answers those that changed. */
export async function clearHolds(ex: Executor, workspaceId: string, campaignIds: string[]): Promise<CampaignRow[]> {
  if (campaignIds.length === 0) return [];
  const c = t.campaigns;
  return ex
    .update(c)
    .set({ holdReason: null, heldUntil: null })
    .where(and(eq(c.workspaceId, workspaceId), inArray(c.id, campaignIds), isNotNull(c.holdReason)))
    .returning();
}

/** A resumed campaign no longer shows the refusal that halted it. */
export async function clearHalt(ex: Executor, workspaceId: string, campaignId: string): Promise<void> {
  const c = t.campaigns;
  await ex
    .update(c)
    .set({ haltCode: null, haltReason: null, haltedAt: null })
    .where(and(eq(c.workspaceId, workspaceId), eq(c.id, campaignId)));
}

/**
 * The recipients of these wamids' log lines, if their chain ended and they were not retried before (`mark`):
 * back on the logged step, due `afterMs` later, marked as on their one retry. Answers how many.
 */
export async function requeueCapped(ex: Executor, workspaceId: string, wamids: string[], mark: number, afterMs: number): Promise<number> {
  if (wamids.length === 0) return 0;
  const rows = rowsOf<{ id: string }>(
    await ex.execute(sql`
      update campaign_recipients r
         set status = 'pending', step_id = l.step_id, next_at = now() + make_interval(secs => ${afterMs / 1000}),
             attempts = ${mark}, updated_at = now()
        from campaign_logs l
       where l.workspace_id = ${workspaceId} and l.wa_message_id = any(${sql.param(wamids)}::text[])
         and r.workspace_id = ${workspaceId} and r.id = l.recipient_id
         and r.status = 'done' and r.attempts <> ${mark}
      returning r.id`),
  );
  return rows.length;
}
