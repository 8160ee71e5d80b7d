/** GET /conversation/{id}/search?q= (addition): every matching message of the conversation, oldest first. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function conversationSearchQueryOptions(conversationId: string, q: string) {
  return queryOptions({
    queryKey: ['live-chat', 'conversation', conversationId, 'search', q] as const,
    queryFn: ({ signal }) => api('searchConversation', { params: { conversationId }, query: { q }, signal }),
    staleTime: 10_000,
  });
}

export function useConversationSearch(conversationId: string, q: string) {
  return useQuery({ ...conversationSearchQueryOptions(conversationId, q), enabled: q.trim().length > 0 });
}
