import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /campaign/{campaignId} */
export const campaignQueryOptions = (campaignId: string) =>
  queryOptions({
    queryKey: ['campaign', campaignId] as const,
    queryFn: ({ signal }) => api('getCampaign', { params: { campaignId }, signal }),
  });

export function useCampaign(campaignId: string) {
  return useQuery(campaignQueryOptions(campaignId));
}
