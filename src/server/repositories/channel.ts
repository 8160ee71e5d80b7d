/**
 * SQL of the WhatsApp channel: accounts by their Meta ids, inbound contacts and conversations, messages by
 * wamid, delivery statuses and template statuses. Everything is scoped by workspace_id, except the two look-ups
 * that find which workspace a webhook belongs to (by phone_number_id or WABA id): they are the tenant resolution.
 */
import { type SQL, and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';

export type AccountRow = typeof t.whatsappAccounts.$inferSelect;
export type ContactRow = typeof t.contacts.$inferSelect;
export type ConversationRow = typeof t.conversations.$inferSelect;
export type MessageRow = typeof t.messages.$inferSelect;
export type TemplateRow = typeof t.whatsappTemplates.$inferSelect;

/** Tenant resolution of a webhook: phone_number_id is unique across workspaces. */
export async function accountByPhoneNumberId(ex: Executor, phoneNumberId: string): Promise<AccountRow | null> {
  const [row] = await ex.select().from(t.whatsappAccounts).where(eq(t.whatsappAccounts.phoneNumberId, phoneNumberId)).limit(1);
  return row ?? null;
}

/** Tenant resolution of a template webhook: every account (any workspace) on that WABA. */
export async function accountsByWaba(ex: Executor, wabaAccountId: string): Promise<AccountRow[]> {
  return ex.select().from(t.whatsappAccounts).where(eq(t.whatsappAccounts.wabaAccountId, wabaAccountId));
}

/** The workspace's first connected account (template media uploads act through it). */
export async function firstAccount(ex: Executor, workspaceId: string): Promise<AccountRow | null> {
  const [row] = await ex
    .select()
    .from(t.whatsappAccounts)
    .where(eq(t.whatsappAccounts.workspaceId, workspaceId))
    .orderBy(t.whatsappAccounts.createdAt, t.whatsappAccounts.id)
    .limit(1);
  return row ?? null;
}

export async function account(ex: Executor, workspaceId: string, id: string): Promise<AccountRow | null> {
  const [row] = await ex
    .select()
    .from(t.whatsappAccounts)
    .where(and(eq(t.whatsappAccounts.workspaceId, workspaceId), eq(t.whatsappAccounts.id, id)))
    .limit(1);
  return row ?? null;
}

export async function contactByPhone(ex: Executor, workspaceId: string, phoneNumber: string): Promise<ContactRow | null> {
  const [row] = await ex
    .select()
    .from(t.contacts)
    .where(and(eq(t.contacts.workspaceId, workspaceId), eq(t.contacts.phoneNumber, phoneNumber)))
    .limit(1);
  return row ?? null;
}

/** Inserts a contact unless the phone number exists already (a concurrent delivery); null then. */
export async function insertContactIfAbsent(
  ex: Executor,
  values: { workspaceId: string; phoneNumber: string; name: string | null; country: string | null },
): Promise<ContactRow | null> {
  const [row] = await ex
    .insert(t.contacts)
    .values(values)
    .onConflictDoNothing({ target: [t.contacts.workspaceId, t.contacts.phoneNumber] })
    .returning();
  return row ?? null;
}

export async function setContactName(ex: Executor, workspaceId: string, id: string, name: string): Promise<ContactRow> {
  const [row] = await ex
    .update(t.contacts)
    .set({ name, updatedAt: sql`now()` })
    .where(and(eq(t.contacts.workspaceId, workspaceId), eq(t.contacts.id, id)))
    .returning();
  return row;
}

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

export async function messageByWamid(ex: Executor, workspaceId: string, wamid: string): Promise<MessageRow | null> {
  const [row] = await ex
    .select()
    .from(t.messages)
    .where(and(eq(t.messages.workspaceId, workspaceId), eq(t.messages.waMessageId, wamid)))
    .limit(1);
  return row ?? null;
}

/** The customer's newest message in a conversation that WhatsApp gave an id (what a read receipt names). */
export async function latestInbound(ex: Executor, workspaceId: string, conversationId: string): Promise<MessageRow | null> {
  const m = t.messages;
  const [row] = await ex
    .select()
    .from(m)
    .where(and(eq(m.workspaceId, workspaceId), eq(m.conversationId, conversationId), eq(m.creator, 'user'), sql`${m.waMessageId} is not null`))
    .orderBy(desc(m.createdAt), desc(m.id))
    .limit(1);
  return row ?? null;
}

/** Inserts a message; a wamid seen before in the workspace inserts nothing and answers null. */
export async function insertMessage(ex: Executor, values: typeof t.messages.$inferInsert): Promise<MessageRow | null> {
  const [row] = await ex
    .insert(t.messages)
    .values(values)
    .onConflictDoNothing({ target: [t.messages.workspaceId, t.messages.waMessageId] })
    .returning();
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
    .returning();
  return row ?? null;
}

/** Templates known by Meta's id on any of these accounts; the status webhook changes them. */
export async function templatesByMetaId(ex: Executor, accountIds: string[], metaId: string): Promise<TemplateRow[]> {
  if (accountIds.length === 0) return [];
  return ex
    .select()
    .from(t.whatsappTemplates)
    .where(and(inArray(t.whatsappTemplates.whatsappAccountId, accountIds), eq(t.whatsappTemplates.whatsappTemplateId, metaId)));
}

export async function setTemplateStatus(ex: Executor, workspaceId: string, id: string, status: string): Promise<TemplateRow | null> {
  const [row] = await ex
    .update(t.whatsappTemplates)
    .set({ status })
    .where(and(eq(t.whatsappTemplates.workspaceId, workspaceId), eq(t.whatsappTemplates.id, id)))
    .returning();
  return row ?? null;
}

export async function accountsOfWorkspace(ex: Executor, workspaceId: string): Promise<AccountRow[]> {
  return ex
    .select()
    .from(t.whatsappAccounts)
    .where(eq(t.whatsappAccounts.workspaceId, workspaceId))
    .orderBy(t.whatsappAccounts.createdAt, t.whatsappAccounts.id);
}

export async function templateByName(
  ex: Executor,
  workspaceId: string,
  whatsappAccountId: string,
  name: string,
  language: string,
): Promise<TemplateRow | null> {
  const w = t.whatsappTemplates;
  const [row] = await ex
    .select()
    .from(w)
    .where(and(eq(w.workspaceId, workspaceId), eq(w.whatsappAccountId, whatsappAccountId), eq(w.name, name), eq(w.language, language)))
    .limit(1);
  return row ?? null;
}

export async function templateByMetaId(
  ex: Executor,
  workspaceId: string,
  whatsappAccountId: string,
  metaId: string,
): Promise<TemplateRow | null> {
  const w = t.whatsappTemplates;
  const [row] = await ex
    .select()
    .from(w)
    .where(and(eq(w.workspaceId, workspaceId), eq(w.whatsappAccountId, whatsappAccountId), eq(w.whatsappTemplateId, metaId)))
    .limit(1);
  return row ?? null;
}

export async function updateTemplate(
  ex: Executor,
  workspaceId: string,
  id: string,
  values: Partial<typeof t.whatsappTemplates.$inferInsert>,
): Promise<TemplateRow | null> {
  const [row] = await ex
    .update(t.whatsappTemplates)
    .set(values)
    .where(and(eq(t.whatsappTemplates.workspaceId, workspaceId), eq(t.whatsappTemplates.id, id)))
    .returning();
  return row ?? null;
}

/*
 * Set-based versions of the inbound steps above, for a batch of webhook deliveries stored in one transaction
 * (src/server/whatsapp/ingest.ts). Same locks and keys as their one-row counterparts, so both paths can run at once.
 */

/** The wamids of this list already stored in the workspace. */
export async function storedWamids(ex: Executor, workspaceId: string, wamids: string[]): Promise<Set<string>> {
  if (wamids.length === 0) return new Set();
  const rows = await ex
    .select({ wamid: t.messages.waMessageId })
    .from(t.messages)
    .where(and(eq(t.messages.workspaceId, workspaceId), inArray(t.messages.waMessageId, wamids)));
  return new Set(rows.map((r) => r.wamid!));
}

/**
 * Finds or creates the contacts of these phone numbers; a profile name fills a contact without a name.
 * Inserted in phone order, so two batches touching the same new numbers take their index locks in one order.
 */
export async function upsertContactsByPhone(
  ex: Executor,
  workspaceId: string,
  people: { phoneNumber: string; name: string | null }[],
): Promise<{ byPhone: Map<string, ContactRow>; created: Set<string>; named: Set<string> }> {
  const sorted = [...people].sort((a, b) => (a.phoneNumber < b.phoneNumber ? -1 : a.phoneNumber > b.phoneNumber ? 1 : 0));
  const phones = sorted.map((p) => p.phoneNumber);
  const byPhone = new Map<string, ContactRow>();
  const existing = await ex
    .select()
    .from(t.contacts)
    .where(and(eq(t.contacts.workspaceId, workspaceId), inArray(t.contacts.phoneNumber, phones)));
  for (const row of existing) byPhone.set(row.phoneNumber, row);
  const created = new Set<string>();
  const missing = sorted.filter((p) => !byPhone.has(p.phoneNumber));
  if (missing.length > 0) {
    const rows = await ex
      .insert(t.contacts)
      .values(missing.map((p) => ({ workspaceId, phoneNumber: p.phoneNumber, name: p.name, country: null })))
      .onConflictDoNothing({ target: [t.contacts.workspaceId, t.contacts.phoneNumber] })
      .returning();
    for (const row of rows) {
      byPhone.set(row.phoneNumber, row);
      created.add(row.id);
    }
    // Created by another delivery meanwhile.
    const raced = missing.filter((p) => !byPhone.has(p.phoneNumber)).map((p) => p.phoneNumber);
    if (raced.length > 0) {
      const rows2 = await ex
        .select()
        .from(t.contacts)
        .where(and(eq(t.contacts.workspaceId, workspaceId), inArray(t.contacts.phoneNumber, raced)));
      for (const row of rows2) byPhone.set(row.phoneNumber, row);
    }
  }
  const named = new Set<string>();
  const toName = sorted.filter((p) => p.name && !byPhone.get(p.phoneNumber)?.name);
  if (toName.length > 0) {
    const rows = await ex
      .update(t.contacts)
      .set({
        name: sql`v.name`,
        updatedAt: sql`now()`,
      })
      .from(sql`jsonb_to_recordset(${JSON.stringify(toName.map((p) => ({ id: byPhone.get(p.phoneNumber)!.id, name: p.name })))}::jsonb) as v(id uuid, name text)`)
      .where(and(eq(t.contacts.workspaceId, workspaceId), sql`${t.contacts.id} = v.id`, sql`${t.contacts.name} is null`))
      .returning();
    for (const row of rows as ContactRow[]) {
      byPhone.set(row.phoneNumber, row);
      named.add(row.id);
    }
  }
  return { byPhone, created, named };
}

/** lockThread for several contacts of one number at once, in a fixed order (no deadlock between batches). */
export async function lockThreads(ex: Executor, workspaceId: string, whatsappAccountId: string, contactIds: string[]): Promise<void> {
  const keys = [...new Set(contactIds)].map((id) => `thread:${workspaceId}:${id}:${whatsappAccountId}`).sort();
  await ex.execute(sql`
    select pg_advisory_xact_lock(hashtext(k))
    from (select k from jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb) as k order by k) as ordered`);
}

/** Each contact's most recent conversation on that number (latestConversation), locked like lockConversation. */
export async function latestConversationsLocked(
  ex: Executor,
  workspaceId: string,
  whatsappAccountId: string,
  contactIds: string[],
): Promise<Map<string, ConversationRow>> {
  const c = t.conversations;
  const latest = ex
    .selectDistinctOn([c.contactId], { id: c.id })
    .from(c)
    .where(and(eq(c.workspaceId, workspaceId), eq(c.whatsappAccountId, whatsappAccountId), inArray(c.contactId, contactIds)))
    .orderBy(c.contactId, desc(c.lastActivityAt), desc(c.createdAt));
  const rows = await ex
    .select()
    .from(c)
    .where(and(eq(c.workspaceId, workspaceId), inArray(c.id, latest)))
    .orderBy(c.id)
    .for('update');
  return new Map(rows.map((r) => [r.contactId, r]));
}

export async function insertConversations(
  ex: Executor,
  values: { workspaceId: string; contactId: string; whatsappAccountId: string }[],
): Promise<ConversationRow[]> {
  if (values.length === 0) return [];
  return ex.insert(t.conversations).values(values).returning();
}

/** Inserts messages; those whose wamid the workspace has already are skipped (not answered). */
export async function insertMessages(ex: Executor, values: (typeof t.messages.$inferInsert)[]): Promise<MessageRow[]> {
  if (values.length === 0) return [];
  return ex
    .insert(t.messages)
    .values(values)
    .onConflictDoNothing({ target: [t.messages.workspaceId, t.messages.waMessageId] })
    .returning();
}

/** Sets the activity times of conversations the caller holds locked (values computed as touchForMessage does). */
export async function setConversationTimes(
  ex: Executor,
  workspaceId: string,
  rows: { id: string; lastMessageAt: Date | null; lastActivityAt: Date; lastInboundAt: Date | null }[],
): Promise<void> {
  if (rows.length === 0) return;
  const c = t.conversations;
  await ex
    .update(c)
    .set({ lastMessageAt: sql`v.last_message_at`, lastActivityAt: sql`v.last_activity_at`, lastInboundAt: sql`v.last_inbound_at` })
    .from(
      sql`jsonb_to_recordset(${JSON.stringify(rows.map((r) => ({ id: r.id, last_message_at: r.lastMessageAt, last_activity_at: r.lastActivityAt, last_inbound_at: r.lastInboundAt })))}::jsonb)
        as v(id uuid, last_message_at timestamptz, last_activity_at timestamptz, last_inbound_at timestamptz)`,
    )
    .where(and(eq(c.workspaceId, workspaceId), sql`${c.id} = v.id`));
}
