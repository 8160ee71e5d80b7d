/**
 * GET / PATCH /workspace/{workspaceId}/member-routing (additions): who takes auto-assigned conversations
 * (availability) and how many open ones at most (capacity).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, api } from '../../../lib/api-client';

export const memberRoutingQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: ['workspace', workspaceId, 'member-routing'] as const,
    queryFn: ({ signal }) => api('listMemberRouting', { params: { workspaceId }, signal }),
  });

export function useMemberRouting(workspaceId: string) {
  return useQuery(memberRoutingQueryOptions(workspaceId));
}

export function usePatchMemberRouting(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'patchMemberRouting'>) => api('patchMemberRouting', { params: { workspaceId }, body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: memberRoutingQueryOptions(workspaceId).queryKey }),
  });
}
