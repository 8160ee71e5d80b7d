import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, api } from '../../../lib/api-client';
import { workspaceKeys } from '../../../lib/queries/session';

/** POST /campaign: a draft, one-time or recurring. */
export function useCreateCampaign(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'createCampaign'>) => api('createCampaign', { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: workspaceKeys.list(workspaceId, 'campaigns') }),
  });
}
