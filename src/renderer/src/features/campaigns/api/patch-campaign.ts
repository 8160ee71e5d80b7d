import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, api } from '../../../lib/api-client';
import { campaignKeys } from './keys';

/** PATCH /campaign/{campaignId}: rename, or save the canvas (a draft; 409 once deployed). */
export function patchCampaign(campaignId: string, body: ApiBody<'patchCampaign'>) {
  return api('patchCampaign', { params: { campaignId }, body });
}

export function useRenameCampaign(campaignId: string, workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => patchCampaign(campaignId, { name }),
    onSuccess: (campaign) => {
      qc.setQueryData(campaignKeys.detail(campaignId), campaign);
      void qc.invalidateQueries({ queryKey: campaignKeys.list(workspaceId) });
    },
  });
}
