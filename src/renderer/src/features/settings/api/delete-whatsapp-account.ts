import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { whatsappAccountsQueryOptions } from '../../../lib/queries/whatsapp-accounts';

/** DELETE /whatsapp/{id} */
export function useDeleteWhatsappAccount(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api('deleteWhatsappAccount', { params: { id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: whatsappAccountsQueryOptions(workspaceId).queryKey }),
  });
}
