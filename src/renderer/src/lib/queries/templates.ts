/**
 * GET /workspace/{id}/whatsapp-templates: the one templates list (the templates page, live chat's template
 * sender and a campaign's send step read it). Mutations invalidate templatesQueryOptions(id).queryKey.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, fetchAllPages } from '../api-client';
import { workspaceKeys } from './session';

export const templatesQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: workspaceKeys.list(workspaceId, 'whatsapp-templates'),
    queryFn: ({ signal }) =>
      fetchAllPages((cursor) => api('listWhatsappTemplates', { params: { workspaceId }, query: { limit: 200, cursor }, signal })),
  });

export function useTemplates(workspaceId: string) {
  return useQuery(templatesQueryOptions(workspaceId));
}

/** The approved templates: what may be sent outside the 24-hour window. */
export function useApprovedTemplates(workspaceId: string, enabled = true) {
  return useQuery({
    ...templatesQueryOptions(workspaceId),
    enabled,
    select: (all) => all.filter((t) => t.status.toUpperCase() === 'APPROVED'),
  });
}
