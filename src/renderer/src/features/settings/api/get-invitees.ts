import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, fetchAllPages } from '../../../lib/api-client';
import { workspaceKeys } from '../../../lib/queries/session';

/** GET /workspace/{id}/invitees (admins only) */
export const inviteesQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: workspaceKeys.list(workspaceId, 'invitees'),
    queryFn: ({ signal }) =>
      fetchAllPages((cursor) => api('listInvitees', { params: { workspaceId }, query: { limit: 200, cursor }, signal })),
  });

export function useInvitees(workspaceId: string, enabled = true) {
  return useQuery({ ...inviteesQueryOptions(workspaceId), enabled });
}
