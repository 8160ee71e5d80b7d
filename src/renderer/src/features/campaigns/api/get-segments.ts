import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { SegmentFilter } from '@shared/schemas/entities';
import { api, fetchAllPages } from '../../../lib/api-client';
import { workspaceKeys } from '../../../lib/queries/session';

/** GET /workspace/{id}/segments: what a one-time trigger can target. */
export const segmentsQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: workspaceKeys.list(workspaceId, 'segments'),
    queryFn: ({ signal }) => fetchAllPages((cursor) => api('listSegments', { params: { workspaceId }, query: { limit: 200, cursor }, signal })),
  });

export function useSegments(workspaceId: string) {
  return useQuery(segmentsQueryOptions(workspaceId));
}

/** POST /workspace/{id}/segments/preview: the live count of contacts a segment's filters select. */
export function useSegmentCount(workspaceId: string, filters: SegmentFilter[] | undefined) {
  return useQuery({
    queryKey: workspaceKeys.list(workspaceId, 'segment-preview', filters),
    queryFn: ({ signal }) => api('previewSegment', { params: { workspaceId }, body: { filters: filters ?? [], limit: 1 }, signal }),
    enabled: !!filters,
    staleTime: 10_000,
    retry: false,
    placeholderData: keepPreviousData,
  });
}
