import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { campaignKeys } from './keys';

/** GET /campaign/{campaignId}/results (addition): counts and sends over time. */
export const campaignResultsQueryOptions = (campaignId: string) =>
  queryOptions({
    queryKey: campaignKeys.results(campaignId),
    queryFn: ({ signal }) => api('getCampaignResults', { params: { campaignId }, signal }),
  });

export function useCampaignResults(campaignId: string, enabled = true) {
  return useQuery({ ...campaignResultsQueryOptions(campaignId), enabled });
}
