import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /invitee/validate by the link's token: workspace name, role, e-mail, and whether the invitee has an account. */
export const inviteQueryOptions = (inviteId: string) =>
  queryOptions({
    queryKey: ['invite', inviteId] as const,
    queryFn: ({ signal }) => api('validateInvitee', { body: { id: inviteId }, signal }),
    staleTime: 0,
  });

export function useInvite(inviteId: string) {
  return useQuery(inviteQueryOptions(inviteId));
}
