/**
 * Per-member unread state (addition). A conversation is unread for a member when the customer wrote and the
 * member has not opened it since: no read mark, or an inbound message RECEIVED after the mark
 * (`messages.created_at` is the time the server received it; WhatsApp's own timestamp can be older, e.g. a
 * delivery retried late, so it is not compared). `POST /conversation/{id}/read` moves the mark to now.
 */
import { type SQL, and, eq, exists, gt, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';
import type { TabCounts } from '../../shared/schemas/entities';
import { tabCountColumns } from './conversations';

/** Marks the conversation read for the member up to now. */
export async function markRead(ex: Executor, workspaceId: string, memberId: string, conversationId: string): Promise<void> {
  // The app's clock, like the receive time of inbound messages it is compared with.
  const readAt = new Date();
  await ex
    .insert(t.conversationReads)
    .values({ workspaceId, memberId, conversationId, readAt })
    .onConflictDoUpdate({
      target: [t.conversationReads.workspaceId, t.conversationReads.memberId, t.conversationReads.conversationId],
      set: { readAt },
    });
}

/** When the member last marked the conversation read (null: never opened it). */
export async function readMark(ex: Executor, workspaceId: string, memberId: string, conversationId: string): Promise<Date | null> {
  const r = t.conversationReads;
  const [row] = await ex
    .select({ readAt: r.readAt })
    .from(r)
    .where(and(eq(r.workspaceId, workspaceId), eq(r.memberId, memberId), eq(r.conversationId, conversationId)));
  return row?.readAt ?? null;
}

/**
 * "Unread for the member", over conversations left-joined to the member's read marks. `last_message_at` (also a
 * receive time) rules out most conversations before the message index is probed.
 */
function unreadCondition(ex: Executor): SQL {
  const c = t.conversations;
  const r = t.conversationReads;
  const m = t.messages;
  const inboundSinceMark = ex
    .select({ one: sql`1` })
    .from(m)
    .where(and(eq(m.workspaceId, c.workspaceId), eq(m.conversationId, c.id), gt(m.createdAt, r.readAt), eq(m.creator, 'user')));
  return and(isNotNull(c.lastInboundAt), or(isNull(r.readAt), and(gt(c.lastMessageAt, r.readAt), exists(inboundSinceMark))))!;
}

function withReads(workspaceId: string, memberId: string) {
  const c = t.conversations;
  const r = t.conversationReads;
  return {
    c,
    join: and(eq(r.workspaceId, c.workspaceId), eq(r.conversationId, c.id), eq(r.memberId, memberId))!,
    where: (extra?: SQL) => and(eq(c.workspaceId, workspaceId), extra),
  };
}

/** Unread conversations per live-chat tab, for the member (same tab rules as the counts). */
export async function unreadCounts(ex: Executor, workspaceId: string, memberId: string): Promise<TabCounts> {
  const { c, join, where } = withReads(workspaceId, memberId);
  const [row] = await ex
    .select(tabCountColumns(memberId))
    .from(c)
    .leftJoin(t.conversationReads, join)
    .where(where(unreadCondition(ex)));
  return row ?? { me: 0, assigned: 0, open: 0, closed: 0 };
}

/** Which of the given conversations are unread for the member. */
export async function unreadAmong(ex: Executor, workspaceId: string, memberId: string, conversationIds: string[]): Promise<Set<string>> {
  if (conversationIds.length === 0) return new Set();
  const { c, join, where } = withReads(workspaceId, memberId);
  const rows = await ex
    .select({ id: c.id })
    .from(c)
    .leftJoin(t.conversationReads, join)
    .where(where(and(inArray(c.id, conversationIds), unreadCondition(ex))));
  return new Set(rows.map((r) => r.id));
}
