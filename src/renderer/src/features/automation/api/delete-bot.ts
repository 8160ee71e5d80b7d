import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { botsQueryOptions } from '../../../lib/queries/bots';

/** DELETE /bot/{botId} */
export function useDeleteBot(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (botId: string) => api('deleteBot', { params: { botId } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: botsQueryOptions(workspaceId).queryKey }),
  });
}
