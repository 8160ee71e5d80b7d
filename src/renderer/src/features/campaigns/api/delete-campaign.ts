import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { campaignsQueryOptions } from './get-campaigns';

/** DELETE /campaign/{campaignId} */
export function useDeleteCampaign(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (campaignId: string) => api('deleteCampaign', { params: { campaignId } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: campaignsQueryOptions(workspaceId).queryKey }),
  });
}
