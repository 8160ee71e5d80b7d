/**
 * What a backup or a restore must know of a PostgreSQL database before it touches it: how many migrations it has
 * applied, and whether Parley (its tables, its migrations' journal, pg-boss's queue) is in it already.
 */
import pg from 'pg';

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Migrations recorded in drizzle's journal table; 0 when the database was never migrated. */
export function appliedMigrationCount(url: string): Promise<number> {
  return withClient(url, async (client) => {
    const journal = await client.query<{ present: boolean }>(`select to_regclass('drizzle.__drizzle_migrations') is not null as present`);
    if (!journal.rows[0].present) return 0;
    const r = await client.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
    return r.rows[0].n;
  });
}

/** The schemas and public tables of Parley found in the database (empty when there is none), for a refusal. */
export function parleyObjectsIn(url: string): Promise<string[]> {
  return withClient(url, async (client) => {
    const r = await client.query<{ name: string }>(
      `select nspname as name from pg_namespace where nspname in ('drizzle', 'pgboss')
       union all
       select 'public.' || tablename from pg_tables where schemaname = 'public'
       order by 1`,
    );
    return r.rows.map((row) => row.name);
  });
}
