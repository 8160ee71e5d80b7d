import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, api } from '../../../lib/api-client';
import { campaignKeys } from './keys';

/** POST /campaign/{campaignId}/retarget (addition): a new one-time draft for the recipients with one outcome. */
export function useRetargetCampaign(campaignId: string, workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'retargetCampaign'>) => api('retargetCampaign', { params: { campaignId }, body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: campaignKeys.list(workspaceId) }),
  });
}
