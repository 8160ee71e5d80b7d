import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { campaignKeys } from './keys';

/** POST /campaign/{campaignId}/cancel-schedule (addition): a scheduled campaign goes back to draft. */
export function useCancelCampaignSchedule(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (campaignId: string) => api('cancelCampaignSchedule', { params: { campaignId }, body: {} }),
    onSuccess: (campaign) => {
      qc.setQueryData(campaignKeys.detail(campaign.id), campaign);
      void qc.invalidateQueries({ queryKey: campaignKeys.list(workspaceId) });
    },
  });
}
