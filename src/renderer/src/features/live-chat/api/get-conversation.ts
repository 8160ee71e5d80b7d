/** GET /conversation/{conversationId}: the conversation with its events, contact and newest messages. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { liveChatKeys } from './keys';

/** The detail carries at most this many of the newest messages (server: messagesOf); older ones are paged. */
export const DETAIL_MESSAGE_LIMIT = 500;

export function conversationQueryOptions(conversationId: string) {
  return queryOptions({
    queryKey: liveChatKeys.conversation(conversationId),
    queryFn: ({ signal }) => api('getConversation', { params: { conversationId }, signal }),
  });
}

export function useConversation(conversationId: string) {
  return useQuery(conversationQueryOptions(conversationId));
}
