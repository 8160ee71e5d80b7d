/** Statement counts shared by the benchmarks (run.ts skips files named lib*). */
import type pg from 'pg';
import type { Database } from '../../src/server/db/client';

/** Counts the statements and transactions of the app's pool (not pg-boss's, not the watcher's); call it before the first statement. */
export function countStatements(database: Database) {
  const pool = (database.db as unknown as { $client: pg.Pool }).$client;
  const n = { statements: 0, transactions: 0 };
  const textOf = (q: unknown) => (typeof q === 'string' ? q : ((q as { text?: string })?.text ?? ''));
  const wrap = <F extends (...a: never[]) => unknown>(f: F, self: unknown): F =>
    ((...args: Parameters<F>) => {
      const text = textOf(args[0]).trimStart().toLowerCase();
      if (text.startsWith('begin')) n.transactions++;
      else if (text !== 'commit' && text !== 'rollback') n.statements++;
      return f.apply(self, args);
    }) as F;
  // Every statement goes through a pooled client (pool.query too), each client's query is counted once.
  pool.on('connect', (client) => {
    client.query = wrap(client.query, client) as typeof client.query;
  });
  return n;
}
