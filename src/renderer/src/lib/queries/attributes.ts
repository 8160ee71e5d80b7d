import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, fetchAllPages } from '../api-client';
import { onlineOrCache } from '../offline-data';
import { workspaceKeys } from './session';

/** GET /workspace/{id}/attributes: every attribute of the workspace (settings, segments, audience). */
export const attributesQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: workspaceKeys.list(workspaceId, 'attributes'),
    queryFn: ({ signal }) =>
      onlineOrCache(
        () => fetchAllPages((cursor) => api('listAttributes', { params: { workspaceId }, query: { limit: 200, cursor }, signal })),
        // The desktop cache keeps attribute values on contacts, not the attribute list: offline, no extra columns.
        async () => [],
      ),
  });

export function useAttributes(workspaceId: string) {
  return useQuery(attributesQueryOptions(workspaceId));
}
