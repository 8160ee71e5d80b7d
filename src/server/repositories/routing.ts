/**
 * Fair auto-assignment (issue 19 item 8): which conversations wait for an owner, whether their number has an
 * active bot (the bot goes first), and which available member is next in the round-robin.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';

/** Unassigned open conversations that the given inbound messages (by wamid) landed in. */
export async function unassignedByWamids(ex: Executor, workspaceId: string, wamids: string[]): Promise<{ id: string; whatsappAccountId: string | null }[]> {
  if (wamids.length === 0) return [];
  const c = t.conversations;
  const m = t.messages;
  return ex
    .selectDistinct({ id: c.id, whatsappAccountId: c.whatsappAccountId })
    .from(m)
    .innerJoin(c, and(eq(c.workspaceId, m.workspaceId), eq(c.id, m.conversationId)))
    .where(
      and(
        eq(m.workspaceId, workspaceId),
        sql`${m.waMessageId} = any(${sql.param(wamids)}::text[])`,
        eq(c.isActive, true),
        isNull(c.assigneeMemberId),
        isNull(c.assigneeBotId),
      ),
    );
}

/** Whether the number has an active bot: then unassigned conversations are the bot's first (seam for the bots). */
export async function numberHasActiveBot(ex: Executor, workspaceId: string, whatsappAccountId: string): Promise<boolean> {
  const b = t.bots;
  const [row] = await ex
    .select({ id: b.id })
    .from(b)
    .where(and(eq(b.workspaceId, workspaceId), eq(b.whatsappAccountId, whatsappAccountId), eq(b.isActive, true)))
    .limit(1);
  return !!row;
}

/**
 * The next member of the round-robin: available, under their capacity of open conversations, the one who got
 * an automatic assignment longest ago (never first). Their row is locked and marked in the caller's
 * transaction, so two servers assigning at once pick different members.
 */
export async function takeNextAgent(tx: Executor, workspaceId: string, at: Date): Promise<string | null> {
  const wm = t.workspaceMembers;
  const c = t.conversations;
  const open = sql<number>`(select count(*) from ${c} where ${c.workspaceId} = ${wm.workspaceId} and ${c.assigneeMemberId} = ${wm.memberId} and ${c.isActive})`;
  const [next] = await tx
    .select({ memberId: wm.memberId })
    .from(wm)
    .where(and(eq(wm.workspaceId, workspaceId), eq(wm.available, true), sql`${open} < ${wm.chatCapacity}`))
    .orderBy(sql`${wm.lastAutoAssignedAt} asc nulls first`, wm.createdAt, wm.memberId)
    .limit(1)
    .for('update', { skipLocked: true });
  if (!next) return null;
  await tx.update(wm).set({ lastAutoAssignedAt: at }).where(and(eq(wm.workspaceId, workspaceId), eq(wm.memberId, next.memberId)));
  return next.memberId;
}

/** A member's availability and capacity (members settings). */
export async function setAvailability(ex: Executor, workspaceId: string, memberId: string, v: { available?: boolean; chatCapacity?: number }) {
  const wm = t.workspaceMembers;
  const set: { available?: boolean; chatCapacity?: number } = {};
  if (v.available !== undefined) set.available = v.available;
  if (v.chatCapacity !== undefined) set.chatCapacity = v.chatCapacity;
  const [row] = await ex
    .update(wm)
    .set(set)
    .where(and(eq(wm.workspaceId, workspaceId), eq(wm.memberId, memberId)))
    .returning({ memberId: wm.memberId, available: wm.available, chatCapacity: wm.chatCapacity });
  return row ?? null;
}

export async function routingOf(ex: Executor, workspaceId: string) {
  const wm = t.workspaceMembers;
  return ex
    .select({ memberId: wm.memberId, available: wm.available, chatCapacity: wm.chatCapacity })
    .from(wm)
    .where(eq(wm.workspaceId, workspaceId))
    .orderBy(wm.createdAt, wm.memberId);
}
