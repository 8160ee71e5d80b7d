/**
 * SQL of `conversations` row by row (find, lock, open, update, move to the top); the lists are in conversations.ts.
 */
import { type SQL, and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';

export type ConversationRow = typeof t.conversations.$inferSelect;

/**
 * Serialises, until commit, the deliveries of one contact on one number, so two first messages processed at
 * once open one conversation, not two.
 */
export async function lockThread(ex: Executor, workspaceId: string, contactId: string, whatsappAccountId: string): Promise<void> {
  await ex.execute(sql`select pg_advisory_xact_lock(hashtext(${`thread:${workspaceId}:${contactId}:${whatsappAccountId}`}))`);
}

/** The contact's most recent conversation on that account (open or closed). */
export async function latestConversation(
  ex: Executor,
  workspaceId: string,
  contactId: string,
  whatsappAccountId: string,
): Promise<ConversationRow | null> {
  const c = t.conversations;
  const [row] = await ex
    .select()
    .from(c)
    .where(and(eq(c.workspaceId, workspaceId), eq(c.contactId, contactId), eq(c.whatsappAccountId, whatsappAccountId)))
    .orderBy(desc(c.lastActivityAt), desc(c.createdAt))
    .limit(1);
  return row ?? null;
}

export async function conversation(ex: Executor, workspaceId: string, id: string): Promise<ConversationRow | null> {
  const [row] = await ex
    .select()
    .from(t.conversations)
    .where(and(eq(t.conversations.workspaceId, workspaceId), eq(t.conversations.id, id)))
    .limit(1);
  return row ?? null;
}

/** Locks the conversation row for the rest of the transaction (two sends or deliveries at once stay ordered). */
export async function lockConversation(ex: Executor, workspaceId: string, id: string): Promise<ConversationRow | null> {
  const [row] = await ex
    .select()
    .from(t.conversations)
    .where(and(eq(t.conversations.workspaceId, workspaceId), eq(t.conversations.id, id)))
    .for('update')
    .limit(1);
  return row ?? null;
}

export async function insertConversation(
  ex: Executor,
  values: { workspaceId: string; contactId: string; whatsappAccountId: string },
): Promise<ConversationRow> {
  const [row] = await ex.insert(t.conversations).values(values).returning();
  return row;
}

export async function updateConversation(
  ex: Executor,
  workspaceId: string,
  id: string,
  values: Partial<typeof t.conversations.$inferInsert>,
): Promise<ConversationRow> {
  const [row] = await ex
    .update(t.conversations)
    .set(values)
    .where(and(eq(t.conversations.workspaceId, workspaceId), eq(t.conversations.id, id)))
    .returning();
  return row;
}

/**
 * A message now counts as the conversation's latest activity. Times never move backwards, so a late retry of
 * an old delivery does not push a conversation down the list. `inboundAt` refreshes the 24-hour window.
 */
export async function touchForMessage(
  ex: Executor,
  workspaceId: string,
  id: string,
  at: Date,
  inboundAt?: Date,
): Promise<ConversationRow> {
  const c = t.conversations;
  const atIso = at.toISOString();
  const set: Record<string, SQL> = {
    lastMessageAt: sql`greatest(${c.lastMessageAt}, ${atIso}::timestamptz)`,
    lastActivityAt: sql`greatest(${c.lastActivityAt}, ${atIso}::timestamptz)`,
  };
  if (inboundAt) set.lastInboundAt = sql`greatest(${c.lastInboundAt}, ${inboundAt.toISOString()}::timestamptz)`;
  const [row] = await ex
    .update(c)
    .set(set)
    .where(and(eq(c.workspaceId, workspaceId), eq(c.id, id)))
    .returning();
  return row;
}

/** touchForMessage for several conversations at once (one time each: the newest message of the batch). */
export async function touchConversations(ex: Executor, workspaceId: string, touches: { id: string; at: Date }[]): Promise<Map<string, ConversationRow>> {
  if (touches.length === 0) return new Map();
  const c = t.conversations;
  const rows = await ex
    .update(c)
    .set({ lastMessageAt: sql`greatest(${c.lastMessageAt}, v.at)`, lastActivityAt: sql`greatest(${c.lastActivityAt}, v.at)` })
    .from(sql`jsonb_to_recordset(${JSON.stringify(touches)}::jsonb) as v(id uuid, at timestamptz)`)
    .where(and(eq(c.workspaceId, workspaceId), sql`${c.id} = v.id`))
    .returning();
  return new Map((rows as ConversationRow[]).map((r) => [r.id, r]));
}
