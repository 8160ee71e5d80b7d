// The cache's row shapes and the pure helpers its reads and writes share: the FTS query of what the user typed,
// a tab's condition, a list entry from its stored JSON.
import type { Contact, Conversation, ConversationListEntry, Message } from '../../shared';
import type { ConversationRow } from './workspace-statements';

export type LiveChatTab = 'me' | 'assigned' | 'open' | 'closed';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * FTS5 query for what the user typed: every word must match the start of a word anywhere in the indexed
 * fields ("ada" finds "Lovelace, Ada"; "love ada" too). Words are quoted, so FTS syntax typed by the user is
 * plain text. A phone number typed with spaces or dashes ("+1 415-555 0123") is one word, as it is indexed.
 * null when nothing searchable is left.
 */
export function ftsQuery(search: string | undefined): string | null {
  const typed = (search ?? '').normalize('NFKC');
  const phoneLike = /^[\s+()./-]*\d[\d\s()./-]*$/.test(typed);
  const words = (phoneLike ? [typed.replace(/\D/g, '')] : typed.match(/[\p{L}\p{N}]+/gu)) ?? [];
  if (words.length === 0) return null;
  return words.slice(0, 16).map((w) => `"${w}"*`).join(' ');
}

export const activityOf = (c: Conversation) => c.lastMessageAt ?? c.createdAt;

export function tabWhere(tab: LiveChatTab): string {
  switch (tab) {
    case 'me':
      return 'is_active = 1 AND assignee_member_id = @me';
    case 'assigned':
      return 'is_active = 1 AND (assignee_member_id IS NOT NULL OR assignee_bot_id IS NOT NULL)';
    case 'open':
      return 'is_active = 1';
    case 'closed':
      return 'is_active = 0';
  }
}

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
    // Kept so the offline list still shows who waits for a person after a bot gave up.
    ...(c.needsPerson ? { needsPerson: true as const } : {}),
  };
}

export function toListEntry(row: ConversationRow): ConversationListEntry {
  return {
    ...(JSON.parse(row.data) as Conversation),
    Contact: JSON.parse(row.contact!) as Contact,
    lastMessage: row.last_message ? (JSON.parse(row.last_message) as Message) : null,
    unread: row.unread === 1,
  };
}

export function toPage<T>(rows: T[], limit: number, offset: number): Page<T> {
  const more = rows.length > limit;
  return { items: more ? rows.slice(0, limit) : rows, nextCursor: more ? String(offset + limit) : null };
}
