import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { CampaignOutcome } from '@shared/schemas/campaign-canvas';
import { api } from '../../../lib/api-client';
import { campaignKeys } from './keys';

export const LOGS_PAGE_SIZE = 100;

/** GET /campaign/{campaignId}/logs (addition): log lines newest first, a page at a time, filtered by outcome. */
export const campaignLogsQueryOptions = (campaignId: string, status: CampaignOutcome | undefined) =>
  infiniteQueryOptions({
    queryKey: campaignKeys.logs(campaignId, status),
    queryFn: ({ pageParam, signal }) =>
      api('listCampaignLogs', { params: { campaignId }, query: { limit: LOGS_PAGE_SIZE, cursor: pageParam ?? undefined, status }, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export function useCampaignLogs(campaignId: string, status: CampaignOutcome | undefined, enabled = true) {
  return useInfiniteQuery({ ...campaignLogsQueryOptions(campaignId, status), enabled });
}
