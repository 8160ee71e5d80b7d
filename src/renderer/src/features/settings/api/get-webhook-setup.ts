/** GET /workspace/{workspaceId}/whatsapp-webhook (addition): callback URL, verify token, last verification. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const webhookSetupQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: ['workspace', workspaceId, 'whatsapp-webhook'] as const,
    queryFn: ({ signal }) => api('getWebhookSetup', { params: { workspaceId }, signal }),
  });

export function useWebhookSetup(workspaceId: string, enabled: boolean) {
  return useQuery({ ...webhookSetupQueryOptions(workspaceId), enabled });
}
