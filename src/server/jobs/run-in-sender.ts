/**
 * Jobs whose definition has runInSenderSeconds, committed by this process and run here from memory, up to the
 * definition's concurrency at once, as the workers run them (one slow job or batch does not hold the others
 * back, and a batch's database round trips overlap the next one's work). A batch handler takes everything
 * committed meanwhile (up to batchSize), so a burst is batched; a job finished here is deleted (its outcome is in
 * the product's own rows), a failed one is failed as its first attempt, so the workers retry it after its retry
 * delay.
 */
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { RegisteredHandler, ValidJob } from './handler-types';
import type { JobDefinition } from './names';
import { failJobs } from './workers';

export interface LocalRunDeps {
  log: FastifyBaseLogger;
  known(name: string): JobDefinition;
  handlers: Map<string, RegisteredHandler>;
  boss(): PgBoss | undefined;
  stopped(): boolean;
  /** The database is one session (PGlite): batches run one at a time, as nothing could overlap them. */
  oneSession: boolean;
}

/** Runs a batch through its handler; answers the jobs that failed (id -> error). */
async function runBatch(handler: RegisteredHandler, batch: ValidJob[]): Promise<Map<string, unknown>> {
  let failed = new Map<string, unknown>();
  try {
    if (handler.batch) failed = (await handler.batch(batch)) ?? failed;
    else
      for (const { data, job } of batch) {
        try {
          await handler.one!(data, job);
        } catch (err) {
          failed.set(job.id, err);
        }
      }
  } catch (err) {
    failed = new Map(batch.map((j) => [j.job.id, err]));
  }
  return failed;
}

export function createLocalRuns(d: LocalRunDeps) {
  const pendingByName = new Map<string, ValidJob[]>();
  const runningByName = new Map<string, Set<Promise<void>>>();

  /** Fails what failed (it counts as the first attempt) and deletes what finished. */
  async function settle(b: PgBoss, name: string, batch: ValidJob[], failed: Map<string, unknown>) {
    // Failing the waiting job counts this run as its first attempt: it is retried after the job's retry delay,
    // not after runInSenderSeconds (a crash of this process is what that delay is for).
    await failJobs(b, d.log, name, failed, batch.map((j) => j.job)).catch(() => undefined);
    const done = batch.filter((j) => !failed.has(j.job.id)).map((j) => j.job.id);
    if (done.length > 0) await b.deleteJob(name, done).catch((err) => d.log.warn({ err, job: name }, 'could not delete jobs run here; they run again, idempotently'));
  }

  function runLocally(name: string) {
    if (d.stopped()) return;
    const def = d.known(name);
    const pending = pendingByName.get(name);
    if (!pending?.length) return;
    const handler = d.handlers.get(name);
    const b = d.boss();
    if (!handler || !b) return; // the workers take them after their startAfter
    let running = runningByName.get(name);
    if (!running) runningByName.set(name, (running = new Set()));
    if (running.size >= (handler.batch && d.oneSession ? 1 : Math.max(1, def.concurrency ?? 1))) return;
    const batch = pending.splice(0, Math.max(1, def.batchSize ?? 1));
    const run = (async () => settle(b, name, batch, await runBatch(handler, batch)))().finally(() => {
      running.delete(run);
      runLocally(name);
    });
    running.add(run);
    runLocally(name);
  }

  return {
    /** Runs a committed job here as soon as its name's handler is free. */
    queue(name: string, id: string, data: unknown) {
      let list = pendingByName.get(name);
      if (!list) pendingByName.set(name, (list = []));
      list.push({ data: data as never, job: { id, name, retryCount: 0 } });
      runLocally(name);
    },
    /** Resolves once the runs under way here have finished (what is still pending is left to the workers). */
    settled: () => Promise.allSettled([...runningByName.values()].flatMap((r) => [...r])),
  };
}
