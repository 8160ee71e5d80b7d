/**
 * GET /workspace/{id}/segments: the one segments list (the segments settings page, the audience filter and a
 * campaign's one-time trigger read it). Mutations invalidate segmentsQueryOptions(id).queryKey.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, fetchAllPages } from '../api-client';
import { workspaceKeys } from './session';

export const segmentsQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: workspaceKeys.list(workspaceId, 'segments'),
    queryFn: ({ signal }) =>
      fetchAllPages((cursor) => api('listSegments', { params: { workspaceId }, query: { limit: 200, cursor }, signal })),
  });

export function useSegments(workspaceId: string) {
  return useQuery(segmentsQueryOptions(workspaceId));
}
