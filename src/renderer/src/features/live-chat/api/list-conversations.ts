/**
 * GET /workspace/{workspaceId}/conversations: one tab of the inbox, searchable, paged by nextCursor (offline in
 * the desktop app: the local cache).
 */
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { fromCache, onlineOrCache } from '../../../lib/offline-data';
import type { LiveChatTab } from '../utils/tabs';
import { liveChatKeys } from './keys';

export const CONVERSATION_PAGE_SIZE = 50;

export function conversationsQueryOptions(workspaceId: string, tab: LiveChatTab, search = '') {
  const q = search.trim();
  return infiniteQueryOptions({
    queryKey: liveChatKeys.conversationList(workspaceId, tab, q),
    queryFn: ({ pageParam, signal }) =>
      onlineOrCache(
        () =>
          api('listConversations', {
            params: { workspaceId },
            query: { tab, search: q || undefined, cursor: pageParam, limit: CONVERSATION_PAGE_SIZE },
            signal,
          }),
        fromCache('cache.listConversations', { tab, search: q || undefined, cursor: pageParam, limit: CONVERSATION_PAGE_SIZE }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/**
 * The same endpoint with `sort=waiting` (addition): only conversations whose last message is the customer's,
 * longest waiting first. Online only (the desktop cache keeps the activity order).
 */
export function waitingConversationsQueryOptions(workspaceId: string, tab: LiveChatTab, search = '') {
  const q = search.trim();
  return infiniteQueryOptions({
    queryKey: liveChatKeys.waitingList(workspaceId, tab, q),
    queryFn: ({ pageParam, signal }) =>
      api('listConversations', {
        params: { workspaceId },
        query: { tab, search: q || undefined, sort: 'waiting', cursor: pageParam, limit: CONVERSATION_PAGE_SIZE },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useConversationList(workspaceId: string, tab: LiveChatTab, search: string, sort: 'recent' | 'waiting') {
  const options = sort === 'waiting' ? waitingConversationsQueryOptions(workspaceId, tab, search) : conversationsQueryOptions(workspaceId, tab, search);
  // Same page type under both keys; only the key tuples' literal types differ.
  return useInfiniteQuery(options as unknown as ReturnType<typeof conversationsQueryOptions>);
}
