import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { audienceKeys } from './keys';

/**
 * GET /workspace/{id}/contacts/count (addition): the exact total of the list's filter, asked only when the
 * loaded pages do not tell it already (more pages to load).
 */
export function useContactCount(workspaceId: string, filter: { search: string; segmentId: string | null; optedOut: boolean | null }, enabled: boolean) {
  return useQuery({
    queryKey: [...audienceKeys.contactList(workspaceId, filter.search, filter.segmentId, filter.optedOut), 'count'],
    queryFn: ({ signal }) =>
      api('countContacts', {
        params: { workspaceId },
        query: {
          search: filter.search || undefined,
          segmentId: filter.segmentId ?? undefined,
          optedOut: filter.optedOut === null ? undefined : filter.optedOut ? 'true' : 'false',
        },
        signal,
      }),
    enabled,
  });
}
