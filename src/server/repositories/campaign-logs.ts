/**
 * SQL of `campaign_logs` for the campaign list: each campaign's newest log rows (bounded) and its counts per
 * message status (an aggregate, so a campaign with a million recipients is counted, not loaded).
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
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
