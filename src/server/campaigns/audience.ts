/** The contacts a one-time run targets: its segment, or the recipients of an earlier campaign (retarget). */
import type { SQL } from 'drizzle-orm';
import type { SegmentFilter } from '../../shared/schemas/entities';
import type { Executor } from '../db/client';
import { retargetAudience } from '../repositories/campaign-runs';
import * as r from '../repositories/resources';
import { segmentWhere } from '../segments';
import type { DeployedCanvas } from './deployed-canvas';

/** The audience's condition on `contacts`, or null when its segment no longer exists. */
export async function audienceOf(ex: Executor, workspaceId: string, canvas: DeployedCanvas): Promise<SQL | null> {
  if (canvas.retarget) return retargetAudience(workspaceId, canvas.retarget.campaignId, canvas.retarget.outcome, canvas.retarget.errorCode);
  if (!canvas.segmentId) return null;
  const segment = await r.segments.get(ex, workspaceId, canvas.segmentId);
  if (!segment) return null;
  return segmentWhere(ex, workspaceId, segment.filters as SegmentFilter[]);
}
