import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, fetchAllPages } from '../api-client';
import { workspaceKeys } from './session';

/** GET /workspace/{id}/attributes: every attribute of the workspace (settings, segments, audience). */
export const attributesQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: workspaceKeys.list(workspaceId, 'attributes'),
    queryFn: ({ signal }) =>
      fetchAllPages((cursor) => api('listAttributes', { params: { workspaceId }, query: { limit: 200, cursor }, signal })),
  });

export function useAttributes(workspaceId: string) {
  return useQuery(attributesQueryOptions(workspaceId));
}
