/** SQL of live bot sessions: locking, inbound messages to apply, attribute writes. */
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../db/client';
import * as t from '../db/schema';
import { tableRow } from './table-rows';

export type BotSessionRow = typeof t.botSessions.$inferSelect;
export type ConversationRow = typeof t.conversations.$inferSelect;

/** The conversation, locked: one turn of its bot at a time, and no assignment racing the bot's. */
export async function lockConversation(ex: Executor, workspaceId: string, conversationId: string): Promise<ConversationRow | null> {
  const [row] = await ex
    .select()
    .from(t.conversations)
    .where(and(eq(t.conversations.workspaceId, workspaceId), eq(t.conversations.id, conversationId)))
    .for('update');
  return row ?? null;
}

/** What a turn needs to know before applying a customer's messages, read in one statement. */
export interface TurnFacts {
  /** The conversation's running session, if any. */
  session: BotSessionRow | null;
  /** An agent wrote since the running session started (an agent's reply takes over). */
  agentWroteInSession: boolean;
  /** An agent wrote since the conversation was last closed (or ever): people have it, no bot starts. */
  agentWroteSinceOpen: boolean;
  /** The contact opted out of marketing: no session starts or advances. */
  optedOut: boolean;
  /** The workspace's own opt-out keywords. */
  optOutKeywords: string[];
}

/**
 * The running session, whether an agent wrote in it or since the conversation was last closed, the contact's
 * opt-out and the workspace's keywords: one statement where a turn used several.
 */
export async function turnFacts(ex: Executor, workspaceId: string, c: { id: string; contactId: string }): Promise<TurnFacts> {
  const rows = rowsOf<{ session: Record<string, unknown> | null; in_session: boolean | null; since_open: boolean; opted_out: boolean | null; keywords: string[] | null }>(
    await ex.execute(sql`
      with s as (select * from ${t.botSessions} where workspace_id = ${workspaceId} and conversation_id = ${c.id} and status = 'active' limit 1),
           closed as (select max(e.created_at) as at from ${t.conversationEvents} e
                       where e.workspace_id = ${workspaceId} and e.conversation_id = ${c.id} and e.data->>'type' = 'CONVERSATION_CLOSED')
      select (select row_to_json(s) from s) as session,
             exists (select 1 from ${t.messages} m, s where m.workspace_id = ${workspaceId} and m.conversation_id = ${c.id}
                      and m.creator = 'agent' and m.created_at > s.created_at) as in_session,
             exists (select 1 from ${t.messages} m where m.workspace_id = ${workspaceId} and m.conversation_id = ${c.id}
                      and m.creator = 'agent' and m.created_at > coalesce((select at from closed), '-infinity'::timestamptz)) as since_open,
             (select k.opted_out_at is not null from ${t.contacts} k where k.workspace_id = ${workspaceId} and k.id = ${c.contactId}) as opted_out,
             (select w.opt_out_keywords from ${t.workspaces} w where w.id = ${workspaceId}) as keywords`),
  );
  const row = rows[0];
  return {
    session: row?.session ? tableRow(t.botSessions, row.session) : null,
    agentWroteInSession: row?.in_session === true,
    agentWroteSinceOpen: row?.since_open === true,
    optedOut: row?.opted_out === true,
    optOutKeywords: row?.keywords ?? [],
  };
}

/** Whether an agent wrote since the session started, and whether the customer wrote after what the session handled. */
export async function wroteSince(ex: Executor, workspaceId: string, conversationId: string, agentSince: Date, customerSince: Date): Promise<{ agent: boolean; customer: boolean }> {
  const rows = rowsOf<{ agent: boolean; customer: boolean }>(
    await ex.execute(sql`select
      exists (select 1 from ${t.messages} m where m.workspace_id = ${workspaceId} and m.conversation_id = ${conversationId} and m.creator = 'agent' and m.created_at > ${agentSince.toISOString()}::timestamptz) as agent,
      exists (select 1 from ${t.messages} m where m.workspace_id = ${workspaceId} and m.conversation_id = ${conversationId} and m.creator = 'user' and m.created_at > ${customerSince.toISOString()}::timestamptz) as customer`),
  );
  return { agent: rows[0]?.agent === true, customer: rows[0]?.customer === true };
}

export async function sessionById(ex: Executor, workspaceId: string, id: string): Promise<BotSessionRow | null> {
  const [row] = await ex.select().from(t.botSessions).where(and(eq(t.botSessions.workspaceId, workspaceId), eq(t.botSessions.id, id)));
  return row ?? null;
}

export async function insertSession(ex: Executor, values: typeof t.botSessions.$inferInsert): Promise<BotSessionRow> {
  const [row] = await ex.insert(t.botSessions).values(values).returning();
  return row;
}

export async function updateSession(ex: Executor, workspaceId: string, id: string, set: Partial<typeof t.botSessions.$inferInsert>): Promise<BotSessionRow | null> {
  const [row] = await ex
    .update(t.botSessions)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(t.botSessions.workspaceId, workspaceId), eq(t.botSessions.id, id)))
    .returning();
  return row ?? null;
}

/** Ends the conversation's running session, if any (the conversation was taken from the bot). */
export async function endLiveSession(ex: Executor, workspaceId: string, conversationId: string, endReason: 'member'): Promise<void> {
  await ex
    .update(t.botSessions)
    .set({ status: 'ended', endReason, endedAt: new Date(), waitingFor: null, noAnswerAt: null, updatedAt: new Date() })
    .where(and(eq(t.botSessions.workspaceId, workspaceId), eq(t.botSessions.conversationId, conversationId), eq(t.botSessions.status, 'active')));
}

/** Identity uids of these members of the workspace (to name them: a handoff says who takes the conversation). */
export async function memberUids(ex: Executor, workspaceId: string, memberIds: string[]): Promise<Map<string, string>> {
  if (memberIds.length === 0) return new Map();
  const rows = await ex
    .select({ id: t.members.id, uid: t.members.uid })
    .from(t.members)
    .innerJoin(t.workspaceMembers, and(eq(t.workspaceMembers.memberId, t.members.id), eq(t.workspaceMembers.workspaceId, workspaceId)))
    .where(inArray(t.members.id, memberIds));
  return new Map(rows.map((r) => [r.id, r.uid]));
}

/** Whether an agent wrote in the conversation since the session started (an agent's reply takes over). */
export async function agentWroteSince(ex: Executor, workspaceId: string, conversationId: string, since: Date): Promise<boolean> {
  const [row] = await ex
    .select({ one: sql<number>`1` })
    .from(t.messages)
    .where(and(eq(t.messages.workspaceId, workspaceId), eq(t.messages.conversationId, conversationId), eq(t.messages.creator, 'agent'), gt(t.messages.createdAt, since)))
    .limit(1);
  return !!row;
}

/**
 * What a turn reads before running, in one statement: the workspace's attributes (id -> name, format, type), the
 * contact's values and the conversation's conversation-type values (three statements before).
 */
export async function turnContext(ex: Executor, workspaceId: string, contactId: string, conversationId: string) {
  const rows = rowsOf<{ attributes: { id: string; name: string; format: string; type: string }[] | null; contact: Record<string, unknown> | null; conversation: Record<string, string> | null }>(
    await ex.execute(sql`select
      (select coalesce(json_agg(json_build_object('id', a.id, 'name', a.name, 'format', a.format, 'type', a.type) order by a.created_at), '[]'::json)
         from ${t.attributes} a where a.workspace_id = ${workspaceId}) as attributes,
      (select c.attributes from ${t.contacts} c where c.workspace_id = ${workspaceId} and c.id = ${contactId}) as contact,
      (select v.values from ${t.conversationAttributes} v where v.workspace_id = ${workspaceId} and v.conversation_id = ${conversationId}) as conversation`),
  );
  const row = rows[0];
  return { attributes: row?.attributes ?? [], contact: row?.contact ?? {}, conversation: row?.conversation ?? {} };
}

/** Merges values (by attribute name) into the contact's attributes. */
export async function mergeContactAttributes(ex: Executor, workspaceId: string, contactId: string, values: Record<string, string>) {
  if (Object.keys(values).length === 0) return null;
  const [row] = await ex
    .update(t.contacts)
    .set({ attributes: sql`${t.contacts.attributes} || ${JSON.stringify(values)}::jsonb` })
    .where(and(eq(t.contacts.workspaceId, workspaceId), eq(t.contacts.id, contactId)))
    .returning();
  return row ?? null;
}

/** Merges values (by attribute name) into the conversation's conversation-type attributes. */
export async function mergeConversationAttributes(ex: Executor, workspaceId: string, conversationId: string, values: Record<string, string>) {
  if (Object.keys(values).length === 0) return;
  await ex
    .insert(t.conversationAttributes)
    .values({ workspaceId, conversationId, values })
    .onConflictDoUpdate({
      target: t.conversationAttributes.conversationId,
      set: { values: sql`${t.conversationAttributes.values} || excluded.values`, updatedAt: new Date() },
    });
}
