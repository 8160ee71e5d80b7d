import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { botQueryOptions } from './get-bot';
import { botsQueryOptions } from '../../../lib/queries/bots';

/** PATCH /bot/{botId}/connectWaba: the number the bot answers on (null disconnects). */
export function useConnectWaba(botId: string, workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (wabaAccountId: string | null) => api('connectWaba', { params: { botId }, body: { wabaAccountId } }),
    onSuccess: (bot) => {
      qc.setQueryData(botQueryOptions(botId).queryKey, bot);
      void qc.invalidateQueries({ queryKey: botsQueryOptions(workspaceId).queryKey });
    },
  });
}
