import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf, shippedMigrations } from '../../src/server/db/client';
import { tenantTables } from '../../src/server/db/schema';
import { openTestDatabase } from '../support/server';

describe('migrations', () => {
  it.each(shippedMigrations().map((m) => m.tag))('%s applies on a fresh database and leaves it ready', async () => {
    const { database, dispose } = await openTestDatabase();
    try {
      expect(await database.migrationsApplied()).toBe(true);
      // Applying again is a no-op, as at every server start.
      await database.migrate();
      expect(await database.migrationsApplied()).toBe(true);
    } finally {
      await dispose();
    }
  });

  it('gives every tenant table an indexed NOT NULL workspace_id', async () => {
    const { database, dispose } = await openTestDatabase();
    try {
      const cols = rowsOf<{ table_name: string; is_nullable: string }>(
        await database.db.execute(sql`
          select table_name, is_nullable from information_schema.columns
          where table_schema = 'public' and column_name = 'workspace_id'`),
      );
      const byTable = new Map(cols.map((c) => [c.table_name, c.is_nullable]));
      const indexes = rowsOf<{ tablename: string; indexdef: string }>(
        await database.db.execute(sql`select tablename, indexdef from pg_indexes where schemaname = 'public'`),
      );
      for (const table of tenantTables) {
        expect(byTable.get(table), `${table}.workspace_id`).toBe('NO');
        // An index whose leading column is workspace_id serves every workspace-scoped query.
        const leading = indexes.filter((i) => i.tablename === table && /\(workspace_id[,)]/.test(i.indexdef));
        expect(leading.length, `${table} has an index led by workspace_id`).toBeGreaterThan(0);
      }
      // And every table with a workspace_id is listed as a tenant table.
      expect([...byTable.keys()].filter((t) => t !== 'workspaces').sort()).toEqual([...tenantTables].sort());
    } finally {
      await dispose();
    }
  });

  it('reports pending migrations as not ready', async () => {
    const { database, dispose } = await openTestDatabase();
    try {
      await database.db.execute(sql`delete from drizzle.__drizzle_migrations`);
      expect(await database.migrationsApplied()).toBe(false);
    } finally {
      await dispose();
    }
  });
});
