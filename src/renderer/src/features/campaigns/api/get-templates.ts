import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, fetchAllPages } from '../../../lib/api-client';
import { workspaceKeys } from '../../../lib/queries/session';

/** GET /workspace/{id}/whatsapp-templates: the templates a send step picks from (same cache as the templates page). */
export const campaignTemplatesQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: workspaceKeys.list(workspaceId, 'whatsapp-templates'),
    queryFn: ({ signal }) =>
      fetchAllPages((cursor) => api('listWhatsappTemplates', { params: { workspaceId }, query: { limit: 200, cursor }, signal })),
  });

export function useCampaignTemplates(workspaceId: string) {
  return useQuery(campaignTemplatesQueryOptions(workspaceId));
}
