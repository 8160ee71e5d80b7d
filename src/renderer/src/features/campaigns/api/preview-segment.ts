import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { SegmentFilter } from '@shared/schemas/entities';
import { api } from '../../../lib/api-client';
import { workspaceKeys } from '../../../lib/queries/session';

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
