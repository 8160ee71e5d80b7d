import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { workspaceKeys } from '../../../lib/queries/session';

/** GET /workspace/{id}/campaign-settings: opt-out keywords, the fallback time zone, the opt-out confirmation. */
export const campaignSettingsQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: workspaceKeys.list(workspaceId, 'campaign-settings'),
    queryFn: ({ signal }) => api('getCampaignSettings', { params: { workspaceId }, signal }),
  });

export function useCampaignSettings(workspaceId: string) {
  return useQuery(campaignSettingsQueryOptions(workspaceId));
}
