import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { inviteesQueryOptions } from './get-invitees';

/** DELETE /invitee/{id}: revoke an open invitation. */
export function useDeleteInvitee(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api('deleteInvitee', { params: { id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: inviteesQueryOptions(workspaceId).queryKey }),
  });
}
