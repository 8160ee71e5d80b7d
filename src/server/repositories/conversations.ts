import { type SQL, and, asc, desc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';
import type { Conversation, ConversationEvent, ConversationListEntry, Message } from '../../shared';
import type { ConversationEventData } from '../../shared/schemas/entities';
import type { z } from 'zod';
import { afterCursor, decodeCursor, iso, isUuid, isoOrNull, pageLimit, toPage, type Page, type PageRequest } from './pagination';
import { toContact } from './resources';
import { messageColumns, type MessageRow } from './messages';
import { searchCondition } from './contact-search';
import { defaultCountryOf } from './workspaces';

export type ConversationRow = typeof t.conversations.$inferSelect;

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
  ...(r.needsPerson && { needsPerson: true as const }),
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
  sentFromPhone: r.sentFromPhone,
  campaignId: r.campaignId,
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
  /** `waiting`: only conversations whose last message is the customer's, longest waiting first. */
  sort?: 'recent' | 'waiting';
}

/**
 * When the customer's unanswered message came: their last inbound time when no agent or bot message (notes
 * do not answer) followed it, else null. Per listed row only (a page), through the messages index.
 */
function waitingSinceSql() {
  const c = t.conversations;
  const m = t.messages;
  return sql<Date | null>`case when ${c.lastInboundAt} is not null and not exists (
      select 1 from ${m} where ${m.workspaceId} = ${c.workspaceId} and ${m.conversationId} = ${c.id}
        and ${m.createdAt} > ${c.lastInboundAt} and ${m.creator} <> 'user' and ${m.type} <> 'note'
    ) then ${c.lastInboundAt} end`.mapWith(c.lastInboundAt);
}

/** Keyset condition for the waiting order (last_inbound_at ASC, id ASC). */
function afterWaitingCursor(cursor?: string): SQL | undefined {
  if (!cursor) return undefined;
  const k = decodeCursor(cursor);
  return sql`(${t.conversations.lastInboundAt}, ${t.conversations.id}) > (${k.at.toISOString()}::timestamptz, ${k.id}::uuid)`;
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

/**
 * A search that matches at most this many contacts is answered from those contacts' conversations (found
 * through the contact index, sorted here); one that matches more walks the tab's activity index, where matches
 * are dense enough to fill a page early. Which plan runs is decided by the data, not by the planner's estimate
 * (the planner walked 3,000+ conversations for "maria sm" when 1,600 contacts matched).
 */
const SELECTIVE_SEARCH_CONTACTS = 2000;

export async function listConversations(ex: Executor, workspaceId: string, f: ConversationListFilter): Promise<Page<ConversationListEntry>> {
  const c = t.conversations;
  const limit = pageLimit(f);
  const search = f.search?.trim();
  const waiting = f.sort === 'waiting';
  const where: (SQL | undefined)[] = [
    eq(c.workspaceId, workspaceId),
    tabCondition(f.tab, f.memberId),
    f.contactId ? eq(c.contactId, f.contactId) : undefined,
    waiting ? and(sql`${waitingSinceSql()} is not null`, afterWaitingCursor(f.cursor)) : afterCursor(c.lastActivityAt, c.id, f.cursor),
  ];
  if (search && waiting) {
    where.push(searchCondition(search, await defaultCountryOf(ex, workspaceId)));
  } else if (search) {
    // The contact search (name prefix or any of its words, e-mail prefix, phone), as in the contact list.
    const searchCond = searchCondition(search, await defaultCountryOf(ex, workspaceId));
    const matched = await ex
      .select({ id: t.contacts.id })
      .from(t.contacts)
      .where(and(eq(t.contacts.workspaceId, workspaceId), searchCond))
      .limit(SELECTIVE_SEARCH_CONTACTS + 1);
    if (matched.length === 0) return { items: [], nextCursor: null };
    if (matched.length <= SELECTIVE_SEARCH_CONTACTS) {
      const candidates = await ex
        .select({ id: c.id, at: c.lastActivityAt })
        .from(c)
        .where(and(...where, sql`${c.contactId} = any(${sql.param(matched.map((m) => m.id))}::uuid[])`));
      candidates.sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
      if (candidates.length === 0) return { items: [], nextCursor: null };
      where.push(sql`${c.id} = any(${sql.param(candidates.slice(0, limit + 1).map((x) => x.id))}::uuid[])`);
    } else {
      where.push(searchCond);
    }
  }
  const rows = await ex
    .select({ conversation: c, contact: t.contacts, waitingSince: waitingSinceSql() })
    .from(c)
    .innerJoin(t.contacts, and(eq(t.contacts.id, c.contactId), eq(t.contacts.workspaceId, c.workspaceId)))
    .where(and(...where))
    .orderBy(...(waiting ? [asc(c.lastInboundAt), asc(c.id)] : [desc(c.lastActivityAt), desc(c.id)]))
    .limit(limit + 1);
  const page = toPage(
    rows,
    limit,
    (r) => ({ at: waiting ? r.conversation.lastInboundAt! : r.conversation.lastActivityAt, id: r.conversation.id }),
    (r) => r,
  );
  const last = await lastMessages(ex, workspaceId, page.items.map((r) => r.conversation.id));
  return {
    nextCursor: page.nextCursor,
    items: page.items.map((r) => ({
      ...toConversation(r.conversation),
      Contact: toContact(r.contact),
      lastMessage: last.get(r.conversation.id) ?? null,
      waitingSince: isoOrNull(r.waitingSince),
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
    .select(messageColumns)
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

export type ConversationChanges = Partial<typeof t.conversations.$inferInsert>;

/** Applies a member's (or bot's, campaign's, system's) changes; null when the conversation is not in the workspace. */
export async function updateConversation(
  ex: Executor,
  workspaceId: string,
  id: string,
  changes: ConversationChanges,
): Promise<ConversationRow | null> {
  const [row] = await ex
    .update(t.conversations)
    .set(changes)
    .where(and(eq(t.conversations.workspaceId, workspaceId), eq(t.conversations.id, id)))
    .returning();
  return row ?? null;
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
    .select(messageColumns)
    .from(m)
    .where(
      and(eq(m.workspaceId, workspaceId), eq(m.conversationId, conversationId), afterCursor(m.createdAt, m.id, req.cursor), before),
    )
    .orderBy(desc(m.createdAt), desc(m.id))
    .limit(limit + 1);
  return toPage(rows, limit, (r) => ({ at: r.createdAt, id: r.id }), toMessage);
}

/** Hands a member's open conversations back to the queue (the member left the workspace); the rows as they are now. */
export async function unassignOpenOf(ex: Executor, workspaceId: string, memberId: string): Promise<ConversationRow[]> {
  const c = t.conversations;
  return ex
    .update(c)
    .set({ assigneeMemberId: null })
    .where(and(eq(c.workspaceId, workspaceId), eq(c.assigneeMemberId, memberId), eq(c.isActive, true)))
    .returning();
}
