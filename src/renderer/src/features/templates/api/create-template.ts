import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, api } from '../../../lib/api-client';
import { templatesQueryOptions } from '../../../lib/queries/templates';

/** POST /whatsapp-template: submits the template to WhatsApp for review. */
export function useCreateTemplate(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'createTemplate'>) => api('createTemplate', { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: templatesQueryOptions(workspaceId).queryKey }),
  });
}
