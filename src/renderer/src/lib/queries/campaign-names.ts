/**
 * Names of the campaigns that sent messages of a conversation, so live chat marks a campaign's message as the
 * campaign's rather than "Bot". Read through GET /campaign/{id} under the campaign page's own key
 * (['campaign', id]), so both share one cached copy.
 */
import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '../api-client';

/** Campaign id to name; an id missing from the map is loading or was deleted. */
export function useCampaignNames(campaignIds: readonly string[]): Map<string, string> {
  const ids = useMemo(() => [...new Set(campaignIds)].sort(), [campaignIds]);
  const results = useQueries({
    queries: ids.map((campaignId) => ({
      queryKey: ['campaign', campaignId] as const,
      queryFn: ({ signal }: { signal: AbortSignal }) => api('getCampaign', { params: { campaignId }, signal }),
      // A name rarely changes; a deleted campaign answers 404 once, not on every render.
      staleTime: 5 * 60_000,
      retry: false,
    })),
  });
  const names = results.map((r) => r.data?.name ?? null).join('\u0000');
  return useMemo(() => {
    const byId = new Map<string, string>();
    names.split('\u0000').forEach((name, i) => name && ids[i] && byId.set(ids[i], name));
    return byId;
  }, [ids, names]);
}

/** How live chat names a message's sender when a campaign sent it. */
export const campaignSenderName = (name: string | undefined) => (name ? `Campaign: ${name}` : 'Campaign');
