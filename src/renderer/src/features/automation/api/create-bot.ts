import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, api } from '../../../lib/api-client';
import { botsQueryOptions } from '../../../lib/queries/bots';

/** POST /bot: a new bot with a start node. */
export function useCreateBot(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'createBot'>) => api('createBot', { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: botsQueryOptions(workspaceId).queryKey }),
  });
}
