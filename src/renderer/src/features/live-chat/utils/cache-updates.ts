/**
 * Pure updates of the conversation lists held by the query cache (infinite queries: pages of
 * `{ items, nextCursor }`), applied when the event stream reports a change. Lists are ordered newest activity
 * first; an entry moves to where its last activity puts it, leaves a tab it no longer belongs to, and joins one
 * it now belongs to (unless it would land beyond the pages loaded so far: paging brings it then).
 */
import type { InfiniteData } from '@tanstack/react-query';
import type { Conversation, ConversationListEntry, Message } from '@shared/schemas/entities';
import type { LiveChatTab } from './tabs';

export interface ConversationPage {
  items: ConversationListEntry[];
  nextCursor: string | null;
}
export type ConversationPages = InfiniteData<ConversationPage, string | undefined>;

/** Which tab a conversation shows in (server: repositories/conversations.ts tabCondition). */
export function belongsToTab(c: Pick<Conversation, 'isActive' | 'assigneeMemberId' | 'assigneeBotId'>, tab: LiveChatTab, memberId: string | null): boolean {
  switch (tab) {
    case 'me':
      return c.isActive && !!memberId && c.assigneeMemberId === memberId;
    case 'assigned':
      return c.isActive && (!!c.assigneeMemberId || !!c.assigneeBotId);
    case 'open':
      return c.isActive;
    case 'closed':
      return !c.isActive;
  }
}

/** The list's search (name, phone number or e-mail contains the text, ignoring case), approximated in the client. */
export function matchesSearch(e: ConversationListEntry, search: string): boolean {
  const q = search.trim().toLowerCase();
  if (!q) return true;
  return [e.Contact.name, e.Contact.phoneNumber, e.Contact.email].some((v) => !!v && v.toLowerCase().includes(q));
}

export const activityOf = (e: Pick<Conversation, 'lastMessageAt' | 'createdAt'>) => e.lastMessageAt ?? e.createdAt;

export function findConversation(data: ConversationPages | undefined, id: string): ConversationListEntry | undefined {
  for (const p of data?.pages ?? []) {
    const hit = p.items.find((e) => e.id === id);
    if (hit) return hit;
  }
  return undefined;
}

/** Removes the conversation from wherever it is in the pages. */
export function removeConversation(data: ConversationPages, id: string): ConversationPages {
  if (!findConversation(data, id)) return data;
  return { ...data, pages: data.pages.map((p) => (p.items.some((e) => e.id === id) ? { ...p, items: p.items.filter((e) => e.id !== id) } : p)) };
}

/** Puts the entry where its activity orders it (replacing any older copy); leaves it out past the loaded pages. */
export function placeConversation(data: ConversationPages, entry: ConversationListEntry): ConversationPages {
  const without = removeConversation(data, entry.id);
  const at = activityOf(entry);
  const pages = without.pages.map((p) => ({ ...p, items: [...p.items] }));
  for (const p of pages) {
    const i = p.items.findIndex((e) => activityOf(e) < at || (activityOf(e) === at && e.id < entry.id));
    if (i >= 0) {
      p.items.splice(i, 0, entry);
      return { ...without, pages };
    }
  }
  const last = pages[pages.length - 1];
  if (!last) return { ...without, pages: [{ items: [entry], nextCursor: null }], pageParams: [undefined] };
  if (last.nextCursor === null) {
    last.items.push(entry);
    return { ...without, pages };
  }
  return without;
}

/** Applies a new state of a conversation to one list (tab + search). */
export function applyConversation(
  data: ConversationPages,
  entry: ConversationListEntry,
  tab: LiveChatTab,
  search: string,
  memberId: string | null,
): ConversationPages {
  if (belongsToTab(entry, tab, memberId) && matchesSearch(entry, search)) return placeConversation(data, entry);
  return removeConversation(data, entry.id);
}

/** A new or changed message: becomes the conversation's last message if it is the newest. */
export function withMessage(entry: ConversationListEntry, m: Message): ConversationListEntry {
  if (entry.lastMessage && entry.lastMessage.id !== m.id && entry.lastMessage.createdAt > m.createdAt) return entry;
  const lastMessageAt = !entry.lastMessageAt || entry.lastMessageAt < m.createdAt ? m.createdAt : entry.lastMessageAt;
  // A customer message makes it unread (the open conversation marks itself read again: api/mark-read.ts).
  return { ...entry, lastMessage: m, lastMessageAt, unread: m.creator === 'user' ? true : entry.unread };
}
