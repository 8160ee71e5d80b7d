/** GET /workspace/{id}/canned-replies (addition): the workspace's replies and the caller's own, by shortcut. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, fetchAllPages } from '../../../lib/api-client';

export const cannedRepliesKey = (workspaceId: string) => ['canned-replies', workspaceId] as const;

export function cannedRepliesQueryOptions(workspaceId: string) {
  return queryOptions({
    queryKey: cannedRepliesKey(workspaceId),
    // A team keeps tens to a few hundred: all of them, filtered as the agent types.
    queryFn: ({ signal }) =>
      fetchAllPages((cursor) => api('listCannedReplies', { params: { workspaceId }, query: { limit: 200, ...(cursor ? { cursor } : {}) }, signal })),
    staleTime: 60_000,
  });
}

export function useCannedReplies(workspaceId: string, enabled: boolean) {
  return useQuery({ ...cannedRepliesQueryOptions(workspaceId), enabled });
}
