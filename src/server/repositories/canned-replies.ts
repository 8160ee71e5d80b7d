/** SQL of canned replies: the workspace's (no owner) and each member's own, by shortcut. */
import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';
import type { CannedReply } from '../../shared/schemas/agent-tools';
import { iso, isUuid } from './pagination';
import { likeEscape } from './like';

export type CannedReplyRow = typeof t.cannedReplies.$inferSelect;

export const toCannedReply = (r: CannedReplyRow): CannedReply => ({
  id: r.id,
  workspaceId: r.workspaceId,
  scope: r.ownerMemberId ? 'personal' : 'workspace',
  shortcut: r.shortcut,
  text: r.text,
  memberId: r.ownerMemberId ?? r.createdByMemberId,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

/**
 * What a member may use: the workspace's replies and their own, by shortcut (a page is at most `limit`; the
 * cursor is the last shortcut, as the list is read in that order).
 */
export async function visibleTo(
  ex: Executor,
  workspaceId: string,
  memberId: string,
  f: { search?: string; scope?: 'workspace' | 'personal'; limit: number; after?: { shortcut: string; id: string } },
): Promise<CannedReplyRow[]> {
  const c = t.cannedReplies;
  const scope =
    f.scope === 'workspace' ? isNull(c.ownerMemberId) : f.scope === 'personal' ? eq(c.ownerMemberId, memberId) : or(isNull(c.ownerMemberId), eq(c.ownerMemberId, memberId));
  const like = f.search?.trim() ? `%${likeEscape(f.search.trim().toLowerCase())}%` : null;
  return ex
    .select()
    .from(c)
    .where(
      and(
        eq(c.workspaceId, workspaceId),
        scope,
        like ? sql`(lower(${c.shortcut}) like ${like} or lower(${c.text}) like ${like})` : undefined,
        f.after ? sql`(lower(${c.shortcut}), ${c.id}::text) > (${f.after.shortcut.toLowerCase()}, ${f.after.id})` : undefined,
      ),
    )
    .orderBy(asc(sql`lower(${c.shortcut})`), asc(sql`${c.id}::text`))
    .limit(f.limit);
}

export async function get(ex: Executor, workspaceId: string, id: string): Promise<CannedReplyRow | null> {
  if (!isUuid(id)) return null;
  const c = t.cannedReplies;
  const [row] = await ex.select().from(c).where(and(eq(c.workspaceId, workspaceId), eq(c.id, id))).limit(1);
  return row ?? null;
}

export async function insert(ex: Executor, values: typeof t.cannedReplies.$inferInsert): Promise<CannedReplyRow> {
  const [row] = await ex.insert(t.cannedReplies).values(values).returning();
  return row;
}

export async function update(ex: Executor, workspaceId: string, id: string, values: { shortcut?: string; text?: string }): Promise<CannedReplyRow | null> {
  const c = t.cannedReplies;
  const [row] = await ex
    .update(c)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(c.workspaceId, workspaceId), eq(c.id, id)))
    .returning();
  return row ?? null;
}

export async function remove(ex: Executor, workspaceId: string, id: string): Promise<boolean> {
  const c = t.cannedReplies;
  const rows = await ex.delete(c).where(and(eq(c.workspaceId, workspaceId), eq(c.id, id))).returning({ id: c.id });
  return rows.length > 0;
}
