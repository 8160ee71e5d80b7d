import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /whatsapp-flow/{whatsappAccountId}: the flows of the bot's number, for the WhatsApp Flow node. */
export const whatsappFlowsQueryOptions = (whatsappAccountId: string) =>
  queryOptions({
    queryKey: ['whatsapp-flows', whatsappAccountId] as const,
    queryFn: ({ signal }) => api('listWhatsappFlows', { params: { whatsappAccountId }, signal }),
    staleTime: 60_000,
  });

export function useWhatsappFlows(whatsappAccountId: string | null) {
  return useQuery({ ...whatsappFlowsQueryOptions(whatsappAccountId ?? ''), enabled: !!whatsappAccountId });
}
