/**
 * One batch of the claim loops: claims due recipients (FOR UPDATE SKIP LOCKED, with a lease), runs each one's
 * step per workspace (reads first, then the sends, no transaction open), then records the recipients' moves, the
 * log lines and the runs and campaigns that finished, set-based in one transaction per workspace.
 */
import * as runs from '../repositories/campaign-runs';
import * as campaignContacts from '../repositories/campaign-contacts';
import * as campaignRows from '../repositories/campaigns';
import * as logLines from '../repositories/campaign-logs';
import * as settingsRepo from '../repositories/campaign-settings';
import { stateOfKey } from '../repositories/outbound-sends';
import { coalesced } from '../messaging/coalesce';
import type { ClaimedRecipient } from '../repositories/campaign-runs';
import * as r from '../repositories/resources';
import type { ServiceDeps } from '../services/context';
import type { CanvasOf } from './canvas-cache';
import { completeCampaignsOf } from './completion';
import type { Progress } from './events';
import { type BatchContext, type Outcome, type StepDeps, runRecipientStep } from './recipient-step';
import { noticeHalts } from './halt-notices';
import { type AppliedHalt, countHalts } from './halts';
import { type PortfolioTurns, portfolioBudget } from './portfolio-budget';
import { applyOutcomeEffects } from './send-outcomes';

export interface BatchDeps extends Omit<StepDeps, 'stillClaimed' | 'sendState'>, Pick<ServiceDeps, 'db' | 'log' | 'identity' | 'mailer' | 'metrics'> {
  progress: Pick<Progress, 'changed'>;
  canvasOf: CanvasOf;
  portfolioTurns: PortfolioTurns;
}

/**
 * What the workspace's recipients share: its time zone, attribute names and templates (each read once), and the
 * room in its portfolio's messaging limit (counted once, when the first send is about to go).
 */
async function batchContextOf(b: BatchDeps, workspaceId: string, claimed: ClaimedRecipient[]): Promise<BatchContext> {
  const db = b.db.db;
  const [settings, attributeNames] = await Promise.all([settingsRepo.campaignSettingsOf(db, workspaceId), campaignContacts.attributeNamesOf(db, workspaceId)]);
  const templates = new Map<string, ReturnType<typeof r.whatsappTemplates.get>>();
  return {
    timeZone: settings.timeZone,
    skipUsMarketing: settings.skipUsMarketing,
    attributeNames,
    portfolio: portfolioBudget(db, workspaceId, [...new Set(claimed.map((c) => c.contactId))], b.now(), b.portfolioTurns),
    template: (id) => {
      if (!templates.has(id)) templates.set(id, r.whatsappTemplates.get(b.db.db, workspaceId, id));
      return templates.get(id)!;
    },
  };
}

/**
 * Records the batch's outcomes and completes what they finished; answers the campaigns completed. Recipients a
 * delete took meanwhile (their campaign, their contact) are left out: the others of the batch are written.
 */
async function recordOutcomes(b: BatchDeps, workspaceId: string, claimed: ClaimedRecipient[], outcomes: Outcome[]): Promise<{ finished: campaignRows.CampaignRow[]; halts: AppliedHalt[] }> {
  return b.db.transaction(async (tx) => {
    const existing = await runs.lockExistingRecipients(tx, [...new Set(claimed.map((c) => c.campaignId))], claimed.map((c) => c.id));
    await logLines.upsertLogs(tx, workspaceId, outcomes.flatMap((o) => (o.log && existing.has(o.log.recipientId) ? [o.log] : [])));
    await runs.moveRecipients(tx, workspaceId, outcomes.flatMap((o) => (o.move ? [o.move] : [])));
    const halts = await applyOutcomeEffects(tx, workspaceId, outcomes, b.canvasOf);
    for (const h of halts) b.log.warn({ campaignIds: h.campaigns.map((c) => c.id), code: h.code, scope: h.scope }, 'campaigns halted by WhatsApp');
    // Not waiting for a run another transaction holds (a snapshot chunk can take seconds): the sweep completes it.
    const done = await runs.completeFinishedRuns(tx, [...new Set(claimed.map((c) => c.runId))], { wait: false });
    return { finished: await completeCampaignsOf(tx, done), halts };
  });
}

/** Runs the steps of one workspace's claimed recipients and writes what happened. */
async function runWorkspace(b: BatchDeps, workspaceId: string, claimed: ClaimedRecipient[]): Promise<void> {
  const db = b.db.db;
  const [contacts, campaigns, ctx] = await Promise.all([
    campaignContacts.contactsByIds(db, workspaceId, claimed.map((c) => c.contactId)),
    campaignRows.campaignsByIds(db, [...new Set(claimed.map((c) => c.campaignId))]),
    batchContextOf(b, workspaceId, claimed),
  ]);
  const canvasOf = (id: string) => {
    const campaign = campaigns.get(id);
    return campaign ? b.canvasOf(campaign) : null;
  };
  const step: StepDeps = {
    ...b,
    // The sends whose slots came while one check was under way are checked together by the next.
    stillClaimed: coalesced<string, boolean>(
      () => workspaceId,
      async (_, ids) => {
        const claimedNow = await runs.stillClaimedAmong(db, ids);
        return ids.map((id) => ({ value: claimedNow.has(id) }));
      },
    ),
    sendState: (ws, key) => stateOfKey(db, ws, key),
  };
  // The portfolio's turn (taken by the first send's count) ends once the batch's sends are written.
  const { finished, halts } = await (async () => {
    try {
      const outcomes = await Promise.all(claimed.map((c) => runRecipientStep(step, c, canvasOf(c.campaignId), contacts.get(c.contactId), ctx)));
      return await recordOutcomes(b, workspaceId, claimed, outcomes);
    } finally {
      ctx.portfolio.release();
    }
  })();
  countHalts(b.metrics, halts);
  await noticeHalts(b, workspaceId, halts);
  for (const id of new Set(claimed.map((c) => c.campaignId))) b.progress.changed(workspaceId, id);
  for (const row of finished) b.log.info({ campaignId: row.id }, 'campaign completed');
}

/**
 * One claim and its sends; answers how many recipients it took. The claims' lease is renewed every quarter of
 * it while the batch runs, so a short lease is safe: a live process keeps its claims however long its sends
 * take, and a dead one's are free again within one lease.
 */
export async function runBatch(b: BatchDeps, batchSize: number, leaseMs: number): Promise<number> {
  const claimed = await runs.claimDue(b.db.db, batchSize, leaseMs);
  if (claimed.length === 0) return 0;
  const ids = claimed.map((c) => c.id);
  const renew = setInterval(() => {
    runs.renewLeases(b.db.db, ids, leaseMs).catch((err) => b.log.warn({ err }, 'campaign claims not renewed'));
  }, leaseMs / 4);
  try {
    const byWorkspace = new Map<string, ClaimedRecipient[]>();
    for (const c of claimed) byWorkspace.set(c.workspaceId, [...(byWorkspace.get(c.workspaceId) ?? []), c]);
    await Promise.all([...byWorkspace].map(([ws, list]) => runWorkspace(b, ws, list)));
  } finally {
    clearInterval(renew);
  }
  return claimed.length;
}
