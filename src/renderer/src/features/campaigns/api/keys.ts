import { workspaceKeys } from '../../../lib/queries/session';

/** Query keys of the campaigns feature. A campaign's own data sits under ['campaign', id]. */
export const campaignKeys = {
  detail: (campaignId: string) => ['campaign', campaignId] as const,
  results: (campaignId: string) => ['campaign', campaignId, 'results'] as const,
  logs: (campaignId: string, status: string | undefined) => ['campaign', campaignId, 'logs', status ?? 'all'] as const,
  list: (workspaceId: string) => workspaceKeys.list(workspaceId, 'campaigns'),
};
