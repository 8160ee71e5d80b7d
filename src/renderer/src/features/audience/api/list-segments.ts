/** GET /workspace/{workspaceId}/segments: saved segments, to filter the audience by. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, fetchAllPages } from '../../../lib/api-client';
import { audienceKeys } from './keys';

export function segmentsQueryOptions(workspaceId: string) {
  return queryOptions({
    queryKey: audienceKeys.segments(workspaceId),
    queryFn: ({ signal }) =>
      fetchAllPages((cursor) => api('listSegments', { params: { workspaceId }, query: { cursor, limit: 200 }, signal }), 5),
  });
}

export function useSegments(workspaceId: string) {
  return useQuery(segmentsQueryOptions(workspaceId));
}
