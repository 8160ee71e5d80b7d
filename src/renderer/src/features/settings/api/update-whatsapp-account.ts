import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, api } from '../../../lib/api-client';
import { whatsappAccountsQueryOptions } from '../../../lib/queries/whatsapp-accounts';

/** PATCH /whatsapp/{id}: a new token (checked with the Graph API) or the number's send rate. */
export function useUpdateWhatsappAccount(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ApiBody<'patchWhatsappAccount'> }) => api('patchWhatsappAccount', { params: { id }, body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: whatsappAccountsQueryOptions(workspaceId).queryKey }),
  });
}
