import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { whatsappAccountsQueryOptions } from '../../../lib/queries/whatsapp-accounts';

/** POST /whatsapp/{id}/health (addition): the number's quality rating, limit tier and throughput, read from Meta now. */
export function useRefreshNumberHealth(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api('refreshWhatsappHealth', { params: { id }, body: {} }),
    onSuccess: () => qc.invalidateQueries({ queryKey: whatsappAccountsQueryOptions(workspaceId).queryKey }),
  });
}
