import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, fetchAllPages } from '../../../lib/api-client';
import { workspaceKeys } from '../../../lib/queries/session';

/** GET /workspace/{id}/members (with identity profile data) */
export const membersQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: workspaceKeys.list(workspaceId, 'members'),
    queryFn: ({ signal }) =>
      fetchAllPages((cursor) => api('listMembers', { params: { workspaceId }, query: { limit: 200, cursor }, signal })),
  });

export function useMembers(workspaceId: string) {
  return useQuery(membersQueryOptions(workspaceId));
}
