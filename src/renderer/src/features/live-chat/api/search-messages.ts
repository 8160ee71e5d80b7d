/**
 * GET /workspace/{workspaceId}/messages/search?q= (addition): messages of the workspace's conversations matching
 * the words (full text, word prefixes), newest first with each hit's contact, paged by nextCursor.
 */
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const MESSAGE_SEARCH_PAGE_SIZE = 30;

export function messageSearchQueryOptions(workspaceId: string, q: string) {
  return infiniteQueryOptions({
    queryKey: ['live-chat', 'message-search', workspaceId, q] as const,
    queryFn: ({ pageParam, signal }) =>
      api('searchMessages', { params: { workspaceId }, query: { q, cursor: pageParam, limit: MESSAGE_SEARCH_PAGE_SIZE }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: 10_000,
  });
}

export function useMessageSearch(workspaceId: string, q: string) {
  return useInfiniteQuery({ ...messageSearchQueryOptions(workspaceId, q), enabled: q.trim().length > 0 });
}
