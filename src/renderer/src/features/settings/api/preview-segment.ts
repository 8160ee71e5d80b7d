import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { SegmentFilter } from '@shared/schemas/entities';
import { api } from '../../../lib/api-client';
import { workspaceKeys } from '../../../lib/queries/session';

/** POST /workspace/{id}/segments/preview (addition): how many contacts the filters select, live. */
export const segmentPreviewQueryOptions = (workspaceId: string, filters: SegmentFilter[]) =>
  queryOptions({
    queryKey: workspaceKeys.list(workspaceId, 'segment-preview', filters),
    queryFn: ({ signal }) => api('previewSegment', { params: { workspaceId }, body: { filters, limit: 1 }, signal }),
    staleTime: 10_000,
    retry: false,
  });

export function useSegmentPreview(workspaceId: string, filters: SegmentFilter[], enabled: boolean) {
  return useQuery({ ...segmentPreviewQueryOptions(workspaceId, filters), enabled, placeholderData: keepPreviousData });
}
