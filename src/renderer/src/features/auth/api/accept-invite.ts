import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useAuthStore } from '../../../stores/auth-store';

/** POST /invitee/accept (addition): a signed-in user joins the invitation's workspace, which becomes current. */
export function useAcceptInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api('acceptInvitee', { body: { token } }),
    onSuccess: async (me) => {
      useAuthStore.getState().setMember(me);
      queryClient.setQueryData(['me'], me);
      await queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'me' });
    },
  });
}
