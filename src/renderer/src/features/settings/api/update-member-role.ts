import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Role } from '@shared/schemas/common';
import { api } from '../../../lib/api-client';
import { workspaceKeys } from '../../../lib/queries/session';

/**
 * PATCH /workspace/{workspaceId}/members/{memberId} (addition, admins): a member's role in the workspace. The
 * signed-in member's own role comes from /auth/me, so changing it reloads that too.
 */
export function useUpdateMemberRole(workspaceId: string, myMemberId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ memberId, role }: { memberId: string; role: Role }) =>
      api('patchMember', { params: { workspaceId, memberId }, body: { role } }),
    onSuccess: async (_member, { memberId }) => {
      if (memberId === myMemberId) await qc.invalidateQueries({ queryKey: ['me'] });
      await qc.invalidateQueries({ queryKey: workspaceKeys.all(workspaceId) });
    },
  });
}
