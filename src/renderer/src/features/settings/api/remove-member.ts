import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { workspaceKeys } from '../../../lib/queries/session';

/**
 * DELETE /workspace/{workspaceId}/members/{memberId} (addition, admins): the member leaves the workspace and
 * their open conversations go back to the queue, so every list of the workspace reloads.
 */
export function useRemoveMember(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (memberId: string) => api('removeMember', { params: { workspaceId, memberId } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: workspaceKeys.all(workspaceId) }),
  });
}
