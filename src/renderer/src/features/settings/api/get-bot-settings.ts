import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { workspaceKeys } from '../../../lib/queries/session';

/** GET /workspace/{id}/bot-settings: the From address of the workspace's bot e-mails (null: the server's default). */
export const botSettingsQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: workspaceKeys.list(workspaceId, 'bot-settings'),
    queryFn: ({ signal }) => api('getBotSettings', { params: { workspaceId }, signal }),
  });

export function useBotSettings(workspaceId: string) {
  return useQuery(botSettingsQueryOptions(workspaceId));
}
