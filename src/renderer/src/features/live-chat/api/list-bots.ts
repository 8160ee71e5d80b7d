/** GET /workspace/{workspaceId}/bots: bots a conversation can be handed to. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, fetchAllPages } from '../../../lib/api-client';
import { liveChatKeys } from './keys';

export function botsQueryOptions(workspaceId: string) {
  return queryOptions({
    queryKey: liveChatKeys.bots(workspaceId),
    queryFn: ({ signal }) =>
      fetchAllPages((cursor) => api('listBots', { params: { workspaceId }, query: { cursor, limit: 200 }, signal }), 5),
    staleTime: 60_000,
  });
}

export function useBots(workspaceId: string) {
  return useQuery(botsQueryOptions(workspaceId));
}
