/** GET /conversation/{conversationId}: the conversation with its events, contact and newest messages (offline: the cache). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { fromCache, notCached, onlineOrCache } from '../../../lib/offline-data';
import { liveChatKeys } from './keys';

/** The detail carries at most this many of the newest messages (server: messagesOf); older ones are paged. */
export const DETAIL_MESSAGE_LIMIT = 500;

export function conversationQueryOptions(conversationId: string) {
  return queryOptions({
    queryKey: liveChatKeys.conversation(conversationId),
    queryFn: ({ signal }) =>
      onlineOrCache(
        () => api('getConversation', { params: { conversationId }, signal }),
        fromCache('cache.getConversation', { conversationId }, (cached) => {
          if (!cached) throw notCached('This conversation');
          return cached;
        }),
      ),
  });
}

export function useConversation(conversationId: string) {
  return useQuery(conversationQueryOptions(conversationId));
}
