import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, api } from '../../../lib/api-client';
import { inviteesQueryOptions } from './get-invitees';

/** POST /invitee: invite an address with a role (the server e-mails the link). */
export function useCreateInvitee(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'createInvitee'>) => api('createInvitee', { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: inviteesQueryOptions(workspaceId).queryKey }),
  });
}
