/**
 * Scheduled starts and timed resumes. Their times are columns of the campaign (`scheduled_at`, `resume_at`),
 * written in the transaction of the deploy or pause that sets them, so nothing is lost between a commit and a
 * queue. Found by a sweep (each runner's, at boot and every minute) and, on time, by the `campaigns.due` job the
 * deploy or pause queues: whoever runs first starts them, in chunks locked with FOR UPDATE SKIP LOCKED (each
 * campaign once across processes), with no cap per sweep.
 */
import type { Executor } from '../db/client';
import * as runs from '../repositories/campaign-runs';
import * as campaignRows from '../repositories/campaigns';
import type { ServiceDeps } from '../services/context';
import { campaignUpdated } from './events';

/** Campaigns one transaction of the sweep starts. */
const chunk = 100;

/** Starts a one-time campaign now: its run, whose recipients the runner snapshots chunk by chunk. */
export async function startOneTime(tx: Executor, row: campaignRows.CampaignRow): Promise<campaignRows.CampaignRow> {
  await runs.insertRun(tx, { workspaceId: row.workspaceId, campaignId: row.id, snapshotDone: false });
  return campaignRows.updateCampaign(tx, row.workspaceId, row.id, { status: 'inProgress', scheduledAt: null });
}

/** One chunk: due scheduled campaigns started, due paused ones resumed. Answers how many moved. */
function dueChunk(d: Pick<ServiceDeps, 'db'>): Promise<number> {
  return d.db.transaction(async (tx) => {
    const out: campaignRows.CampaignRow[] = [];
    for (const c of await campaignRows.lockDueCampaigns(tx, 'scheduled', chunk)) out.push(await startOneTime(tx, c));
    for (const c of await campaignRows.lockDueCampaigns(tx, 'resume', chunk)) {
      await runs.setRunsStatus(tx, c.workspaceId, c.id, 'paused', 'running');
      out.push(await campaignRows.updateCampaign(tx, c.workspaceId, c.id, { status: c.type === 'oneTime' ? 'inProgress' : 'active', resumeAt: null }));
    }
    for (const row of out) await campaignUpdated(tx, row);
    return out.length;
  });
}

/** Every due campaign, chunk after chunk until none is left; answers how many this process moved. */
export async function runDueSchedules(d: Pick<ServiceDeps, 'db'>): Promise<number> {
  let total = 0;
  for (let n = await dueChunk(d); n > 0; n = await dueChunk(d)) total += n;
  return total;
}
