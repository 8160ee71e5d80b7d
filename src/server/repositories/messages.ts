/**
 * SQL of `messages` by wamid or id, inserts and delivery statuses.
 */
import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';

// Every column but the stored search vector: only the search reads it, and a whole-row read would carry it
// through every message list, status and insert for nothing.
const { searchVector: _searchVector, ...messageColumnsOnly } = getTableColumns(t.messages);
/** What a whole-message read selects and a write returns. */
export const messageColumns = messageColumnsOnly;
export type MessageRow = Omit<typeof t.messages.$inferSelect, 'searchVector'>;

export async function messageById(ex: Executor, workspaceId: string, id: string): Promise<MessageRow | null> {
  const [row] = await ex
    .select(messageColumns)
    .from(t.messages)
    .where(and(eq(t.messages.workspaceId, workspaceId), eq(t.messages.id, id)))
    .limit(1);
  return row ?? null;
}

/** The customer's newest message in a conversation that WhatsApp gave an id (what a read receipt names). */
export async function latestInbound(ex: Executor, workspaceId: string, conversationId: string): Promise<MessageRow | null> {
  const m = t.messages;
  const [row] = await ex
    .select(messageColumns)
    .from(m)
    .where(and(eq(m.workspaceId, workspaceId), eq(m.conversationId, conversationId), eq(m.creator, 'user'), sql`${m.waMessageId} is not null`))
    .orderBy(desc(m.createdAt), desc(m.id))
    .limit(1);
  return row ?? null;
}

/** Delivery states in the order they can only move forward; `failed` is overtaken only by proof of delivery. */
export const statusRank: Record<string, number> = { pending: 0, sent: 1, failed: 2, delivered: 3, read: 4 };

/**
 * Applies a delivery status to an outbound message unless the message is already further along
 * (read beats delivered beats failed beats sent). Answers the updated row, or null when nothing changed.
 */
export async function applyStatus(
  ex: Executor,
  workspaceId: string,
  wamid: string,
  status: 'sent' | 'delivered' | 'read' | 'failed',
  failureReason: string | null,
): Promise<MessageRow | null> {
  const m = t.messages;
  const rank = sql`(case ${m.status} when 'pending' then 0 when 'sent' then 1 when 'failed' then 2 when 'delivered' then 3 when 'read' then 4 else 99 end)`;
  const [row] = await ex
    .update(m)
    .set({ status, failureReason: status === 'failed' ? failureReason : null })
    .where(and(eq(m.workspaceId, workspaceId), eq(m.waMessageId, wamid), sql`${rank} < ${statusRank[status]}`))
    .returning(messageColumns);
  return row ?? null;
}
