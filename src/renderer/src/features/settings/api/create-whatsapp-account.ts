import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, api } from '../../../lib/api-client';
import { whatsappAccountsQueryOptions } from '../../../lib/queries/whatsapp-accounts';

/** POST /whatsapp: connect a number (the server checks the credentials with the Graph API). */
export function useCreateWhatsappAccount(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'createWhatsappAccount'>) => api('createWhatsappAccount', { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: whatsappAccountsQueryOptions(workspaceId).queryKey }),
  });
}
