/**
 * GET /workspace/{id}/whatsapp-templates: the one templates list (the templates page and live chat's template
 * sender both read it). Mutations invalidate templatesQueryOptions(id).queryKey.
 */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WhatsappTemplate } from '@shared/schemas/entities';
import { api, fetchAllPages } from '../../../lib/api-client';
import { workspaceKeys } from '../../../lib/queries/session';
import { useWorkspaceEvents, useWorkspaceEventsReset } from '../../../lib/workspace-events';

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

/**
 * Keeps the list current from the event stream: WhatsApp's review (template.status, from the review webhook)
 * shows without a reload; a template the list does not hold yet (synced from Meta) is added.
 */
export function useTemplateStatusUpdates(workspaceId: string) {
  const qc = useQueryClient();
  const key = templatesQueryOptions(workspaceId).queryKey;
  useWorkspaceEventsReset(workspaceId, () => void qc.invalidateQueries({ queryKey: key }));
  useWorkspaceEvents(workspaceId, (e) => {
    if (e.type !== 'template.status') return;
    const next = e.payload.template;
    qc.setQueryData<WhatsappTemplate[]>(key, (old) => {
      if (!old) return old;
      return old.some((t) => t.id === next.id) ? old.map((t) => (t.id === next.id ? next : t)) : [next, ...old];
    });
  });
}
