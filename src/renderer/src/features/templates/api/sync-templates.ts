import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { api } from '../../../lib/api-client';
import { templatesQueryOptions } from '../../../lib/queries/templates';

/**
 * POST /workspace/{id}/whatsapp-templates/sync (addition): the templates the workspace's numbers have at Meta,
 * listed here (statuses updated, templates made in WhatsApp Manager added).
 */
export function useSyncTemplates(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api('syncTemplates', { params: { workspaceId }, body: {} }),
    onSuccess: ({ updated, imported }) => {
      const parts = [imported > 0 && `${imported} added`, updated > 0 && `${updated} updated`].filter(Boolean);
      toast.success(parts.length > 0 ? `Templates synced from WhatsApp: ${parts.join(', ')}` : 'Templates are up to date with WhatsApp');
      return qc.invalidateQueries({ queryKey: templatesQueryOptions(workspaceId).queryKey });
    },
  });
}
