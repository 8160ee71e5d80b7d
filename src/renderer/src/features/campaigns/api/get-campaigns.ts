import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, fetchAllPages } from '../../../lib/api-client';
import { workspaceKeys } from '../../../lib/queries/session';

/** GET /workspace/{id}/campaigns (with their logs) */
export const campaignsQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: workspaceKeys.list(workspaceId, 'campaigns'),
    queryFn: ({ signal }) =>
      fetchAllPages((cursor) => api('listCampaigns', { params: { workspaceId }, query: { limit: 200, cursor }, signal })),
  });

export function useCampaigns(workspaceId: string) {
  return useQuery(campaignsQueryOptions(workspaceId));
}
