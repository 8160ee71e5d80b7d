import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { workspaceKeys } from '../../../lib/queries/session';

/** DELETE /bot/{botId} */
export function useDeleteBot(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (botId: string) => api('deleteBot', { params: { botId } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: workspaceKeys.list(workspaceId, 'bots') }),
  });
}
