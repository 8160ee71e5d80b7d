/**
 * What Meta's limits and refusals do to campaigns: a halt pauses a campaign (and its runs) with Meta's code and
 * words, a resume clears them; a marketing send WhatsApp capped later (a `failed` status with 131049) puts its
 * recipient back on that step once, 24 hours on.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { rowsOf } from '../db/client';
import * as t from '../db/schema';

type CampaignRow = typeof t.campaigns.$inferSelect;

/**
 * Pauses running campaigns with the refusal that halted them (a campaign already paused keeps its first halt);
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
    out.push(row);
  }
  return out;
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
