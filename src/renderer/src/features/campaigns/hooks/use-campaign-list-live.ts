import { useQueryClient } from '@tanstack/react-query';
import type { CampaignListEntry } from '@shared/schemas/entities';
import { useWorkspaceEvents } from '../../../lib/workspace-events';
import { campaignKeys } from '../api/keys';

/** The campaigns list follows `campaign.updated` (status, name) and `campaign.progress` (counts) live. */
export function useCampaignListLive(workspaceId: string) {
  const qc = useQueryClient();
  useWorkspaceEvents(workspaceId, (e) => {
    if (e.type === 'campaign.updated') {
      const next = e.payload.campaign;
      qc.setQueryData<CampaignListEntry[]>(campaignKeys.list(workspaceId), (old) => {
        if (!old) return old;
        return old.some((c) => c.id === next.id) ? old.map((c) => (c.id === next.id ? next : c)) : [next, ...old];
      });
    } else if (e.type === 'campaign.progress') {
      const { campaignId, counts } = e.payload;
      qc.setQueryData<CampaignListEntry[]>(campaignKeys.list(workspaceId), (old) => old?.map((c) => (c.id === campaignId ? { ...c, counts } : c)));
    }
  });
}
