/** The templates list kept current from the event stream (the templates page). */
import { useQueryClient } from '@tanstack/react-query';
import type { WhatsappTemplate } from '@shared/schemas/entities';
import { templatesQueryOptions } from '../../../lib/queries/templates';
import { useWorkspaceEvents, useWorkspaceEventsReset } from '../../../lib/workspace-events';

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
