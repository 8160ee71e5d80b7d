import { type SQL, and, asc, desc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';
import type { Conversation, ConversationEvent, ConversationListEntry, Message } from '../../shared';
import type { ConversationEventData } from '../../shared/schemas/entities';
import type { z } from 'zod';
import { afterCursor, iso, isUuid, isoOrNull, pageLimit, toPage, type Page, type PageRequest } from './pagination';
import { toContact } from './resources';
import { searchCondition } from './contact-search';

export type ConversationRow = typeof t.conversations.$inferSelect;
export type MessageRow = typeof t.messages.$inferSelect;

export const toConversation = (r: ConversationRow): Conversation => ({
  id: r.id,
  createdAt: iso(r.createdAt),
  isActive: r.isActive,
  channel: 'WhatsApp',
  contactId: r.contactId,
  workspaceId: r.workspaceId,
  whatsappAccountId: r.whatsappAccountId,
  assigneeMemberId: r.assigneeMemberId,
  assigneeBotId: r.assigneeBotId,
  lastMessageAt: isoOrNull(r.lastMessageAt),
});

export const toMessage = (r: MessageRow): Message => ({
  id: r.id,
  type: r.type as Message['type'],
  header: r.header ?? null,
  text: r.text,
  mediaUrl: r.mediaUrl,
  footer: r.footer,
  action: r.action ?? null,
  templateComponents: r.templateComponents ?? null,
  createdAt: iso(r.createdAt),
  creator: r.creator,
  conversationId: r.conversationId,
  memberId: r.memberId,
  status: r.status as Message['status'],
  failureReason: r.failureReason,
});

export const toEvent = (r: typeof t.conversationEvents.$inferSelect): ConversationEvent => {
  const data = r.data as z.infer<typeof ConversationEventData>;
  return { id: r.id, createdAt: iso(r.createdAt), conversationId: r.conversationId, type: data.type, data };
};

export type Tab = 'me' | 'assigned' | 'open' | 'closed';

export interface ConversationListFilter extends PageRequest {
  tab?: Tab;
  search?: string;
  contactId?: string;
  /** The caller, for the `me` tab. */
  memberId: string;
}

function tabCondition(tab: Tab | undefined, memberId: string): SQL | undefined {
  const c = t.conversations;
  switch (tab) {
    case 'me':
      return and(eq(c.isActive, true), eq(c.assigneeMemberId, memberId));
    case 'assigned':
      return and(eq(c.isActive, true), or(isNotNull(c.assigneeMemberId), isNotNull(c.assigneeBotId)));
    case 'open':
      return eq(c.isActive, true);
    case 'closed':
      return eq(c.isActive, false);
    default:
      return undefined;
  }
}

export async function listConversations(ex: Executor, workspaceId: string, f: ConversationListFilter): Promise<Page<ConversationListEntry>> {
  const c = t.conversations;
  const limit = pageLimit(f);
  const search = f.search?.trim();
  let searchCond: SQL | undefined;
  if (search) {
    // The contact search (name prefix or any of its words, e-mail prefix, phone), as in the contact list.
    const [ws] = await ex.select({ country: t.workspaces.defaultCountry }).from(t.workspaces).where(eq(t.workspaces.id, workspaceId));
    searchCond = searchCondition(search, ws?.country ?? 'US');
  }
  const rows = await ex
    .select({ conversation: c, contact: t.contacts })
    .from(c)
    .innerJoin(t.contacts, and(eq(t.contacts.id, c.contactId), eq(t.contacts.workspaceId, c.workspaceId)))
    .where(
      and(
        eq(c.workspaceId, workspaceId),
        tabCondition(f.tab, f.memberId),
        f.contactId ? eq(c.contactId, f.contactId) : undefined,
        searchCond,
        afterCursor(c.lastActivityAt, c.id, f.cursor),
      ),
    )
    .orderBy(desc(c.lastActivityAt), desc(c.id))
    .limit(limit + 1);
  const page = toPage(rows, limit, (r) => ({ at: r.conversation.lastActivityAt, id: r.conversation.id }), (r) => r);
  const last = await lastMessages(ex, workspaceId, page.items.map((r) => r.conversation.id));
  return {
    nextCursor: page.nextCursor,
    items: page.items.map((r) => ({
      ...toConversation(r.conversation),
      Contact: toContact(r.contact),
      lastMessage: last.get(r.conversation.id) ?? null,
    })),
  };
}

/** The newest message of each conversation, in one query. */
export async function lastMessages(ex: Executor, workspaceId: string, conversationIds: string[]): Promise<Map<string, Message>> {
  const out = new Map<string, Message>();
  if (conversationIds.length === 0) return out;
  const m = t.messages;
  const rows = await ex
    .selectDistinctOn([m.conversationId])
    .from(m)
    .where(and(eq(m.workspaceId, workspaceId), inArray(m.conversationId, conversationIds)))
    .orderBy(m.conversationId, desc(m.createdAt), desc(m.id));
  for (const r of rows) out.set(r.conversationId, toMessage(r));
  return out;
}

export async function eventsOf(ex: Executor, workspaceId: string, conversationId: string): Promise<ConversationEvent[]> {
  const e = t.conversationEvents;
  const rows = await ex
    .select()
    .from(e)
    .where(and(eq(e.workspaceId, workspaceId), eq(e.conversationId, conversationId)))
    .orderBy(asc(e.createdAt), asc(e.id));
  return rows.map(toEvent);
}

/** Messages of a conversation in order; the detail answers the newest `limit` of them. */
export async function messagesOf(ex: Executor, workspaceId: string, conversationId: string, limit = 500): Promise<Message[]> {
  const m = t.messages;
  const rows = await ex
    .select()
    .from(m)
    .where(and(eq(m.workspaceId, workspaceId), eq(m.conversationId, conversationId)))
    .orderBy(desc(m.createdAt), desc(m.id))
    .limit(limit);
  return rows.reverse().map(toMessage);
}

export async function insertEvent(
  ex: Executor,
  workspaceId: string,
  conversationId: string,
  data: z.infer<typeof ConversationEventData>,
): Promise<ConversationEvent> {
  const [r] = await ex.insert(t.conversationEvents).values({ workspaceId, conversationId, data }).returning();
  return toEvent(r);
}

export async function touchActivity(ex: Executor, workspaceId: string, conversationId: string): Promise<void> {
  await ex
    .update(t.conversations)
    .set({ lastActivityAt: sql`now()` })
    .where(and(eq(t.conversations.workspaceId, workspaceId), eq(t.conversations.id, conversationId)));
}

/** One count per live-chat tab over the selected conversations (same rules as `tabCondition`). */
export function tabCountColumns(memberId: string) {
  const c = t.conversations;
  return {
    me: sql<number>`count(*) filter (where ${c.isActive} and ${c.assigneeMemberId} = ${memberId})`.mapWith(Number),
    assigned: sql<number>`count(*) filter (where ${c.isActive} and (${c.assigneeMemberId} is not null or ${c.assigneeBotId} is not null))`.mapWith(Number),
    open: sql<number>`count(*) filter (where ${c.isActive})`.mapWith(Number),
    closed: sql<number>`count(*) filter (where not ${c.isActive})`.mapWith(Number),
  };
}

/** How many conversations each live-chat tab holds, in one pass over the workspace's conversations. */
export async function countConversations(
  ex: Executor,
  workspaceId: string,
  memberId: string,
): Promise<{ me: number; assigned: number; open: number; closed: number }> {
  const c = t.conversations;
  const [row] = await ex.select(tabCountColumns(memberId)).from(c).where(eq(c.workspaceId, workspaceId));
  return row ?? { me: 0, assigned: 0, open: 0, closed: 0 };
}

/**
 * A page of a conversation's messages, newest first (keyset on createdAt, id). `before` names a message of the
 * conversation: only older ones are answered (an unknown id answers an empty page).
 */
export async function messagesPage(
  ex: Executor,
  workspaceId: string,
  conversationId: string,
  req: PageRequest & { before?: string },
): Promise<Page<Message>> {
  const m = t.messages;
  const limit = pageLimit(req);
  let before: SQL | undefined;
  if (req.before !== undefined) {
    if (!isUuid(req.before)) return { items: [], nextCursor: null };
    const anchor = ex
      .select({ createdAt: m.createdAt, id: m.id })
      .from(m)
      .where(and(eq(m.workspaceId, workspaceId), eq(m.conversationId, conversationId), eq(m.id, req.before)));
    before = sql`(${m.createdAt}, ${m.id}) < (select a.created_at, a.id from ${anchor.as('a')})`;
  }
  const rows = await ex
    .select()
    .from(m)
    .where(
      and(eq(m.workspaceId, workspaceId), eq(m.conversationId, conversationId), afterCursor(m.createdAt, m.id, req.cursor), before),
    )
    .orderBy(desc(m.createdAt), desc(m.id))
    .limit(limit + 1);
  return toPage(rows, limit, (r) => ({ at: r.createdAt, id: r.id }), toMessage);
}
