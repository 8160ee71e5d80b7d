/** GET /workspace/{workspaceId}/import-history (addition): past and running imports, newest first. */
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { audienceKeys } from './keys';

export function importHistoryQueryOptions(workspaceId: string) {
  return infiniteQueryOptions({
    queryKey: audienceKeys.imports(workspaceId),
    queryFn: ({ pageParam, signal }) =>
      api('listImportHistory', { params: { workspaceId }, query: { cursor: pageParam, limit: 50 }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useImportHistory(workspaceId: string) {
  return useInfiniteQuery(importHistoryQueryOptions(workspaceId));
}
