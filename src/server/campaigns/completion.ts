/**
 * How runs and campaigns finish: snapshots written a chunk per transaction (sending starts with the first
 * recipients), runs completed when no work is left, and their campaigns with them (`campaign.updated`).
 */
import type { Executor } from '../db/client';
import * as runs from '../repositories/campaign-runs';
import * as campaignRows from '../repositories/campaigns';
import type { ServiceDeps } from '../services/context';
import { audienceOf } from '../repositories/campaign-audience';
import { foldCounts } from '../repositories/campaign-results';
import type { CanvasOf } from './canvas-cache';
import { campaignUpdated } from './events';

/** Completes the campaigns of runs just completed (those with no other run left), with their events. */
export async function completeCampaignsOf(tx: Executor, done: { campaignId: string }[]): Promise<campaignRows.CampaignRow[]> {
  const completed = await campaignRows.completeCampaigns(tx, [...new Set(done.map((x) => x.campaignId))]);
  for (const row of completed) await campaignUpdated(tx, row);
  return completed;
}

/**
 * Marks a snapshot written and completes its run when no work is left: an empty audience, or recipients the
 * claim loops finished before the snapshot's last chunk was marked, would otherwise never complete.
 */
async function finishSnapshot(tx: Executor, run: { workspaceId: string; id: string }): Promise<void> {
  await runs.markSnapshotDone(tx, run.workspaceId, run.id);
  await completeCampaignsOf(tx, await runs.completeFinishedRuns(tx, [run.id]));
}

/** A run's first chunk at most: small, so its first sends start at once; the next ones are `chunk` each. */
const firstChunk = 2000;

/**
 * Writes one chunk of an unfinished snapshot (whoever holds the run's lock); answers whether it wrote any. A chunk
 * pays a few round trips besides its rows, each slow while the claim loops keep this process busy: large chunks
 * after the first keep those few.
 */
export async function writeSnapshotChunk(d: Pick<ServiceDeps, 'db'>, canvasOf: CanvasOf, chunk: number): Promise<boolean> {
  return d.db.transaction(async (tx) => {
    const run = await runs.lockUnfinishedSnapshot(tx);
    if (!run) return false;
    const [campaign] = [...(await campaignRows.campaignsByIds(tx, [run.campaignId])).values()];
    const canvas = campaign ? canvasOf(campaign) : null;
    const audience = canvas ? await audienceOf(tx, run.workspaceId, canvas) : null;
    if (!canvas?.first || !audience) {
      await finishSnapshot(tx, run);
      return true;
    }
    // In the job, not in the deploy's request: the walk's plan needs the contacts' statistics (a bulk import just before).
    await runs.analyzeContactsIfStale(tx);
    const after = run.snapshotAfterId && run.snapshotAfterCreatedAt ? { id: run.snapshotAfterId, createdAt: run.snapshotAfterCreatedAt } : null;
    const limit = after ? chunk : Math.min(chunk, firstChunk);
    await runs.lockRecipientWrites(tx, run.workspaceId);
    const walked = await runs.snapshotChunk(tx, { workspaceId: run.workspaceId, runId: run.id, campaignId: run.campaignId, firstStepId: canvas.first, audience, limit, after });
    if (walked < limit) await finishSnapshot(tx, run);
    return true;
  });
}

/**
 * Completes running runs with nothing left to do that no claim loop completed: one whose loop skipped it while
 * another transaction held it, or two loops that finished its last recipients together. Answers how many.
 * Folds campaigns' counts first.
 */
export async function sweepFinishedRuns(d: Pick<ServiceDeps, 'db' | 'log'>): Promise<number> {
  // Counts' deltas no progress event folds (status webhooks of finished campaigns), so reads stay a few rows.
  await foldCounts(d.db.db, { limit: 100 });
  const ids = await runs.runningRunsToSweep(d.db.db);
  if (ids.length === 0) return 0;
  const completed = await d.db.transaction(async (tx) => completeCampaignsOf(tx, await runs.completeFinishedRuns(tx, ids)));
  for (const row of completed) d.log.info({ campaignId: row.id }, 'campaign completed');
  return ids.length;
}
