import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, api } from '../../../lib/api-client';
import { campaignKeys } from './keys';

/**
 * POST /campaign/{campaignId}/deploy: start now, or at `startAt` (one-time; `scheduled` until then). A 400 lists
 * every problem of the canvas; a recurring campaign's first deploy answers its trigger key (shown once).
 */
export function useDeployCampaign(campaignId: string, workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'deployCampaign'>) => api('deployCampaign', { params: { campaignId }, body: body ?? {} }),
    // The deploy dialog lists a refusal's problems itself.
    meta: { toast: false },
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: campaignKeys.detail(campaignId) }),
        qc.invalidateQueries({ queryKey: campaignKeys.list(workspaceId) }),
      ]),
  });
}
