/** GET /workspace/{workspaceId}/conversations/counts (addition): the numbers on the tabs. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { liveChatKeys } from './keys';

export function conversationCountsQueryOptions(workspaceId: string) {
  return queryOptions({
    queryKey: liveChatKeys.counts(workspaceId),
    queryFn: ({ signal }) => api('countConversations', { params: { workspaceId }, signal }),
  });
}

export function useConversationCounts(workspaceId: string) {
  return useQuery(conversationCountsQueryOptions(workspaceId));
}
