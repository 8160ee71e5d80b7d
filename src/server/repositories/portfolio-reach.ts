/**
 * The business portfolio's moving 24 hours: the unique customers its numbers (a workspace's numbers) sent a
 * template since a time, from the sends that may have reached them (sent, unknown, or in flight). One scan of
 * the partial index `outbound_sends_template_reach_idx` answers the count, the oldest send (when room opens
 * next) and which of a batch's contacts are already counted (they take no new room).
 */
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { rowsOf } from '../db/client';
import * as t from '../db/schema';

export interface PortfolioReach {
  /** Unique customers reached since `since`. */
  reached: number;
  /** The oldest of those sends (null: none). */
  oldest: Date | null;
  /** The contacts among those asked about that are already counted. */
  counted: Set<string>;
}

export async function portfolioReach(ex: Executor, workspaceId: string, since: Date, contactIds: string[]): Promise<PortfolioReach> {
  const [row] = rowsOf<{ reached: number | string; oldest: string | Date | null; counted: string[] | null }>(
    await ex.execute(sql`
      select count(distinct contact_id) as reached, min(claimed_at) as oldest,
             array_agg(distinct contact_id::text) filter (where contact_id = any(${sql.param(contactIds)}::uuid[])) as counted
        from outbound_sends
       where workspace_id = ${workspaceId} and message_type = 'template' and claimed_at > ${since.toISOString()}::timestamptz
         and status in ('sent', 'unknown', 'claimed')`),
  );
  return {
    reached: Number(row?.reached ?? 0),
    oldest: row?.oldest ? new Date(row.oldest) : null,
    counted: new Set(row?.counted ?? []),
  };
}

/** The portfolio's limit as Meta last told it (the most recent health read among the workspace's numbers). */
export async function portfolioLimitOf(ex: Executor, workspaceId: string): Promise<string | null> {
  const a = t.whatsappAccounts;
  const [row] = await ex
    .select({ limit: a.portfolioMessagingLimit })
    .from(a)
    .where(and(eq(a.workspaceId, workspaceId), isNotNull(a.portfolioMessagingLimit)))
    .orderBy(sql`${a.healthUpdatedAt} desc nulls last`, desc(a.createdAt))
    .limit(1);
  return row?.limit ?? null;
}
