/**
 * The CRUD every tenant table shares: always scoped by workspace_id, so a row of another workspace is
 * indistinguishable from a missing one.
 */
import { type SQL, and, desc, eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client';
import { afterCursor, isUuid, pageLimit, toPage, type Page, type PageRequest } from './pagination';

type TenantTable = PgTable & { id: PgColumn; workspaceId: PgColumn; createdAt: PgColumn };

export function tenantCrud<T extends TenantTable, Row extends { id: string; createdAt: Date } = T['$inferSelect'] & { id: string; createdAt: Date }>(
  table: T,
) {
  const scope = (workspaceId: string, id: string) => and(eq(table.workspaceId, workspaceId), eq(table.id, id));
  return {
    async get(ex: Executor, workspaceId: string, id: string): Promise<Row | null> {
      if (!isUuid(id)) return null;
      const rows = (await ex.select().from(table as PgTable).where(scope(workspaceId, id)).limit(1)) as unknown as Row[];
      return rows[0] ?? null;
    },
    async page(ex: Executor, workspaceId: string, req: PageRequest, where?: SQL): Promise<Page<Row>> {
      const limit = pageLimit(req);
      const rows = (await ex
        .select()
        .from(table as PgTable)
        .where(and(eq(table.workspaceId, workspaceId), where, afterCursor(table.createdAt, table.id, req.cursor)))
        .orderBy(desc(table.createdAt), desc(table.id))
        .limit(limit + 1)) as unknown as Row[];
      return toPage(rows, limit, (r) => ({ at: r.createdAt, id: r.id }), (r) => r);
    },
    async insert(ex: Executor, values: T['$inferInsert']): Promise<Row> {
      const rows = (await ex.insert(table).values(values).returning()) as unknown as Row[];
      return rows[0];
    },
    async update(ex: Executor, workspaceId: string, id: string, values: Partial<T['$inferInsert']>): Promise<Row | null> {
      if (!isUuid(id)) return null;
      if (Object.keys(values).length === 0) return this.get(ex, workspaceId, id);
      const rows = (await ex.update(table).set(values as never).where(scope(workspaceId, id)).returning()) as unknown as Row[];
      return rows[0] ?? null;
    },
    async remove(ex: Executor, workspaceId: string, id: string): Promise<boolean> {
      if (!isUuid(id)) return false;
      const rows = (await ex.delete(table).where(scope(workspaceId, id)).returning({ id: table.id })) as unknown as { id: string }[];
      return rows.length > 0;
    },
  };
}
