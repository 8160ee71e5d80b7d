/**
 * Campaign events on the workspace stream: `campaign.updated` when a campaign changes state, and
 * `campaign.progress` with its counts while it runs, at most one a second per campaign (per process: a
 * trailing event follows the last change of a burst, so the final counts are always sent). The counts are kept
 * by the database as recipients and log lines change (campaign_counts): a progress event folds the campaign's
 * new deltas and sums a few rows, it does not count the recipients.
 */
import { limits } from '../../shared/limits';
import type { CampaignListEntry } from '../../shared/schemas/entities';
import type { Executor } from '../db/client';
import * as logs from '../repositories/campaign-logs';
import { countsOf, emptyCounts, foldCounts } from '../repositories/campaign-results';
import type { CampaignRow } from '../repositories/campaigns';
import { toCampaign } from '../repositories/resources';
import { appendEvents } from '../repositories/event-log';
import type { ServiceDeps } from '../services/context';

/** A campaign as the list shows it: newest logs, log counts and results counts. */
export async function listEntryOf(ex: Executor, row: CampaignRow): Promise<CampaignListEntry> {
  // One after another: `ex` is often a transaction, whose client runs one statement at a time.
  const latest = await logs.latestLogsOf(ex, row.workspaceId, [row.id], limits.campaignListLogs);
  const counts = await logs.logCountsOf(ex, row.workspaceId, [row.id]);
  const results = await countsOf(ex, row.workspaceId, [row.id]);
  return {
    ...toCampaign(row),
    CampaignLogs: latest.get(row.id) ?? [],
    logCounts: counts.get(row.id) ?? { success: 0, failed: 0 },
    counts: results.get(row.id) ?? emptyCounts(),
  };
}

/** Appends `campaign.updated` in the caller's transaction (call it last there). */
export async function campaignUpdated(tx: Executor, row: CampaignRow): Promise<void> {
  await appendEvents(tx, row.workspaceId, [{ type: 'campaign.updated', payload: { campaign: await listEntryOf(tx, row) } }]);
}

export function createProgress(d: Pick<ServiceDeps, 'db' | 'log'>, intervalMs = limits.campaign.progressEventMs) {
  const last = new Map<string, number>();
  const timers = new Map<string, NodeJS.Timeout>();

  async function emit(workspaceId: string, campaignId: string) {
    last.set(campaignId, Date.now());
    await d.db.transaction(async (tx) => {
      await foldCounts(tx, { workspaceId, campaignIds: [campaignId] });
      const counts = (await countsOf(tx, workspaceId, [campaignId])).get(campaignId) ?? emptyCounts();
      await appendEvents(tx, workspaceId, [{ type: 'campaign.progress', payload: { campaignId, counts } }]);
    });
  }

  return {
    /** The campaign's counts changed: an event now, or one when its second is over. */
    changed(workspaceId: string, campaignId: string): void {
      if (timers.has(campaignId)) return;
      const wait = Math.max(0, (last.get(campaignId) ?? 0) + intervalMs - Date.now());
      const timer = setTimeout(() => {
        timers.delete(campaignId);
        emit(workspaceId, campaignId).catch((err) => d.log.warn({ err, campaignId }, 'campaign progress event not sent'));
      }, wait);
      timer.unref();
      timers.set(campaignId, timer);
    },
    stop(): void {
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
    },
  };
}
export type Progress = ReturnType<typeof createProgress>;
