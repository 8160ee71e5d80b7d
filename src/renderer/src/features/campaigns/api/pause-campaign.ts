import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, api } from '../../../lib/api-client';
import { campaignKeys } from './keys';

/** POST /campaign/{campaignId}/pause (addition); with `resumeAt` it resumes by itself then. */
export function usePauseCampaign(campaignId: string, workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'pauseCampaign'>) => api('pauseCampaign', { params: { campaignId }, body: body ?? {} }),
    onSuccess: (campaign) => {
      qc.setQueryData(campaignKeys.detail(campaignId), campaign);
      void qc.invalidateQueries({ queryKey: campaignKeys.list(workspaceId) });
    },
  });
}
