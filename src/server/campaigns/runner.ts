/**
 * The campaign runner: every server process runs `loops` claim loops. Each claims a batch of due recipients
 * (FOR UPDATE SKIP LOCKED, with a lease), runs each one's step (a send through the outbound path with the key
 * `campaign:<recipientId>:<stepId>`, or a delay, which is a due time), then writes the recipients' moves and
 * the log lines set-based, completes finished runs and campaigns, and reports progress. A loop of its own writes
 * unfinished snapshots, a chunk per transaction, so sending starts with the first recipients.
 *
 * Outcomes of a send: sent -> next step; 131056 (pair rate) -> the same step again after 6, 24, 96 s, then
 * failed; Meta's final refusals (131026, 131049 ...) -> failed with Meta's reason; an unknown outcome -> logged
 * `unknown` (messageStatus failed, "outcome unknown, not resent"), never resent, the recipient goes on;
 * in flight in another process, or throttled past the path's retries -> the same step a little later.
 */
import { limits } from '../../shared/limits';
import { HttpError } from '../errors';
import type { Executor } from '../db/client';
import * as runs from '../repositories/campaign-runs';
import type { ClaimedRecipient, ContactRow, LogLine, RecipientMove } from '../repositories/campaign-runs';
import * as r from '../repositories/resources';
import type { ServiceDeps } from '../services/context';
import { GraphApiError } from '../whatsapp/graph-errors';
import { OutcomeUnknownError, type Outbound, SendInFlightError, pairRateLimitCode } from '../messaging/outbound';
import { valuesFromMapping, prepareTemplateSend } from '../messaging/template-send';
import { toContact } from '../repositories/resources';
import { audienceOf } from './audience';
import { type DeployedCanvas, type SendStep, readDeployedCanvas } from './deployed-canvas';
import { campaignUpdated, type Progress } from './events';
import { nextSendTime, recipientTimeZone } from './send-window';
import type { CampaignDraftRfInstance } from '../../shared/schemas/campaign-canvas';

export const unknownOutcomeReason = 'outcome unknown, not resent';
export const optedOutReason = 'opted out';

export interface RunnerOptions {
  /** Recipients one claim takes. */
  batchSize?: number;
  /** How long a claimed recipient stays claimed: a process that dies leaves it for others after this. */
  leaseMs?: number;
  /** Claim loops per process (one batch sends while the next is claimed). */
  loops?: number;
  /** Pause of an idle loop before it looks again (wake() cuts it short). */
  idleMs?: number;
  /** Contacts written per snapshot transaction. */
  snapshotChunk?: number;
  now?: () => Date;
}

type Outcome = { move: RecipientMove; log?: LogLine };

export function createCampaignRunner(d: ServiceDeps, outbound: Outbound, progress: Progress, opts: RunnerOptions = {}) {
  const batchSize = opts.batchSize ?? 200;
  const leaseMs = opts.leaseMs ?? 5 * 60_000;
  const idleMs = opts.idleMs ?? 1000;
  const chunk = opts.snapshotChunk ?? 5000;
  const now = opts.now ?? (() => new Date());
  const db = () => d.db.db;
  let stopped = true;
  /** The idle loops' early wake-ups. */
  const wakers = new Set<() => void>();
  const loops: Promise<void>[] = [];
  const canvases = new Map<string, { deployedAt: number; canvas: DeployedCanvas }>();

  function canvasOf(row: runs.CampaignRow): DeployedCanvas | null {
    if (!row.deployedRf) return null;
    const at = row.deployedAt?.getTime() ?? 0;
    const cached = canvases.get(row.id);
    if (cached && cached.deployedAt === at) return cached.canvas;
    const canvas = readDeployedCanvas(row.deployedRf as CampaignDraftRfInstance);
    canvases.set(row.id, { deployedAt: at, canvas });
    return canvas;
  }

  /** What happened to one send, as a move of the recipient and its log line. */
  function sendOutcome(c: ClaimedRecipient, step: SendStep, canvas: DeployedCanvas, base: Omit<LogLine, 'messageStatus' | 'deliveryState' | 'reason' | 'errorCode' | 'wamid'>, err: unknown): Outcome {
    const at = now().getTime();
    const later = (ms: number, attempts = c.attempts): Outcome => ({ move: { id: c.id, status: 'pending', stepId: step.id, nextAt: new Date(at + ms), attempts } });
    const failed = (reason: string, errorCode: number | null, deliveryState: LogLine['deliveryState'] = 'failed'): Outcome => ({
      move: { id: c.id, status: 'failed', stepId: step.id, nextAt: null, attempts: c.attempts },
      log: { ...base, messageStatus: 'failed', deliveryState, reason, errorCode, wamid: null },
    });
    if (err instanceof SendInFlightError) return later(30_000);
    if (err instanceof OutcomeUnknownError || (err instanceof GraphApiError && err.mayHaveArrived)) {
      const next = canvas.next(step.id);
      return {
        move: { id: c.id, status: next ? 'pending' : 'done', stepId: next, nextAt: next ? now() : null, attempts: 0 },
        log: { ...base, messageStatus: 'failed', deliveryState: 'unknown', reason: unknownOutcomeReason, errorCode: null, wamid: null },
      };
    }
    if (err instanceof GraphApiError) {
      if (err.code === pairRateLimitCode) {
        const delays = limits.campaign.pairRateRetrySeconds;
        if (c.attempts < delays.length) return later(delays[c.attempts] * 1000, c.attempts + 1);
        return failed(err.userMessage, err.code ?? null);
      }
      // Left `pending` by the outbound path (130429 past its own retries, 131057, 5xx): the same send later.
      if (err.retryable) return later(10_000);
      return failed(err.userMessage, err.code ?? null);
    }
    if (err instanceof HttpError) return failed(err.message, null);
    throw err;
  }

  async function runSend(c: ClaimedRecipient, step: SendStep, canvas: DeployedCanvas, contact: ContactRow, ctx: BatchContext): Promise<Outcome> {
    const tpl = await ctx.template(step.whatsappTemplateId);
    const base = { campaignId: c.campaignId, runId: c.runId, recipientId: c.id, contactId: contact.id, stepId: step.id, phoneNumber: contact.phoneNumber, templateName: tpl?.name ?? '' };
    const end = (reason: string, deliveryState: LogLine['deliveryState'] = 'failed'): Outcome => ({
      move: { id: c.id, status: deliveryState === 'optedOut' ? 'skipped' : 'failed', stepId: step.id, nextAt: null, attempts: c.attempts },
      log: { ...base, messageStatus: 'failed', deliveryState, reason, errorCode: null, wamid: null },
    });
    if (contact.optedOutAt) return end(optedOutReason, 'optedOut');
    const due = nextSendTime(now(), canvas.sendWindow, recipientTimeZone(contact, ctx.timeZone));
    if (due.getTime() > now().getTime() + 1000) return { move: { id: c.id, status: 'pending', stepId: step.id, nextAt: due, attempts: c.attempts } };
    if (!tpl) return end('The template of this step no longer exists');
    if (tpl.status !== 'APPROVED') return end(`Template ${tpl.name} is ${tpl.status}; only approved templates can be sent`);
    const mapped = valuesFromMapping(tpl, step.variables, toContact(contact), ctx.attributeNames, step.headerMediaLink);
    if ('missing' in mapped) return end(`Not sent: ${mapped.missing}`);
    try {
      const content = await prepareTemplateSend(d.files, c.workspaceId, tpl, mapped.values);
      const sent = await outbound.send({
        workspaceId: c.workspaceId,
        actor: { type: 'campaign', campaignId: c.campaignId },
        target: { contactId: contact.id, whatsappAccountId: step.whatsappAccountId },
        content,
        idempotencyKey: `campaign:${c.id}:${step.id}`,
      });
      const next = canvas.next(step.id);
      const wamid = sent.wamid;
      return {
        move: { id: c.id, status: next ? 'pending' : 'done', stepId: next, nextAt: next ? now() : null, attempts: 0 },
        log: { ...base, messageStatus: 'success', deliveryState: 'sent', reason: null, errorCode: null, wamid },
      };
    } catch (err) {
      return sendOutcome(c, step, canvas, base, err);
    }
  }

  interface BatchContext {
    timeZone: string;
    attributeNames: Map<string, string>;
    template(id: string): Promise<Awaited<ReturnType<typeof r.whatsappTemplates.get>>>;
  }

  async function runOne(c: ClaimedRecipient, campaign: runs.CampaignRow | undefined, contact: ContactRow | undefined, ctx: BatchContext): Promise<Outcome> {
    const stop = (status: RecipientMove['status']): Outcome => ({ move: { id: c.id, status, stepId: c.stepId, nextAt: null, attempts: c.attempts } });
    const canvas = campaign ? canvasOf(campaign) : null;
    if (!canvas || !contact) return stop('failed');
    if (!c.stepId) return stop('done');
    const step = canvas.step(c.stepId);
    if (!step) return stop('failed');
    if (step.kind === 'delay') {
      const next = canvas.next(step.id);
      return { move: { id: c.id, status: next ? 'waiting' : 'done', stepId: next, nextAt: next ? new Date(now().getTime() + step.ms) : null, attempts: 0 } };
    }
    return runSend(c, step, canvas, contact, ctx);
  }

  /** Runs the steps of one workspace's claimed recipients and writes what happened. */
  async function runWorkspace(workspaceId: string, claimed: ClaimedRecipient[]): Promise<void> {
    const [contacts, campaigns, settings, attributeNames] = await Promise.all([
      runs.contactsByIds(db(), workspaceId, claimed.map((c) => c.contactId)),
      runs.campaignsByIds(db(), [...new Set(claimed.map((c) => c.campaignId))]),
      runs.campaignSettingsOf(db(), workspaceId),
      runs.attributeNamesOf(db(), workspaceId),
    ]);
    const templates = new Map<string, ReturnType<typeof r.whatsappTemplates.get>>();
    const ctx: BatchContext = {
      timeZone: settings.timeZone,
      attributeNames,
      template: (id) => {
        if (!templates.has(id)) templates.set(id, r.whatsappTemplates.get(db(), workspaceId, id));
        return templates.get(id)!;
      },
    };
    const outcomes = await Promise.all(claimed.map((c) => runOne(c, campaigns.get(c.campaignId), contacts.get(c.contactId), ctx)));
    const finished = await d.db.transaction(async (tx) => {
      await runs.upsertLogs(tx, workspaceId, outcomes.flatMap((o) => (o.log ? [o.log] : [])));
      await runs.moveRecipients(tx, workspaceId, outcomes.map((o) => o.move));
      // Not waiting for a run another transaction holds (a snapshot chunk can take seconds): the sweep completes it.
      const done = await runs.completeFinishedRuns(tx, [...new Set(claimed.map((c) => c.runId))], { wait: false });
      return completeCampaignsOf(tx, done);
    });
    for (const id of new Set(claimed.map((c) => c.campaignId))) progress.changed(workspaceId, id);
    for (const row of finished) d.log.info({ campaignId: row.id }, 'campaign completed');
  }

  /** One claim and its sends; answers how many recipients it took. */
  async function tick(): Promise<number> {
    const claimed = await runs.claimDue(db(), batchSize, leaseMs);
    const byWorkspace = new Map<string, ClaimedRecipient[]>();
    for (const c of claimed) byWorkspace.set(c.workspaceId, [...(byWorkspace.get(c.workspaceId) ?? []), c]);
    await Promise.all([...byWorkspace].map(([ws, list]) => runWorkspace(ws, list)));
    return claimed.length;
  }

  /** Writes one chunk of an unfinished snapshot (whoever holds the run's lock); answers whether it wrote any. */
  async function snapshotStep(): Promise<boolean> {
    return d.db.transaction(async (tx) => {
      const run = await runs.lockUnfinishedSnapshot(tx);
      if (!run) return false;
      const [campaign] = [...(await runs.campaignsByIds(tx, [run.campaignId])).values()];
      const canvas = campaign ? canvasOf(campaign) : null;
      const audience = canvas ? await audienceOf(tx, run.workspaceId, canvas) : null;
      if (!canvas?.first || !audience) {
        await finishSnapshot(tx, run);
        return true;
      }
      const n = await runs.snapshotChunk(tx, { workspaceId: run.workspaceId, runId: run.id, campaignId: run.campaignId, firstStepId: canvas.first, audience, limit: chunk });
      if (n < chunk) await finishSnapshot(tx, run);
      return true;
    });
  }

  /**
   * Marks a snapshot written and completes its run when no work is left: an empty audience, or recipients the
   * claim loops finished before the snapshot's last chunk was marked, would otherwise never complete.
   */
  async function finishSnapshot(tx: Executor, run: { workspaceId: string; id: string }): Promise<void> {
    await runs.markSnapshotDone(tx, run.workspaceId, run.id);
    await completeCampaignsOf(tx, await runs.completeFinishedRuns(tx, [run.id]));
  }

  async function completeCampaignsOf(tx: Executor, done: { campaignId: string }[]): Promise<runs.CampaignRow[]> {
    const completed = await runs.completeCampaigns(tx, [...new Set(done.map((x) => x.campaignId))]);
    for (const row of completed) await campaignUpdated(tx, row);
    return completed;
  }

  /**
   * Completes running runs with nothing left to do that no claim loop completed: one whose loop skipped it while
   * another transaction held it, or two loops that finished its last recipients together. Answers how many.
   */
  async function sweep(): Promise<number> {
    const ids = await runs.runningRunsToSweep(db());
    if (ids.length === 0) return 0;
    const completed = await d.db.transaction(async (tx) => completeCampaignsOf(tx, await runs.completeFinishedRuns(tx, ids)));
    for (const row of completed) d.log.info({ campaignId: row.id }, 'campaign completed');
    return ids.length;
  }

  /** A claim loop, or (`snapshots`) the loop that writes snapshots while the claim loops already send. */
  async function loop(snapshots: boolean): Promise<void> {
    while (!stopped) {
      let busy = false;
      try {
        if (!snapshots) busy = (await tick()) > 0;
        // The snapshot loop sweeps when it has no snapshot to write (and then idles).
        else if (!(busy = await snapshotStep())) await sweep();
      } catch (err) {
        d.log.error({ err }, 'campaign runner batch failed; its recipients are claimed again when their lease ends');
      }
      if (!busy && !stopped) {
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            wakers.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, idleMs);
          wakers.add(wake);
        });
      }
    }
  }

  return {
    tick,
    snapshotStep,
    sweep,
    /** Something became due (a deploy, a trigger call, a resume): idle loops look now. */
    wake(): void {
      for (const wake of [...wakers]) wake();
    },
    start(): void {
      if (!stopped) return;
      stopped = false;
      loops.push(loop(true));
      for (let i = 0; i < (opts.loops ?? 2); i++) loops.push(loop(false));
    },
    async stop(): Promise<void> {
      stopped = true;
      for (const wake of [...wakers]) wake();
      await Promise.all(loops.splice(0));
      progress.stop();
    },
  };
}
export type CampaignRunner = ReturnType<typeof createCampaignRunner>;
