import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { campaignKeys } from './keys';

/** GET /campaign/{campaignId}/results (addition): counts and sends over time. */
export const campaignResultsQueryOptions = (campaignId: string) =>
  queryOptions({
    queryKey: campaignKeys.results(campaignId),
    queryFn: ({ signal }) => api('getCampaignResults', { params: { campaignId }, signal }),
  });

/** While a campaign runs its counts are also re-read now and then, in case an event was missed. */
export const RESULTS_POLL_MS = 5000;

export function useCampaignResults(campaignId: string, running: boolean) {
  return useQuery({ ...campaignResultsQueryOptions(campaignId), refetchInterval: running ? RESULTS_POLL_MS : false });
}
