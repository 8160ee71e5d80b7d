/** GET /workspace/{workspaceId}/whatsapp-templates: what may be sent outside the 24-hour window (approved ones). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, fetchAllPages } from '../../../lib/api-client';
import { liveChatKeys } from './keys';

export function templatesQueryOptions(workspaceId: string) {
  return queryOptions({
    queryKey: liveChatKeys.templates(workspaceId),
    queryFn: ({ signal }) =>
      fetchAllPages((cursor) => api('listWhatsappTemplates', { params: { workspaceId }, query: { cursor, limit: 200 }, signal }), 5),
    staleTime: 30_000,
  });
}

export function useApprovedTemplates(workspaceId: string, enabled = true) {
  return useQuery({
    ...templatesQueryOptions(workspaceId),
    enabled,
    select: (all) => all.filter((t) => t.status.toUpperCase() === 'APPROVED'),
  });
}
