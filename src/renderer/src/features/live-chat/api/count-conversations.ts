/** GET /workspace/{workspaceId}/conversations/counts (addition): the numbers on the tabs (offline: the cache). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { fromCache, onlineOrCache } from '../../../lib/offline-data';
import { liveChatKeys } from './keys';

export function conversationCountsQueryOptions(workspaceId: string) {
  return queryOptions({
    queryKey: liveChatKeys.counts(workspaceId),
    queryFn: ({ signal }) =>
      onlineOrCache(() => api('countConversations', { params: { workspaceId }, signal }), fromCache('cache.conversationCounts', undefined)),
  });
}

export function useConversationCounts(workspaceId: string) {
  return useQuery(conversationCountsQueryOptions(workspaceId));
}
