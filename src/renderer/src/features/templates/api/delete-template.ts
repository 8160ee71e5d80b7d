import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { templatesQueryOptions } from '../../../lib/queries/templates';

/** DELETE /whatsapp-template/{templateId}: here and at WhatsApp. */
export function useDeleteTemplate(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (templateId: string) => api('deleteTemplate', { params: { templateId } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: templatesQueryOptions(workspaceId).queryKey }),
  });
}
