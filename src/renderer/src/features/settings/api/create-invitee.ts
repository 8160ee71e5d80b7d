import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, api } from '../../../lib/api-client';
import { workspaceKeys } from '../../../lib/queries/session';

/** POST /invitee: invite an address with a role (the server e-mails the link). */
export function useCreateInvitee(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'createInvitee'>) => api('createInvitee', { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: workspaceKeys.list(workspaceId, 'invitees') }),
  });
}
