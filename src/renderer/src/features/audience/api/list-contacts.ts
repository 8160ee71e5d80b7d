/** GET /workspace/{workspaceId}/contacts: the audience, searchable and filtered by a saved segment, paged. */
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { fromCache, notCached, onlineOrCache } from '../../../lib/offline-data';
import { audienceKeys } from './keys';

export const CONTACT_PAGE_SIZE = 100;

export function contactsQueryOptions(workspaceId: string, filter: { search?: string; segmentId?: string | null } = {}) {
  const search = filter.search?.trim() ?? '';
  const segmentId = filter.segmentId ?? null;
  return infiniteQueryOptions({
    queryKey: audienceKeys.contactList(workspaceId, search, segmentId),
    queryFn: ({ pageParam, signal }) =>
      onlineOrCache(
        () =>
          api('listContacts', {
            params: { workspaceId },
            query: { search: search || undefined, segmentId: segmentId ?? undefined, cursor: pageParam, limit: CONTACT_PAGE_SIZE },
            signal,
          }),
        // Offline: full-text search in the cache (any word); segments are evaluated by the server only.
        segmentId
          ? () => Promise.reject(notCached('A segment filter'))
          : fromCache('cache.searchContacts', { search: search || undefined, cursor: pageParam, limit: CONTACT_PAGE_SIZE }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useContacts(workspaceId: string, search: string, segmentId: string | null) {
  return useInfiniteQuery(contactsQueryOptions(workspaceId, { search, segmentId }));
}
