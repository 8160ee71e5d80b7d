/** The contacts a one-time run targets: its segment, or the recipients of an earlier campaign (retarget). */
import { type SQL, sql } from 'drizzle-orm';
import type { SegmentFilter } from '../../shared/schemas/entities';
import type { Executor } from '../db/client';
import * as r from './resources';
import { segmentWhere } from './segment-contacts';

/** What a deployed canvas's trigger targets (src/server/campaigns/deployed-canvas.ts). */
export interface AudienceTarget {
  segmentId?: string | null;
  retarget?: { campaignId: string; outcome: string; errorCode?: number } | null;
}

/** The audience's condition on `contacts`, or null when its segment no longer exists. */
export async function audienceOf(ex: Executor, workspaceId: string, canvas: AudienceTarget): Promise<SQL | null> {
  if (canvas.retarget) return retargetAudience(workspaceId, canvas.retarget.campaignId, canvas.retarget.outcome, canvas.retarget.errorCode);
  if (!canvas.segmentId) return null;
  const segment = await r.segments.get(ex, workspaceId, canvas.segmentId);
  if (!segment) return null;
  return segmentWhere(ex, workspaceId, segment.filters as SegmentFilter[]);
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
