/**
 * Durable jobs in the application's own database (pg-boss 10).
 *
 * - PostgreSQL: pg-boss opens a small pool of its own on DATABASE_URL.
 * - PGlite: pg-boss runs through PGlite's own query/exec (see sql-adapters.ts); no socket, no second session.
 *
 * Delivery is at-least-once: a failed run is retried (exponential backoff), a run interrupted by a crash or a
 * stop is retried after it expires or is failed on shutdown. Handlers must therefore be idempotent.
 * `singletonKey`: while a job with that key waits to start, sending another one with the same key does nothing
 * (answers null); once it has started, a new one may be queued (pg-boss's `short` queue policy).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { Config } from '../config';
import { type Database, type Executor, rowsOf } from '../db/client';
import type { JobData, JobInput, JobMap, JobName, ProductJobs } from './names';
import { executorDb, pgliteDb } from './sql-adapters';

export interface JobInfo {
  id: string;
  name: string;
  /** 0 on the first run, 1 on the first retry, ... */
  retryCount: number;
}

export type JobHandler<T = unknown> = (data: T, job: JobInfo) => Promise<void>;
/** The handler of one job of a map, typed by its payload schema. */
export type HandlerOf<N extends JobName<M>, M extends JobMap = ProductJobs> = JobHandler<JobData<N, M>>;

/**
 * Handles up to `batchSize` jobs of one name at once (its definition). Answers the jobs that failed (id -> error):
 * those are retried alone, the others count as done. Throwing fails (and retries) the whole batch.
 */
export type BatchHandler<T = unknown> = (jobs: { data: T; job: JobInfo }[]) => Promise<Map<string, unknown> | void>;
/** The batch handler of one job of a map, typed by its payload schema. */
export type BatchHandlerOf<N extends JobName<M>, M extends JobMap = ProductJobs> = BatchHandler<JobData<N, M>>;

export interface SendOptions {
  /** At most one queued job per key (see above). */
  singletonKey?: string;
  /** A date, or a delay in seconds. */
  startAfter?: Date | number;
  retryLimit?: number;
  /**
   * Enqueue inside this transaction: the job exists only if the transaction commits. On PGlite a job sent from
   * inside a transaction MUST pass it (PGlite is one session: a send outside it would wait for it forever).
   */
  tx?: Executor;
  /**
   * With `tx`, for a job whose definition has runInSenderSeconds: workers take it only after that delay, and the
   * sender runs it from memory with `runCommitted` once the transaction has committed. The job commits with the
   * caller's writes, so a crash right after the commit only delays it (no gap between commit and enqueue).
   */
  runInSender?: boolean;
}

export interface JobQueue<M extends JobMap = ProductJobs> {
  /**
   * Registers the handler of a listed job (before start, or after: its workers start at once). The product's
   * handlers are registered in one place, src/server/app/jobs.ts.
   */
  register<N extends JobName<M>>(name: N, handler: HandlerOf<N, M>): void;
  /**
   * Registers the handler of a job whose definition has a batchSize: it gets the jobs of one fetch together,
   * each payload validated by the job's schema (a non-matching one is dropped, as for `register`).
   */
  registerBatch<N extends JobName<M>>(name: N, handler: BatchHandlerOf<N, M>): void;
  /**
   * Validates the payload with the job's schema (a ZodError for a bad one, nothing queued) and queues it;
   * answers its id, or null when a job with the same singletonKey is already queued.
   */
  send<N extends JobName<M>>(name: N, data: JobInput<N, M>, opts?: SendOptions): Promise<string | null>;
  /**
   * Runs here, from memory, a job sent with `tx` and `runInSender` (its id from `send`), once that transaction has
   * committed. Not called (the process died): a worker takes the job after runInSenderSeconds.
   */
  runCommitted<N extends JobName<M>>(name: N, id: string, data: JobInput<N, M>): void;
  /**
   * For tests: resolves once no job of a registered name is queued, retrying or running (jobs scheduled more
   * than a minute ahead, such as tomorrow's event pruning, do not count).
   */
  drain(opts?: { timeoutMs?: number }): Promise<void>;
  /**
   * Refuses to start (rejects) while a listed job has no handler. If the database does not answer, it logs,
   * resolves, and keeps trying in the background.
   */
  start(): Promise<void>;
  /** Stops fetching, waits for running jobs (up to stopTimeoutMs; then they are failed and retried later). */
  stop(): Promise<void>;
}

export interface JobQueueOptions {
  database: Database;
  config: Config;
  log: FastifyBaseLogger;
  /** Listed jobs: the product's (src/server/app/jobs.ts); tests add their own. */
  definitions: JobMap;
  stopTimeoutMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function createJobQueue<M extends JobMap = ProductJobs>(opts: JobQueueOptions): JobQueue<M> {
  const { database, config, log } = opts;
  const { definitions } = opts;
  const handlers = new Map<string, { one?: JobHandler<never>; batch?: BatchHandler<never> }>();
  const workers = new Map<string, string[]>();
  let boss: PgBoss | undefined;
  let booting: Promise<void> | undefined;
  let stopping: Promise<void> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;

  const known = (name: string) => {
    if (!Object.hasOwn(definitions, name)) throw new Error(`Unknown job ${name}: list it in src/server/app/jobs.ts`);
    return definitions[name];
  };

  function newBoss(): PgBoss {
    const common = {
      schedule: false, // no cron jobs: skips pg-boss's timekeeper and its clock-skew polling
      supervise: true, // maintenance: expires jobs of a crashed process so they are retried
      retryLimit: config.jobs.retryLimit,
      retryDelay: config.jobs.retryDelaySeconds,
      retryBackoff: config.jobs.retryBackoff,
    };
    const b =
      database.raw.kind === 'pglite'
        ? new PgBoss({ ...common, db: pgliteDb(database.raw.client) })
        : new PgBoss({ ...common, connectionString: database.raw.url, max: 4, application_name: 'parley-jobs' });
    b.on('error', (err) => log.error({ err }, 'job queue error'));
    return b;
  }

  /** Logs and fails (for a retry, or for good after the retry limit) the jobs of a batch that failed. */
  async function failJobs(b: PgBoss, name: string, failed: Map<string, unknown>, jobs: JobInfo[]) {
    for (const [id, err] of failed) {
      log.warn({ err, job: name, jobId: id, retryCount: jobs.find((j) => j.id === id)?.retryCount }, 'job failed');
      await b.fail(name, id, err instanceof Error ? { message: err.message } : { value: String(err) });
    }
  }

  async function startWorkers(b: PgBoss, name: string) {
    if (workers.has(name)) return;
    workers.set(name, []);
    const handler = handlers.get(name)!;
    const def = known(name);
    if (!(await b.getQueue(name))) {
      try {
        await b.createQueue(name, { name, policy: 'short' });
      } catch (err) {
        // Another process created it at the same moment.
        if (!(await b.getQueue(name))) throw err;
      }
    }
    const ids = workers.get(name)!;
    const batchSize = Math.max(1, def.batchSize ?? 1);
    const run = async (jobs: PgBoss.JobWithMetadata<never>[]) => {
      const infos: { data: never; job: JobInfo }[] = [];
      for (const j of jobs) {
        const data = def.payload.safeParse(j.data);
        if (!data.success) {
          // Queued by a build whose payload differed: running it again cannot fix it, so it is not retried.
          log.error({ job: name, jobId: j.id, issues: data.error.issues.slice(0, 5) }, 'job payload does not match its schema; dropped');
          continue;
        }
        infos.push({ data: data.data as never, job: { id: j.id, name, retryCount: j.retryCount } });
      }
      if (infos.length === 0) return;
      if (handler.batch) {
        const failed = await handler.batch(infos);
        // The failed ones are retried alone; pg-boss then completes the rest (it completes only active jobs).
        await failJobs(b, name, failed ?? new Map(), infos.map((i) => i.job));
        return;
      }
      const [{ data, job }] = infos;
      await handler.one!(data, job);
    };
    for (let i = 0; i < Math.max(1, def.concurrency ?? 1); i++) {
      let workerId = '';
      workerId = await b.work<never>(
        name,
        { pollingIntervalSeconds: config.jobs.pollingIntervalSeconds, batchSize, includeMetadata: true },
        async (jobs) => {
          try {
            await run(jobs);
          } catch (err) {
            log.warn({ err, job: name, jobIds: jobs.map((j) => j.id) }, 'job failed');
            throw err;
          } finally {
            // A full fetch means more are probably waiting: fetch again at once instead of after the polling
            // interval (pg-boss waits for the interval after every fetch unless the worker was notified).
            if (jobs.length === batchSize && workerId) b.notifyWorker(workerId);
          }
        },
      );
      ids.push(workerId);
    }
  }

  function checkHandlers() {
    const missing = Object.keys(definitions).filter((n) => !handlers.has(n));
    if (missing.length > 0) {
      throw new Error(`Job ${missing.join(', ')} has no handler: register it with deps.jobs.register before the app starts`);
    }
  }

  /** Starts pg-boss and the workers once; a failed attempt may be tried again. */
  function boot(): Promise<void> {
    if (stopping) return Promise.reject(new Error('The job queue is stopped'));
    booting ??= (async () => {
      const b = newBoss();
      try {
        await b.start();
        boss = b;
        for (const name of handlers.keys()) await startWorkers(b, name);
      } catch (err) {
        boss = undefined;
        workers.clear();
        await b.stop({ graceful: false, close: true }).catch(() => undefined);
        // stop() does nothing for a boss that never started: close the pool it may have opened.
        const db = b.getDb() as { opened?: boolean; close?: () => Promise<void> };
        if (db.opened) await db.close?.().catch(() => undefined);
        throw err;
      }
    })();
    return booting.catch((err) => {
      booting = undefined;
      throw err;
    });
  }

  function retryBoot(delayMs: number) {
    if (stopping) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      boot().catch((err) => {
        log.error({ err }, 'job queue did not start; retrying');
        retryBoot(Math.min(delayMs * 2, 30_000));
      });
    }, delayMs);
    retryTimer.unref();
  }

  function addHandler(name: string, handler: { one?: JobHandler<never>; batch?: BatchHandler<never> }) {
    known(name);
    if (handlers.has(name)) throw new Error(`Job ${name} already has a handler`);
    handlers.set(name, handler);
    if (boss) void startWorkers(boss, name).catch((err) => log.error({ err, job: name }, 'job workers did not start'));
  }

  /**
   * Group commit of keyless sends made outside a transaction: the sends of one moment (e.g. a burst of webhooks)
   * go into pgboss.job in one INSERT, each caller answered once it is committed. One commit per send made the
   * queue, not the work, the limit of a burst.
   */
  const insertMax = 500;
  const insertsInFlightMax = database.raw.kind === 'pglite' ? 1 : 3;
  const pendingInserts: { job: PgBoss.JobInsert; done(err?: unknown): void }[] = [];
  let insertsInFlight = 0;
  let insertScheduled = false;
  const scheduleInsert = () => {
    if (insertScheduled || insertsInFlight >= insertsInFlightMax || pendingInserts.length === 0) return;
    insertScheduled = true;
    setImmediate(() => {
      insertScheduled = false;
      const batch = pendingInserts.splice(0, insertMax);
      insertsInFlight++;
      boot()
        .then(() => boss!.insert(batch.map((p) => p.job)))
        .then(
          () => {
            for (const p of batch) p.done();
            // A delayed job (runInSenderSeconds, startAfter) cannot be fetched yet: waking the workers would be a wasted poll.
            for (const name of new Set(batch.filter((p) => p.job.startAfter === undefined).map((p) => p.job.name))) notify(name);
          },
          (err) => {
            for (const p of batch) p.done(err);
          },
        )
        .finally(() => {
          insertsInFlight--;
          scheduleInsert();
        });
      scheduleInsert();
    });
  };
  const insertJob = (job: PgBoss.JobInsert) =>
    new Promise<void>((resolve, reject) => {
      pendingInserts.push({ job, done: (err) => (err ? reject(err) : resolve()) });
      scheduleInsert();
    });

  /**
   * Jobs whose definition has runInSenderSeconds, committed by this process and run here from memory. A batch
   * handler runs once per name at a time and takes everything committed meanwhile (up to batchSize), so a burst is
   * batched; a one-job handler runs up to the definition's concurrency at once (one slow job does not hold the
   * others back, as the workers would not either); a job
   * finished here is deleted (its outcome is in the product's own rows), a failed one is failed as its first
   * attempt, so the workers retry it after its retry delay.
   */
  const localPending = new Map<string, { data: never; job: JobInfo }[]>();
  const localRunning = new Map<string, Set<Promise<void>>>();
  const runLocally = (name: string) => {
    if (stopping) return;
    const def = known(name);
    const pending = localPending.get(name);
    if (!pending?.length) return;
    const handler = handlers.get(name);
    const b = boss;
    if (!handler || !b) return; // the workers take them after their startAfter
    let running = localRunning.get(name);
    if (!running) localRunning.set(name, (running = new Set()));
    if (running.size >= (handler.batch ? 1 : Math.max(1, def.concurrency ?? 1))) return;
    const batch = pending.splice(0, Math.max(1, def.batchSize ?? 1));
    const run = (async () => {
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
      // Failing the waiting job counts this run as its first attempt: it is retried after the job's retry delay,
      // not after runInSenderSeconds (a crash of this process is what that delay is for).
      await failJobs(b, name, failed, batch.map((j) => j.job)).catch(() => undefined);
      const done = batch.filter((j) => !failed.has(j.job.id)).map((j) => j.job.id);
      if (done.length > 0) await b.deleteJob(name, done).catch((err) => log.warn({ err, job: name }, 'could not delete jobs run here; they run again, idempotently'));
    })().finally(() => {
      running.delete(run);
      runLocally(name);
    });
    running.add(run);
    runLocally(name);
  };
  const queueLocally = (name: string, id: string, data: unknown) => {
    let list = localPending.get(name);
    if (!list) localPending.set(name, (list = []));
    list.push({ data: data as never, job: { id, name, retryCount: 0 } });
    runLocally(name);
  };

  const notify = (name?: string) => {
    if (!boss) return;
    for (const [n, ids] of workers) if (!name || n === name) for (const id of ids) boss.notifyWorker(id);
  };

  const queue: JobQueue<M> = {
    register(name, handler) {
      addHandler(name, { one: handler as JobHandler<never> });
    },

    registerBatch(name, handler) {
      if (!known(name).batchSize) throw new Error(`Job ${name} has no batchSize in its definition`);
      addHandler(name, { batch: handler as BatchHandler<never> });
    },

    async send(name, input, o = {}) {
      const def = known(name);
      const data = def.payload.parse(input) as object;
      const retryLimit = o.retryLimit ?? def.retryLimit ?? config.jobs.retryLimit;
      const retryDelay = def.retryDelaySeconds ?? config.jobs.retryDelaySeconds;
      const retryBackoff = def.retryBackoff ?? config.jobs.retryBackoff;
      if (!o.tx && !o.singletonKey) {
        const id = randomUUID();
        const here = def.runInSenderSeconds !== undefined && o.startAfter === undefined && handlers.has(name);
        const delay = here ? def.runInSenderSeconds : o.startAfter;
        const startAfter = delay instanceof Date ? delay.toISOString() : delay !== undefined ? `${delay} seconds` : undefined;
        await insertJob({
          id,
          name,
          data,
          // Keyless jobs get a key of their own: the `short` policy allows one queued job per key.
          singletonKey: `job:${id}`,
          retryLimit,
          retryDelay,
          retryBackoff,
          ...(startAfter !== undefined && { startAfter }),
          ...(def.expireInSeconds !== undefined && { expireInSeconds: def.expireInSeconds }),
        } as PgBoss.JobInsert);
        if (here) queueLocally(name, id, data);
        return id;
      }
      const inSender = !!(o.tx && o.runInSender && def.runInSenderSeconds !== undefined && o.startAfter === undefined && handlers.has(name));
      if (o.tx) {
        // Starting pg-boss inside a caller's transaction would wait for that transaction on PGlite (one session)
        // and not on PostgreSQL; refusing alike on both keeps a transaction's job the same everywhere.
        if (!boss) throw new Error('The job queue has not started: a job cannot be queued inside a transaction before the app is ready');
      } else {
        await boot();
      }
      const id = await boss!.send(name, data, {
        singletonKey: o.singletonKey ?? `job:${randomUUID()}`,
        ...(o.startAfter !== undefined && { startAfter: o.startAfter }),
        ...(inSender && { startAfter: def.runInSenderSeconds }),
        retryLimit,
        retryDelay,
        retryBackoff,
        ...(def.expireInSeconds !== undefined && { expireInSeconds: def.expireInSeconds }),
        ...(o.tx && { db: executorDb(o.tx) }),
      });
      // Wakes this process's workers now instead of at their next poll (a transaction's job is polled after commit).
      if (id && !o.tx) notify(name);
      return id;
    },

    runCommitted(name, id, input) {
      queueLocally(name, id, known(name).payload.parse(input));
    },

    async drain({ timeoutMs = 15_000 } = {}) {
      await boot();
      const names = [...handlers.keys()];
      if (names.length === 0) return;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const rows = rowsOf<{ name: string; state: string; n: number }>(
          await database.db.execute(sql`
            select name, state::text as state, count(*)::int as n from pgboss.job
            where name in ${names} and state < 'completed' and start_after < now() + interval '1 minute'
            group by name, state`),
        );
        if (rows.length === 0) return;
        if (Date.now() > deadline) {
          throw new Error(`Jobs still pending after ${timeoutMs} ms: ${rows.map((r) => `${r.name} ${r.state} ${r.n}`).join(', ')}`);
        }
        notify();
        await sleep(25);
      }
    },

    async start() {
      if (stopping) throw new Error('The job queue is stopped');
      checkHandlers();
      try {
        await boot();
      } catch (err) {
        // The database is unreachable right now: the server still starts (its /readyz answers 503) and the
        // workers start once the database answers again. Sends meanwhile fail like any other write.
        log.error({ err }, 'job queue did not start; retrying');
        retryBoot(1000);
      }
    },

    stop() {
      stopping ??= (async () => {
        if (retryTimer) clearTimeout(retryTimer);
        // Runs under way here finish; what is still pending here is left to the workers (after its startAfter).
        await Promise.allSettled([...localRunning.values()].flatMap((r) => [...r]));
        if (!booting) return;
        await booting.catch(() => undefined);
        if (!boss) return;
        await boss.stop({ graceful: true, wait: true, close: true, timeout: opts.stopTimeoutMs ?? 10_000 });
      })();
      return stopping;
    },
  };
  return queue;
}
