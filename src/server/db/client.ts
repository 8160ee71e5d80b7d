import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { PGlite } from '@electric-sql/pglite';
import * as schema from './schema';

export type Schema = typeof schema;
/** A database or a transaction: repositories take either, so callers choose the transaction boundary. */
export type Executor = PgDatabase<PgQueryResultHKT, Schema>;

/**
 * The driver underneath, for the few parts that cannot go through Drizzle: pg-boss (its own SQL) and the
 * realtime LISTEN connection. PGlite is one in-process session, so it is shared as is; PostgreSQL gets the URL
 * so those parts open their own connections.
 */
export type RawDatabase = { kind: 'pglite'; client: PGlite } | { kind: 'postgres'; url: string };

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Executor;
  raw: RawDatabase;
  /** Runs fn in one transaction. */
  transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T>;
  /**
   * Applies the migrations of `migrationsFolder` (another folder: tests that migrate step by step) and answers how
   * many it applied. On PostgreSQL under an advisory lock: processes starting together migrate once, one at a time.
   */
  migrate(folder?: string): Promise<number>;
  /** How many migrations the database records as applied (0 before the first). */
  appliedMigrationCount(): Promise<number>;
  /** Whether every migration shipped with this build has been applied. */
  migrationsApplied(): Promise<boolean>;
  ping(): Promise<void>;
  /** The connection pool right now (PGlite, one in-process session: 1 connection, none idle, none waiting). */
  pool(): PoolStats;
  close(): Promise<void>;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/**
 * Beside this module: src/server/db/migrations from a checkout, dist/server/migrations in the production bundle
 * (scripts/build/server-bundle.ts copies the folder there, next to server.js).
 */
export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** The session advisory lock key migrators take on PostgreSQL ("PRLYMIGR" in ASCII). */
const MIGRATION_LOCK_KEY = '5787772417556957010';

export function shippedMigrations(): { tag: string; when: number }[] {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  return journal.entries;
}

export interface DatabaseOptions {
  /** postgres:// URL; when absent, PGlite. */
  url?: string;
  /** PGlite data directory; absent means in memory. */
  dataDir?: string;
  poolSize?: number;
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  let db: Executor;
  let close: () => Promise<void>;
  /** Applies a folder's migrations; answers how many it applied. */
  let runMigrations: (folder: string) => Promise<number>;
  let kind: Database['kind'];
  let raw: RawDatabase;
  let poolStats: () => PoolStats;

  if (opts.url) {
    const pg = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.default.Pool({ connectionString: opts.url, max: opts.poolSize ?? 10 });
    // An idle client's error (server restart) must not crash the process; the next query reconnects.
    pool.on('error', () => undefined);
    const d = drizzle(pool, { schema });
    db = d as unknown as Executor;
    close = () => pool.end();
    runMigrations = async (folder) => {
      // A session lock: held on one connection of the pool, which also runs the migrations.
      const client = await pool.connect();
      let failed: Error | undefined;
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        try {
          const locked = drizzle(client, { schema });
          const before = await appliedMigrationCount(locked as unknown as Executor);
          await migrate(locked, { migrationsFolder: folder });
          return (await appliedMigrationCount(locked as unknown as Executor)) - before;
        } finally {
          await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
        }
      } catch (err) {
        failed = err as Error;
        throw err;
      } finally {
        // A connection that failed mid-way is dropped, not returned to the pool (it might still hold the lock).
        client.release(failed);
      }
    };
    kind = 'postgres';
    raw = { kind: 'postgres', url: opts.url };
    poolStats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
  } else {
    const { PGlite } = await import('@electric-sql/pglite');
    const { drizzle } = await import('drizzle-orm/pglite');
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    if (opts.dataDir) fs.mkdirSync(opts.dataDir, { recursive: true });
    const client = opts.dataDir ? new PGlite(opts.dataDir) : new PGlite();
    await client.waitReady;
    const d = drizzle(client, { schema });
    db = d as unknown as Executor;
    close = () => client.close();
    runMigrations = async (folder) => {
      const before = await appliedMigrationCount(db);
      await migrate(d, { migrationsFolder: folder });
      return (await appliedMigrationCount(db)) - before;
    };
    kind = 'pglite';
    raw = { kind: 'pglite', client };
    poolStats = () => ({ total: 1, idle: 0, waiting: 0 });
  }

  return {
    kind,
    db,
    raw,
    transaction: (fn) => db.transaction((tx) => fn(tx as unknown as Executor)),
    migrate: (folder = migrationsFolder) => runMigrations(folder),
    appliedMigrationCount: () => appliedMigrationCount(db),
    async migrationsApplied() {
      return (await appliedMigrationCount(db)) >= shippedMigrations().length;
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    pool: () => poolStats(),
    close,
  };
}

/** Rows of drizzle's migrations table; 0 when it does not exist yet (nothing migrated). */
async function appliedMigrationCount(db: Executor): Promise<number> {
  try {
    const r = await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    return rowsOf<{ n: number }>(r)[0].n;
  } catch {
    return 0;
  }
}

/** Rows of a raw `db.execute` on either driver. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * A PostgreSQL unique violation, whichever driver raised it (drizzle wraps the driver's error as its cause); with
 * `constraint`, only a violation of that index.
 */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const pgError = e?.code === '23505' ? e : e?.cause?.code === '23505' ? e.cause : undefined;
  return pgError !== undefined && (constraint === undefined || pgError.constraint === constraint);
}
