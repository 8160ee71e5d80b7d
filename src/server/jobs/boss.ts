/**
 * pg-boss's life in this process: built for the database in use, started once (a failed start may be tried again,
 * and is retried in the background when the database does not answer), stopped once.
 */
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { pgliteDb } from '../db/pg-boss-adapter';

function newBoss(database: Database, config: Config, log: FastifyBaseLogger): PgBoss {
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

/** Stops a boss that failed to start, and closes the pool it may have opened (stop() does nothing then). */
async function discard(b: PgBoss) {
  await b.stop({ graceful: false, close: true }).catch(() => undefined);
  const db = b.getDb() as { opened?: boolean; close?: () => Promise<void> };
  if (db.opened) await db.close?.().catch(() => undefined);
}

export interface BossDeps {
  database: Database;
  config: Config;
  log: FastifyBaseLogger;
  /** Runs once pg-boss has started, before the boot counts as done (starts the registered names' workers). */
  started(b: PgBoss): Promise<void>;
  /** Runs when a start failed (forgets the workers it may have started). */
  failed(): void;
}

export function createBossLifecycle(d: BossDeps) {
  let boss: PgBoss | undefined;
  let booting: Promise<void> | undefined;
  let stopping: Promise<void> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;

  /** Starts pg-boss and the workers once; a failed attempt may be tried again. */
  function boot(): Promise<void> {
    if (stopping) return Promise.reject(new Error('The job queue is stopped'));
    booting ??= (async () => {
      const b = newBoss(d.database, d.config, d.log);
      try {
        await b.start();
        boss = b;
        await d.started(b);
      } catch (err) {
        boss = undefined;
        d.failed();
        await discard(b);
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
        d.log.error({ err }, 'job queue did not start; retrying');
        retryBoot(Math.min(delayMs * 2, 30_000));
      });
    }, delayMs);
    retryTimer.unref();
  }

  return {
    boot,
    /** The started boss (undefined before the start and after a failed one). */
    boss: () => boss,
    stopped: () => stopping !== undefined,
    async start() {
      try {
        await boot();
      } catch (err) {
        // The database is unreachable right now: the server still starts (its /readyz answers 503) and the
        // workers start once the database answers again. Sends meanwhile fail like any other write.
        d.log.error({ err }, 'job queue did not start; retrying');
        retryBoot(1000);
      }
    },
    /** Stops once: `settle` first (runs under way here finish), then pg-boss, waiting for its running jobs. */
    stop(settle: () => Promise<unknown>, timeoutMs: number): Promise<void> {
      stopping ??= (async () => {
        if (retryTimer) clearTimeout(retryTimer);
        await settle();
        if (!booting) return;
        await booting.catch(() => undefined);
        if (!boss) return;
        await boss.stop({ graceful: true, wait: true, close: true, timeout: timeoutMs });
      })();
      return stopping;
    },
  };
}
