/**
 * Fair auto-assignment: which conversations wait for an owner, whether their number has an
 * active bot (the bot goes first), and which available member is next in the round-robin.
 */
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';

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
