/**
 * GET /bot/{botId}/versions (addition): published versions, newest first; POST .../versions/{id}/restore makes
 * one the draft; POST /bot/{botId}/discardChanges puts the published version back as the draft.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { botQueryOptions } from './get-bot';

export const botVersionsQueryOptions = (botId: string) =>
  queryOptions({
    queryKey: ['bot', botId, 'versions'] as const,
    queryFn: ({ signal }) => api('listBotVersions', { params: { botId }, signal }),
  });

export function useBotVersions(botId: string, enabled = true) {
  return useQuery({ ...botVersionsQueryOptions(botId), enabled });
}

export function useRestoreBotVersion(botId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (versionId: string) => api('restoreBotVersion', { params: { botId, versionId }, body: {} }),
    onSuccess: (bot) => qc.setQueryData(botQueryOptions(botId).queryKey, bot),
  });
}

export function useDiscardBotChanges(botId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api('discardBotChanges', { params: { botId }, body: {} }),
    onSuccess: (bot) => qc.setQueryData(botQueryOptions(botId).queryKey, bot),
  });
}
