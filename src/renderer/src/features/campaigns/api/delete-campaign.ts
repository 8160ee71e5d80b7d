import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { workspaceKeys } from '../../../lib/queries/session';

/** DELETE /campaign/{campaignId} */
export function useDeleteCampaign(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (campaignId: string) => api('deleteCampaign', { params: { campaignId } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: workspaceKeys.list(workspaceId, 'campaigns') }),
  });
}
