import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, api } from '../../../lib/api-client';
import { botQueryOptions } from './get-bot';
import { botsQueryOptions } from '../../../lib/queries/bots';

/** PATCH /bot/{botId}: title, canvas (the draft), or isActive (true deploys: the server checks the canvas). */
export function patchBot(botId: string, body: ApiBody<'patchBot'>) {
  return api('patchBot', { params: { botId }, body });
}

/** The same PATCH for actions the user sees the answer of (deploy, deactivate, rename). */
export function usePatchBot(botId: string, workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'patchBot'>) => patchBot(botId, body),
    onSuccess: (bot) => {
      qc.setQueryData(botQueryOptions(botId).queryKey, bot);
      void qc.invalidateQueries({ queryKey: botsQueryOptions(workspaceId).queryKey });
    },
  });
}
