/**
 * The campaign runner: every server process runs `loops` claim loops. Each claims a batch of due recipients
 * (FOR UPDATE SKIP LOCKED, with a lease), runs each one's step (a send through the outbound path with the key
 * `campaign:<recipientId>:<stepId>`, or a delay, which is a due time), then writes the recipients' moves and
 * the log lines set-based, completes finished runs and campaigns, and reports progress. A loop of its own writes
 * unfinished snapshots, a chunk per transaction, so sending starts with the first recipients.
 *
 * Outcomes of a send: sent -> next step; 131056 (pair rate) -> the same step again after 6, 24, 96 s, then
 * failed; Meta's final refusals (131026 ...) -> failed with Meta's reason; account-level refusals -> the
 * campaign, and every running campaign of the same number or template, halted with the recipients pending and
 * the admins e-mailed (halts.ts, halt-notices.ts); no room in the portfolio's messaging limit -> the recipient
 * waits (portfolio-budget.ts); an unknown outcome -> logged
 * `unknown` (messageStatus failed, "outcome unknown, not resent"), never resent, the recipient goes on;
 * in flight in another process, or throttled past the path's retries -> the same step a little later.
 *
 * This module owns the loops; the steps are modules of their own: run-batch.ts (claim, run, record one batch),
 * recipient-step.ts (one recipient's step: decide, send, map the outcome), completion.ts (snapshots, completing
 * runs and campaigns, the sweep).
 */
import type { Outbound } from '../messaging/outbound';
import type { ServiceDeps } from '../services/context';
import { deployedCanvasCache } from './canvas-cache';
import { sweepFinishedRuns, writeSnapshotChunk } from './completion';
import type { Progress } from './events';
import { portfolioTurns } from './portfolio-budget';
import { type BatchDeps, runBatch } from './run-batch';
import { runDueSchedules } from './schedules';

export interface RunnerOptions {
  /** Recipients one claim takes. */
  batchSize?: number;
  /** How long a claim lasts unless renewed (a running batch renews it): a process that dies leaves its claims to others after this. */
  leaseMs?: number;
  /** Claim loops per process (one batch sends while the next is claimed). */
  loops?: number;
  /** Pause of an idle loop before it looks again (wake() cuts it short). */
  idleMs?: number;
  /** Contacts written per snapshot transaction (a run's first at most 2,000, so its first sends start at once). */
  snapshotChunk?: number;
  /** The period of the sweep of scheduled starts and timed resumes (it also runs at start); a minute unless set. */
  scheduleSweepMs?: number;
  now?: () => Date;
}

/**
 * Time to the next sweep: the next multiple of the period on the clock, one second in. Starts are chosen by the
 * minute, so a campaign due at 10:00 is started by the 10:00:01 sweep, not up to a minute after it.
 */
function untilNextSweep(now: number, periodMs: number): number {
  return periodMs - (now % periodMs) + Math.min(1000, periodMs / 10);
}

/** What the runner uses of the server. */
type RunnerDeps = Pick<ServiceDeps, 'db' | 'log' | 'files' | 'identity' | 'mailer' | 'metrics'>;

export function createCampaignRunner(d: RunnerDeps, outbound: Pick<Outbound, 'send'>, progress: Progress, opts: RunnerOptions = {}) {
  const batchSize = opts.batchSize ?? 200;
  const leaseMs = opts.leaseMs ?? 20_000;
  const idleMs = opts.idleMs ?? 1000;
  const chunk = opts.snapshotChunk ?? 50_000;
  const batch: BatchDeps = { db: d.db, log: d.log, files: d.files, identity: d.identity, mailer: d.mailer, metrics: d.metrics, outbound, progress, now: opts.now ?? (() => new Date()), canvasOf: deployedCanvasCache(), portfolioTurns: portfolioTurns() };
  let stopped = true;
  /** The idle loops' early wake-ups. */
  const wakers = new Set<() => void>();
  const loops: Promise<void>[] = [];
  let scheduleTimer: NodeJS.Timeout | undefined;
  /** The schedule sweep under way (stop waits for it). */
  let scheduling: Promise<void> = Promise.resolve();

  const tick = () => runBatch(batch, batchSize, leaseMs);
  const snapshotStep = () => writeSnapshotChunk(d, batch.canvasOf, chunk);
  const sweep = () => sweepFinishedRuns(d);

  /** Due schedules: started (or resumed) here unless another process took them first; the loops look at once. */
  async function sweepSchedules(): Promise<void> {
    try {
      if ((await runDueSchedules(d)) > 0) for (const wake of [...wakers]) wake();
    } catch (err) {
      d.log.error({ err }, 'campaign schedule sweep failed; the next one runs in a minute');
    }
    if (!stopped) {
      scheduleTimer = setTimeout(() => (scheduling = sweepSchedules()), untilNextSweep(Date.now(), opts.scheduleSweepMs ?? 60_000));
      scheduleTimer.unref();
    }
  }

  /** An idle loop's pause: idleMs, or until wake(). */
  function idle(): Promise<void> {
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, idleMs);
      wakers.add(wake);
    });
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
      if (!busy && !stopped) await idle();
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
      scheduling = sweepSchedules();
      loops.push(loop(true));
      for (let i = 0; i < (opts.loops ?? 2); i++) loops.push(loop(false));
    },
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(scheduleTimer);
      for (const wake of [...wakers]) wake();
      await Promise.all([...loops.splice(0), scheduling]);
      progress.stop();
    },
  };
}
export type CampaignRunner = ReturnType<typeof createCampaignRunner>;
