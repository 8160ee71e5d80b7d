import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, api } from '../../../lib/api-client';
import { campaignSettingsQueryOptions } from './get-campaign-settings';

/** PATCH /workspace/{id}/campaign-settings (admin) */
export function useUpdateCampaignSettings(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'patchCampaignSettings'>) => api('patchCampaignSettings', { params: { workspaceId }, body }),
    onSuccess: (saved) => qc.setQueryData(campaignSettingsQueryOptions(workspaceId).queryKey, saved),
  });
}
