import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, fetchAllPages } from '../api-client';
import { workspaceKeys } from './session';

/** GET /workspace/{id}/whatsapp: the workspace's WhatsApp numbers (tokens masked by the server). */
export const whatsappAccountsQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: workspaceKeys.list(workspaceId, 'whatsapp'),
    queryFn: ({ signal }) =>
      fetchAllPages((cursor) => api('listWhatsappAccounts', { params: { workspaceId }, query: { limit: 200, cursor }, signal })),
  });

export function useWhatsappAccounts(workspaceId: string) {
  return useQuery(whatsappAccountsQueryOptions(workspaceId));
}
