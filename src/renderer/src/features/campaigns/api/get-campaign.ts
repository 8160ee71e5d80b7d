import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { campaignKeys } from './keys';

/** GET /campaign/{campaignId} */
export const campaignQueryOptions = (campaignId: string) =>
  queryOptions({
    queryKey: campaignKeys.detail(campaignId),
    queryFn: ({ signal }) => api('getCampaign', { params: { campaignId }, signal }),
  });

/** While it runs, re-read now and then too: a halt right after deploy can land before the deploy's own re-read. */
const RUNNING_POLL_MS = 5000;

export function useCampaign(campaignId: string) {
  return useQuery({
    ...campaignQueryOptions(campaignId),
    refetchInterval: (q) => (q.state.data?.status === 'inProgress' || q.state.data?.status === 'active' ? RUNNING_POLL_MS : false),
  });
}
