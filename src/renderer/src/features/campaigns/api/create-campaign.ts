import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, api } from '../../../lib/api-client';
import { campaignsQueryOptions } from './get-campaigns';

/** POST /campaign: a draft, one-time or recurring. */
export function useCreateCampaign(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'createCampaign'>) => api('createCampaign', { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: campaignsQueryOptions(workspaceId).queryKey }),
  });
}
