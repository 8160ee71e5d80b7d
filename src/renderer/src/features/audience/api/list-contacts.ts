/** GET /workspace/{workspaceId}/contacts: the audience, searchable and filtered by a saved segment, paged. */
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { fromCache, notCached, onlineOrCache } from '../../../lib/offline-data';
import { audienceKeys } from './keys';

export const CONTACT_PAGE_SIZE = 100;

export function contactsQueryOptions(workspaceId: string, filter: { search?: string; segmentId?: string | null; optedOut?: boolean | null } = {}) {
  const search = filter.search?.trim() ?? '';
  const segmentId = filter.segmentId ?? null;
  // Issue 17: only contacts opted out of campaigns (true) or only those who receive them (false).
  const optedOut = filter.optedOut ?? null;
  return infiniteQueryOptions({
    queryKey: audienceKeys.contactList(workspaceId, search, segmentId, optedOut),
    queryFn: ({ pageParam, signal }) =>
      onlineOrCache(
        () =>
          api('listContacts', {
            params: { workspaceId },
            query: {
              search: search || undefined,
              segmentId: segmentId ?? undefined,
              optedOut: optedOut === null ? undefined : optedOut ? 'true' : 'false',
              cursor: pageParam,
              limit: CONTACT_PAGE_SIZE,
            },
            signal,
          }),
        // Offline: full-text search in the cache (any word); segments are evaluated by the server only.
        segmentId || optedOut !== null
          ? () => Promise.reject(notCached(segmentId ? 'A segment filter' : 'The opt-out filter'))
          : fromCache('cache.searchContacts', { search: search || undefined, cursor: pageParam, limit: CONTACT_PAGE_SIZE }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useContacts(workspaceId: string, search: string, segmentId: string | null, optedOut: boolean | null = null) {
  return useInfiniteQuery(contactsQueryOptions(workspaceId, { search, segmentId, optedOut }));
}
