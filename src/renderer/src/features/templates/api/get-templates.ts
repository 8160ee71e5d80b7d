import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, fetchAllPages } from '../../../lib/api-client';
import { workspaceKeys } from '../../../lib/queries/session';

/** GET /workspace/{id}/whatsapp-templates */
export const templatesQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: workspaceKeys.list(workspaceId, 'whatsapp-templates'),
    queryFn: ({ signal }) =>
      fetchAllPages((cursor) => api('listWhatsappTemplates', { params: { workspaceId }, query: { limit: 200, cursor }, signal })),
  });

export function useTemplates(workspaceId: string) {
  return useQuery(templatesQueryOptions(workspaceId));
}
