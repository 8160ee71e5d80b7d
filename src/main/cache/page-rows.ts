// A REST list page turned into the column values the workspace cache stores: JSON.parse, the route's own response
// schema, and the row objects (strings and numbers, JSON.stringify of each row included). The page thread
// (page-worker.ts) runs it so the thread that writes only binds rows; the in-thread fallback runs the same code.
import type { Attribute, Contact, Conversation, ConversationListEntry, MemberProfile, Message } from '../../shared';
import { workspaceRoutes } from '../../shared/api/routes/workspace';
import type { RouteAnswer } from './server-api';

/** The REST lists a full sync reads, by the rows they fill. */
export const pageRoutes = {
  attributes: 'listAttributes',
  members: 'listMembers',
  contacts: 'listContacts',
  conversations: 'listConversations',
} as const;
export type PageKind = keyof typeof pageRoutes;

export const activityOf = (c: Conversation) => c.lastMessageAt ?? c.createdAt;

export const contactRow = (c: Contact) => ({
  id: c.id,
  createdAt: c.createdAt,
  name: c.name,
  phone: c.phoneNumber,
  username: c.username ?? null,
  userId: c.userId ?? null,
  email: c.email,
  city: c.city,
  tags: c.tags.join(' '),
  data: JSON.stringify(c),
});

export type ContactRow = ReturnType<typeof contactRow>;

export const messageRow = (m: Message, data = JSON.stringify(m)) => ({ id: m.id, conversationId: m.conversationId, createdAt: m.createdAt, text: m.text, data });

/** A Conversation without the list's extras (they live in their own columns). */
export function conversationOnly(c: Conversation): Conversation {
  return {
    id: c.id,
    createdAt: c.createdAt,
    isActive: c.isActive,
    channel: c.channel,
    contactId: c.contactId,
    workspaceId: c.workspaceId,
    whatsappAccountId: c.whatsappAccountId,
    assigneeMemberId: c.assigneeMemberId,
    assigneeBotId: c.assigneeBotId,
    lastMessageAt: c.lastMessageAt,
  };
}

/** The conversation's row and its last message's (stored twice: in the row for the list, and as a message). */
export function conversationRows(c: Conversation, lastMessage: Message | null | undefined, unread: boolean | undefined) {
  const lastJson = lastMessage ? JSON.stringify(lastMessage) : null;
  return {
    conversation: {
      id: c.id,
      contactId: c.contactId,
      isActive: c.isActive ? 1 : 0,
      assigneeMemberId: c.assigneeMemberId,
      assigneeBotId: c.assigneeBotId,
      activityAt: activityOf(c),
      unread: unread ? 1 : 0,
      unreadKnown: unread === undefined ? null : unread ? 1 : 0,
      data: JSON.stringify(conversationOnly(c)),
      lastMessage: lastJson,
      lastMessageAt: lastMessage?.createdAt ?? null,
    },
    message: lastMessage ? messageRow(lastMessage, lastJson!) : null,
  };
}

/** A conversation list entry: its contact's row too. */
export const entryRows = (entry: ConversationListEntry) => ({ contact: contactRow(entry.Contact), ...conversationRows(entry, entry.lastMessage, entry.unread) });

export const dataRow = (item: Attribute | MemberProfile) => ({ id: item.id, data: JSON.stringify(item) });

type Items<K extends PageKind> = RouteAnswer<(typeof pageRoutes)[K]>['items'];

const rowsOf = {
  attributes: (items: Items<'attributes'>) => items.map(dataRow),
  members: (items: Items<'members'>) => items.map(dataRow),
  contacts: (items: Items<'contacts'>) => items.map(contactRow),
  conversations: (items: Items<'conversations'>) => items.map(entryRows),
};

export type PageRows<K extends PageKind> = ReturnType<(typeof rowsOf)[K]>;
export interface ParsedPage<K extends PageKind> {
  rows: PageRows<K>;
  nextCursor: string | null;
}

/** The page's text is not JSON (the schema's own error says what else is wrong with it). */
export class PageNotJsonError extends Error {}

export function parsePage<K extends PageKind>(kind: K, text: string): ParsedPage<K> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new PageNotJsonError(`${pageRoutes[kind]}: the answer is not JSON`);
  }
  const page = workspaceRoutes[pageRoutes[kind]].response.parse(body) as RouteAnswer<(typeof pageRoutes)[K]>;
  return { rows: (rowsOf[kind] as (items: Items<K>) => PageRows<K>)(page.items), nextCursor: page.nextCursor };
}

/** What the writing thread posts to the page thread, and what comes back. */
export interface PageRequest {
  id: number;
  kind: PageKind;
  text: string;
}
export type PageAnswer = { id: number; page: ParsedPage<PageKind> } | { id: number; error: string; notJson: boolean };
