import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { campaignKeys } from './keys';

/** POST /campaign/{campaignId}/resume (addition). */
export function useResumeCampaign(campaignId: string, workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api('resumeCampaign', { params: { campaignId }, body: {} }),
    onSuccess: (campaign) => {
      qc.setQueryData(campaignKeys.detail(campaignId), campaign);
      void qc.invalidateQueries({ queryKey: campaignKeys.list(workspaceId) });
    },
  });
}
