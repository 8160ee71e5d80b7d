import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { campaignKeys } from './keys';

/** GET /campaign/{campaignId} */
export const campaignQueryOptions = (campaignId: string) =>
  queryOptions({
    queryKey: campaignKeys.detail(campaignId),
    queryFn: ({ signal }) => api('getCampaign', { params: { campaignId }, signal }),
  });

export function useCampaign(campaignId: string) {
  return useQuery(campaignQueryOptions(campaignId));
}
