import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /bot/{botId} */
export const botQueryOptions = (botId: string) =>
  queryOptions({
    queryKey: ['bot', botId] as const,
    queryFn: ({ signal }) => api('getBot', { params: { botId }, signal }),
  });

export function useBot(botId: string) {
  return useQuery(botQueryOptions(botId));
}
