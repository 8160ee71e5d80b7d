import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /campaign/{campaignId}/estimate (addition): the cost by recipients' countries and what to know first. */
export function useCampaignEstimate(campaignId: string) {
  return useQuery({
    queryKey: ['campaign', campaignId, 'estimate'],
    queryFn: ({ signal }) => api('getCampaignEstimate', { params: { campaignId }, signal }),
  });
}
