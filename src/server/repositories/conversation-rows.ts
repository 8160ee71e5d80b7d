/**
 * SQL of `conversations` row by row (find, lock, open, update, move to the top); the lists are in conversations.ts.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';
import { tableRows } from './table-rows';

export type ConversationRow = typeof t.conversations.$inferSelect;

/**
 * Serialises, until commit, the messages of these (contact, number) threads, so two first messages stored at once
 * open one conversation, not two. All of a batch's threads are locked in one fixed order: batches never deadlock.
 */
export async function lockThreads(ex: Executor, workspaceId: string, threads: { contactId: string; whatsappAccountId: string }[]): Promise<void> {
  const keys = [...new Set(threads.map((th) => `thread:${workspaceId}:${th.contactId}:${th.whatsappAccountId}`))].sort();
  await ex.execute(sql`
    select pg_advisory_xact_lock(hashtext(k))
    from (select k from jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb) as k order by k) as ordered`);
}

/**
 * Each contact's most recent conversation on that number (open or closed), locked for the rest of the transaction.
 * The contact ids travel as one JSON parameter (a batch's worth of parameters cost more to build than to run).
 */
export async function latestConversationsLocked(
  ex: Executor,
  workspaceId: string,
  whatsappAccountId: string,
  contactIds: string[],
): Promise<Map<string, ConversationRow>> {
  const result = await ex.execute(sql`
    select c.* from conversations c
    where c.workspace_id = ${workspaceId}::uuid and c.id in (
      select distinct on (l.contact_id) l.id from conversations l
      where l.workspace_id = ${workspaceId}::uuid and l.whatsapp_account_id = ${whatsappAccountId}::uuid
        and l.contact_id = any(array(select jsonb_array_elements_text(${JSON.stringify(contactIds)}::jsonb)::uuid))
      order by l.contact_id, l.last_activity_at desc, l.created_at desc)
    order by c.id
    for update`);
  return new Map(tableRows(t.conversations, result).map((r) => [r.contactId, r]));
}

/** Opens conversations (the rows travel as one JSON parameter). */
export async function insertConversations(
  ex: Executor,
  values: { workspaceId: string; contactId: string; whatsappAccountId: string }[],
): Promise<ConversationRow[]> {
  if (values.length === 0) return [];
  const rows = values.map((v) => ({ workspace_id: v.workspaceId, contact_id: v.contactId, whatsapp_account_id: v.whatsappAccountId }));
  const result = await ex.execute(sql`
    insert into conversations (workspace_id, contact_id, whatsapp_account_id)
    select v.workspace_id, v.contact_id, v.whatsapp_account_id
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(workspace_id uuid, contact_id uuid, whatsapp_account_id uuid)
    returning *`);
  return tableRows(t.conversations, result);
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

