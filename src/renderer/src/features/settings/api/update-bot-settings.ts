import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, api } from '../../../lib/api-client';
import { botSettingsQueryOptions } from './get-bot-settings';

/** PATCH /workspace/{id}/bot-settings (admin) */
export function useUpdateBotSettings(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'patchBotSettings'>) => api('patchBotSettings', { params: { workspaceId }, body }),
    onSuccess: (saved) => qc.setQueryData(botSettingsQueryOptions(workspaceId).queryKey, saved),
  });
}
