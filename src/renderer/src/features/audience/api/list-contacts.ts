/** GET /workspace/{workspaceId}/contacts: the audience, searchable and filtered by a saved segment, paged. */
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { fromCache, notCached, onlineOrCache } from '../../../lib/offline-data';
import { type ContactOrder, NEWEST_FIRST, audienceKeys } from './keys';

export const CONTACT_PAGE_SIZE = 100;

export function contactsQueryOptions(
  workspaceId: string,
  filter: { search?: string; segmentId?: string | null; optedOut?: boolean | null; order?: ContactOrder } = {},
) {
  const search = filter.search?.trim() ?? '';
  const segmentId = filter.segmentId ?? null;
  // Only contacts opted out of campaigns (true) or only those who receive them (false).
  const optedOut = filter.optedOut ?? null;
  // Newest first is the server's default: the request stays today's (and the offline cache can answer it).
  const order = filter.order ?? NEWEST_FIRST;
  const sorted = order.sort !== NEWEST_FIRST.sort || order.order !== NEWEST_FIRST.order;
  return infiniteQueryOptions({
    queryKey: audienceKeys.contactList(workspaceId, search, segmentId, optedOut, order),
    queryFn: ({ pageParam, signal }) =>
      onlineOrCache(
        () =>
          api('listContacts', {
            params: { workspaceId },
            query: {
              search: search || undefined,
              segmentId: segmentId ?? undefined,
              optedOut: optedOut === null ? undefined : optedOut ? 'true' : 'false',
              ...(sorted && { sort: order.sort, order: order.order }),
              cursor: pageParam,
              limit: CONTACT_PAGE_SIZE,
            },
            signal,
          }),
        // Offline: full-text search in the cache (any word), newest first; segments are evaluated by the server only.
        segmentId || optedOut !== null || sorted
          ? () => Promise.reject(notCached(segmentId ? 'A segment filter' : sorted ? 'Sorting the contacts' : 'The opt-out filter'))
          : fromCache('cache.searchContacts', { search: search || undefined, cursor: pageParam, limit: CONTACT_PAGE_SIZE }),
      ),
    // Another order of the same filter keeps the rows (and the header's focus) on screen until it arrives.
    placeholderData: (previous, previousQuery) =>
      previousQuery && JSON.stringify(previousQuery.queryKey.slice(0, -1)) === JSON.stringify(audienceKeys.contactList(workspaceId, search, segmentId, optedOut).slice(0, -1))
        ? previous
        : undefined,
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useContacts(workspaceId: string, search: string, segmentId: string | null, optedOut: boolean | null = null, order: ContactOrder = NEWEST_FIRST) {
  return useInfiniteQuery(contactsQueryOptions(workspaceId, { search, segmentId, optedOut, order }));
}
