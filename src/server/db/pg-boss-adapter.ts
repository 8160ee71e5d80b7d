/**
 * pg-boss runs its own SQL through a `{ executeSql(text, values) }` object. These adapters let it run on
 * PGlite (one in-process session, no socket) and inside a Drizzle transaction; the one query of the job queue's
 * own (what is still queued) lives here too, so src/server/jobs builds no SQL.
 */
import type { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { type Executor, rowsOf } from './client';

/**
 * PGlite through its own API: `query` for parameterised statements (one statement, extended protocol), `exec`
 * for the parameterless ones (pg-boss sends its schema creation and maintenance as one multi-statement text).
 * Both wait for PGlite's transaction lock, so pg-boss never interleaves with an open Drizzle transaction.
 */
export function pgliteDb(client: PGlite): PgBoss.Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      // PGlite answers in-process without ever waiting on I/O, so pg-boss's pollers (one per worker: dozens) can
      // keep it busy back to back and starve this thread's file and socket callbacks: an import's file reads
      // stalled for 30 s once the bot jobs added workers. A poll (pg-boss's fetch, the only statement with SKIP
      // LOCKED) first lets pending I/O run; if the database closed meanwhile (the app stopping), it finds no job.
      if (text.includes('SKIP LOCKED')) {
        await new Promise((resolve) => setImmediate(resolve));
        if (client.closed) return { rows: [] };
      }
      if (values && values.length > 0) return { rows: (await client.query(text, values)).rows };
      const results = await client.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
  };
}

/**
 * `$n` placeholders of pg-boss's SQL turned into Drizzle parameters, so the statement can run on any Executor.
 * A placeholder used more than once stays one parameter: pg-boss's insert reads `$5` as text in one CASE branch
 * and casts it to a timestamp in another, which only works when both are the same (text) parameter. Drizzle
 * numbers parameters in order of appearance, so a repeat is written as the number its first use received.
 */
export function toDrizzleSql(text: string, values: unknown[] = []): SQL {
  const parts: SQL[] = [];
  const numbered = new Map<number, number>();
  let last = 0;
  for (const m of text.matchAll(/\$(\d+)/g)) {
    parts.push(sql.raw(text.slice(last, m.index)));
    const n = Number(m[1]);
    const seen = numbered.get(n);
    if (seen !== undefined) {
      parts.push(sql.raw(`$${seen}`));
    } else {
      numbered.set(n, numbered.size + 1);
      // sql.param keeps an array or object as one parameter (a bare interpolation would expand an array).
      parts.push(sql`${sql.param(values[n - 1] ?? null)}`);
    }
    last = m.index + m[0].length;
  }
  parts.push(sql.raw(text.slice(last)));
  return sql.join(parts, sql.raw(''));
}

/** Runs pg-boss's statements on a Drizzle executor: a job sent this way commits or rolls back with the transaction. */
export function executorDb(ex: Executor): PgBoss.Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      return { rows: rowsOf(await ex.execute(toDrizzleSql(text, values))) };
    },
  };
}

/** Jobs of `names` not finished yet, by name and state (those due more than a minute ahead do not count). */
export async function unfinishedJobCounts(ex: Executor, names: string[]): Promise<{ name: string; state: string; n: number }[]> {
  return rowsOf<{ name: string; state: string; n: number }>(
    await ex.execute(sql`
      select name, state::text as state, count(*)::int as n from pgboss.job
      where name in ${names} and state < 'completed' and start_after < now() + interval '1 minute'
      group by name, state`),
  );
}

/** Jobs due and waiting for a worker (created or retrying, start time passed), by name: how many, and the oldest's wait. */
export async function waitingJobs(ex: Executor): Promise<{ name: string; waiting: number; oldestSeconds: number }[]> {
  return rowsOf<{ name: string; waiting: number; oldestSeconds: number }>(
    await ex.execute(sql`
      select name, count(*)::int as waiting, extract(epoch from now() - min(start_after))::float8 as "oldestSeconds"
      from pgboss.job where state < 'active' and start_after <= now()
      group by name`),
  );
}
