import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { campaignKeys } from './keys';

/** POST /campaign/{campaignId}/trigger-key (addition): a new key, shown once; the old one stops working. */
export function useRotateTriggerKey(campaignId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api('rotateCampaignTriggerKey', { params: { campaignId }, body: {} }),
    onSuccess: () => qc.invalidateQueries({ queryKey: campaignKeys.detail(campaignId) }),
  });
}
