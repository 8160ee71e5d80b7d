import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import type { Campaign, CampaignResults } from '@shared/schemas/entities';
import { useWorkspaceEvents } from '../../../lib/workspace-events';
import { campaignKeys } from '../api/keys';

/** Log pages are refetched at most this often while a campaign runs (progress events come once a second). */
const LOGS_REFRESH_MS = 3000;

/**
 * Keeps an open campaign live: `campaign.updated` replaces its state (deployed, paused, completed, renamed),
 * `campaign.progress` its counts; the chart and the log pages follow, the logs at most every few seconds.
 */
export function useCampaignLive(workspaceId: string, campaignId: string) {
  const qc = useQueryClient();
  const lastLogs = useRef(0);
  const refreshLater = useRef<ReturnType<typeof setTimeout> | null>(null);
  const refreshLogs = () => {
    const wait = LOGS_REFRESH_MS - (Date.now() - lastLogs.current);
    if (refreshLater.current) return;
    refreshLater.current = setTimeout(() => {
      refreshLater.current = null;
      lastLogs.current = Date.now();
      void qc.invalidateQueries({ queryKey: ['campaign', campaignId, 'logs'] });
      void qc.invalidateQueries({ queryKey: campaignKeys.results(campaignId) });
    }, Math.max(0, wait));
  };
  useWorkspaceEvents(workspaceId, (e) => {
    if (e.type === 'campaign.updated' && e.payload.campaign.id === campaignId) {
      const { CampaignLogs: _l, logCounts: _c, counts, ...campaign } = e.payload.campaign;
      qc.setQueryData<Campaign>(campaignKeys.detail(campaignId), (old) => (old ? { ...old, ...campaign, rfInstance: old.rfInstance } : old));
      qc.setQueryData<CampaignResults>(campaignKeys.results(campaignId), (old) => (old ? { ...old, counts } : old));
      refreshLogs();
    } else if (e.type === 'campaign.progress' && e.payload.campaignId === campaignId) {
      qc.setQueryData<CampaignResults>(campaignKeys.results(campaignId), (old) => (old ? { ...old, counts: e.payload.counts } : old));
      refreshLogs();
    }
  });
}
