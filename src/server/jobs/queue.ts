/**
 * Durable jobs in the application's own database (pg-boss 10).
 *
 * - PostgreSQL: pg-boss opens a small pool of its own on DATABASE_URL.
 * - PGlite: pg-boss runs through PGlite's own query/exec (see db/pg-boss-adapter.ts); no socket, no second session.
 *
 * Delivery is at-least-once: a failed run is retried (exponential backoff), a run interrupted by a crash or a
 * stop is retried after it expires or is failed on shutdown. Handlers must therefore be idempotent.
 * `singletonKey`: while a job with that key waits to start, sending another one with the same key does nothing
 * (answers null); once it has started, a new one may be queued (pg-boss's `short` queue policy).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { Config } from '../config';
import type { Database, Executor } from '../db/client';
import type { JobDefinition, JobInput, JobMap, JobName, ProductJobs } from './names';
import { executorDb, unfinishedJobCounts, waitingJobs } from '../db/pg-boss-adapter';
import { createBossLifecycle } from './boss';
import { createGroupInsert } from './group-insert';
import type { BatchHandler, BatchHandlerOf, HandlerOf, JobHandler, RegisteredHandler } from './handler-types';
import { createLocalRuns } from './run-in-sender';
import { createWorkers } from './workers';

export type { BatchHandlerOf, HandlerOf, JobInfo } from './handler-types';

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
   * Registers the handler of a job listed in names.ts (before start, or after: its workers start at once). The
   * product's handlers are registered in one place, src/server/jobs/handlers.ts.
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
  /** Whether the workers run: started, and not stopped (readiness). */
  running(): boolean;
  /**
   * Every listed job's backlog: how many are due and waiting for a worker, and how long the oldest has waited
   * (one query). Empty while the queue is not running.
   */
  backlog(): Promise<{ name: string; waiting: number; oldestSeconds: number }[]>;
}

export interface JobQueueOptions {
  database: Database;
  config: Config;
  log: FastifyBaseLogger;
  /** Listed jobs: the product's (src/server/app/jobs.ts); tests add their own. */
  definitions: JobMap;
  stopTimeoutMs?: number;
  /**
   * False: this process only sends (a web process told to skip jobs): no workers, and a job meant to run in its
   * sender waits in the queue for another process's workers instead.
   */
  work?: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** pg-boss's retry options of a send: the call's, else the job's definition's, else the configuration's. */
function retryOptions(def: JobDefinition, config: Config, o: SendOptions) {
  return {
    retryLimit: o.retryLimit ?? def.retryLimit ?? config.jobs.retryLimit,
    retryDelay: def.retryDelaySeconds ?? config.jobs.retryDelaySeconds,
    retryBackoff: def.retryBackoff ?? config.jobs.retryBackoff,
    ...(def.expireInSeconds !== undefined && { expireInSeconds: def.expireInSeconds }),
  };
}

export function createJobQueue<M extends JobMap = ProductJobs>(opts: JobQueueOptions): JobQueue<M> {
  const { database, config, log } = opts;
  const { definitions } = opts;
  const works = opts.work ?? true;
  const handlers = new Map<string, RegisteredHandler>();
  const known = (name: string) => {
    if (!Object.hasOwn(definitions, name)) throw new Error(`Unknown job ${name}: list it in src/server/app/jobs.ts`);
    return definitions[name];
  };
  const workers = createWorkers({ config, log, known, handlers });
  const boss = createBossLifecycle({
    database,
    config,
    log,
    started: async (b) => {
      if (works) for (const name of handlers.keys()) await workers.start(b, name);
    },
    failed: () => workers.clear(),
  });
  const notify = (name?: string) => workers.notify(boss.boss(), name);
  const insertJob = createGroupInsert({
    maxInFlight: database.raw.kind === 'pglite' ? 1 : 3,
    insert: (jobs) => boss.boot().then(() => boss.boss()!.insert(jobs)),
    inserted: (names) => names.forEach((name) => notify(name)),
  });
  const local = createLocalRuns({ log, known, handlers, boss: boss.boss, stopped: boss.stopped, oneSession: database.raw.kind === 'pglite' });

  function checkHandlers() {
    const missing = Object.keys(definitions).filter((n) => !handlers.has(n));
    if (missing.length > 0) {
      throw new Error(`Job ${missing.join(', ')} has no handler: register it with deps.jobs.register before the app starts`);
    }
  }

  function addHandler(name: string, handler: RegisteredHandler) {
    known(name);
    if (handlers.has(name)) throw new Error(`Job ${name} already has a handler`);
    handlers.set(name, handler);
    const b = boss.boss();
    if (b && works) void workers.start(b, name).catch((err) => log.error({ err, job: name }, 'job workers did not start'));
  }

  /** A send outside a transaction and without a key: group-committed, and run here when its definition says so. */
  async function sendKeyless(name: string, def: JobDefinition, data: object, o: SendOptions): Promise<string> {
    const id = randomUUID();
    const here = works && def.runInSenderSeconds !== undefined && o.startAfter === undefined && handlers.has(name);
    const delay = here ? def.runInSenderSeconds : o.startAfter;
    const startAfter = delay instanceof Date ? delay.toISOString() : delay !== undefined ? `${delay} seconds` : undefined;
    await insertJob({
      id,
      name,
      data,
      // Keyless jobs get a key of their own: the `short` policy allows one queued job per key.
      singletonKey: `job:${id}`,
      ...retryOptions(def, config, o),
      ...(startAfter !== undefined && { startAfter }),
    } as PgBoss.JobInsert);
    if (here) local.queue(name, id, data);
    return id;
  }

  /** A send in a transaction, or with a key: one pg-boss send. */
  async function sendOne(name: string, def: JobDefinition, data: object, o: SendOptions): Promise<string | null> {
    const inSender = !!(works && o.tx && o.runInSender && def.runInSenderSeconds !== undefined && o.startAfter === undefined && handlers.has(name));
    if (o.tx) {
      // Starting pg-boss inside a caller's transaction would wait for that transaction on PGlite (one session)
      // and not on PostgreSQL; refusing alike on both keeps a transaction's job the same everywhere.
      if (!boss.boss()) throw new Error('The job queue has not started: a job cannot be queued inside a transaction before the app is ready');
    } else {
      await boss.boot();
    }
    const id = await boss.boss()!.send(name, data, {
      singletonKey: o.singletonKey ?? `job:${randomUUID()}`,
      ...(o.startAfter !== undefined && { startAfter: o.startAfter }),
      ...(inSender && { startAfter: def.runInSenderSeconds }),
      ...retryOptions(def, config, o),
      ...(o.tx && { db: executorDb(o.tx) }),
    });
    // Wakes this process's workers now instead of at their next poll (a transaction's job is polled after commit).
    if (id && !o.tx) notify(name);
    return id;
  }

  return {
    register(name, handler) {
      addHandler(name, { one: handler as JobHandler<never> });
    },

    registerBatch(name, handler) {
      if (!known(name).batchSize) throw new Error(`Job ${name} has no batchSize in src/server/jobs/names.ts`);
      addHandler(name, { batch: handler as BatchHandler<never> });
    },

    async send(name, input, o = {}) {
      const def = known(name);
      const data = def.payload.parse(input) as object;
      return !o.tx && !o.singletonKey ? sendKeyless(name, def, data, o) : sendOne(name, def, data, o);
    },

    runCommitted(name, id, input) {
      if (!works) return; // sent without the in-sender delay: the workers elsewhere take it at once
      local.queue(name, id, known(name).payload.parse(input));
    },

    async drain({ timeoutMs = 15_000 } = {}) {
      await boss.boot();
      const names = [...handlers.keys()];
      if (names.length === 0) return;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const rows = await unfinishedJobCounts(database.db, names);
        if (rows.length === 0) return;
        if (Date.now() > deadline) {
          throw new Error(`Jobs still pending after ${timeoutMs} ms: ${rows.map((r) => `${r.name} ${r.state} ${r.n}`).join(', ')}`);
        }
        notify();
        await sleep(25);
      }
    },

    async start() {
      if (boss.stopped()) throw new Error('The job queue is stopped');
      checkHandlers();
      await boss.start();
    },

    // Runs under way here finish; what is still pending here is left to the workers (after its startAfter).
    stop: () => boss.stop(local.settled, opts.stopTimeoutMs ?? 10_000),

    running: () => boss.boss() !== undefined && !boss.stopped(),

    async backlog() {
      if (!boss.boss() || boss.stopped()) return [];
      const rows = new Map((await waitingJobs(database.db)).map((r) => [r.name, r]));
      return Object.keys(definitions).map((name) => rows.get(name) ?? { name, waiting: 0, oldestSeconds: 0 });
    },
  };
}
