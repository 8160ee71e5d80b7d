/**
 * The contact list's filter (search, saved segment, campaign opt-out) as SQL conditions: one rule for the list
 * (GET /workspace/{id}/contacts) and its CSV export, so the file holds exactly the contacts the screen shows.
 */
import type { SQL } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { notFound } from '../errors';
import * as r from './resources';
import { contactSearchIn } from './contact-list';
import { withOptOutFilter } from './campaign-contacts';
import { segmentWhere } from './segment-contacts';
import type { SegmentFilter } from '../../shared/schemas/entities';

export interface ContactFilter {
  search?: string;
  segmentId?: string;
  optedOut?: boolean;
}

export async function contactConditions(
  ex: Executor,
  workspaceId: string,
  filter: ContactFilter,
): Promise<{ segmentCond: SQL | undefined; searchCond: SQL | undefined }> {
  let segmentFilters: SegmentFilter[] | undefined;
  if (filter.segmentId) {
    const segment = await r.segments.get(ex, workspaceId, filter.segmentId);
    if (!segment) throw notFound('Segment not found');
    segmentFilters = segment.filters as SegmentFilter[];
  }
  const inSegment = segmentFilters ? await segmentWhere(ex, workspaceId, segmentFilters) : undefined;
  // The opt-out filter (campaigns) narrows the segment condition.
  const segmentCond = withOptOutFilter(inSegment, filter.optedOut);
  const searchCond = filter.search?.trim() ? await contactSearchIn(ex, workspaceId, filter.search) : undefined;
  return { segmentCond, searchCond };
}
