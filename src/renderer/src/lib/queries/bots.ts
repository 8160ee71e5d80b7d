/**
 * GET /workspace/{id}/bots: the one bots list (the bots page and live chat's hand-off menu both read it, so a bot
 * created or deleted shows everywhere). Mutations invalidate botsQueryOptions(id).queryKey.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, fetchAllPages } from '../api-client';
import { workspaceKeys } from './session';

export const botsQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: workspaceKeys.list(workspaceId, 'bots'),
    queryFn: ({ signal }) => fetchAllPages((cursor) => api('listBots', { params: { workspaceId }, query: { limit: 200, cursor }, signal })),
  });

export function useBots(workspaceId: string) {
  return useQuery(botsQueryOptions(workspaceId));
}
