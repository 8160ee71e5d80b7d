/** SQL of internal notes and their mentions: notes are `messages` rows of type `note`, never sent. */
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';
import type { Mention } from '../../shared/schemas/agent-tools';
import { toMessage } from './conversations';
import { messageColumns, type MessageRow } from './messages';
import { afterCursor, iso, isoOrNull, toPage, type Page } from './pagination';

export async function insertNote(ex: Executor, values: { workspaceId: string; conversationId: string; memberId: string; text: string }) {
  const [row] = await ex
    .insert(t.messages)
    // A note has no wamid and no delivery: `sent` only says it is stored as written.
    .values({ ...values, type: 'note', creator: 'agent', status: 'sent' })
    .returning(messageColumns);
  return row;
}

/** Which of these ids are members of the workspace. */
export async function membersAmong(ex: Executor, workspaceId: string, memberIds: string[]): Promise<Set<string>> {
  if (memberIds.length === 0) return new Set();
  const wm = t.workspaceMembers;
  const rows = await ex
    .select({ id: wm.memberId })
    .from(wm)
    .where(and(eq(wm.workspaceId, workspaceId), inArray(wm.memberId, memberIds)));
  return new Set(rows.map((r) => r.id));
}

export async function insertMentions(
  ex: Executor,
  rows: { workspaceId: string; messageId: string; conversationId: string; memberId: string; mentionedByMemberId: string }[],
) {
  if (rows.length === 0) return [];
  return ex.insert(t.messageMentions).values(rows).onConflictDoNothing().returning();
}

const mentionColumns = {
  mention: t.messageMentions,
  message: messageColumns,
  contact: { id: t.contacts.id, name: t.contacts.name, phoneNumber: t.contacts.phoneNumber },
};

type MentionJoinRow = {
  mention: typeof t.messageMentions.$inferSelect;
  message: MessageRow;
  contact: { id: string; name: string | null; phoneNumber: string | null };
};

const toMention = (r: MentionJoinRow): Mention => ({
  id: r.mention.id,
  workspaceId: r.mention.workspaceId,
  conversationId: r.mention.conversationId,
  message: toMessage(r.message),
  memberId: r.mention.memberId,
  mentionedByMemberId: r.mention.mentionedByMemberId,
  createdAt: iso(r.mention.createdAt),
  readAt: isoOrNull(r.mention.readAt),
  contact: r.contact,
});

function mentionQuery(ex: Executor) {
  const mm = t.messageMentions;
  return ex
    .select(mentionColumns)
    .from(mm)
    .innerJoin(t.messages, and(eq(t.messages.workspaceId, mm.workspaceId), eq(t.messages.id, mm.messageId)))
    .innerJoin(t.conversations, and(eq(t.conversations.workspaceId, mm.workspaceId), eq(t.conversations.id, mm.conversationId)))
    .innerJoin(t.contacts, and(eq(t.contacts.workspaceId, mm.workspaceId), eq(t.contacts.id, t.conversations.contactId)));
}

export async function mentionsByIds(ex: Executor, workspaceId: string, ids: string[]): Promise<Mention[]> {
  if (ids.length === 0) return [];
  const mm = t.messageMentions;
  const rows = await mentionQuery(ex).where(and(eq(mm.workspaceId, workspaceId), inArray(mm.id, ids)));
  return rows.map(toMention);
}

/** A member's mentions, newest first; `unread` keeps those not yet seen. */
export async function mentionsOf(
  ex: Executor,
  workspaceId: string,
  memberId: string,
  f: { unread?: boolean; limit: number; cursor?: string },
): Promise<Page<Mention>> {
  const mm = t.messageMentions;
  const rows = await mentionQuery(ex)
    .where(and(eq(mm.workspaceId, workspaceId), eq(mm.memberId, memberId), f.unread ? isNull(mm.readAt) : undefined, afterCursor(mm.createdAt, mm.id, f.cursor)))
    .orderBy(desc(mm.createdAt), desc(mm.id))
    .limit(f.limit + 1);
  return toPage(rows, f.limit, (r) => ({ at: r.mention.createdAt, id: r.mention.id }), toMention);
}

export async function unreadMentionCount(ex: Executor, workspaceId: string, memberId: string): Promise<number> {
  const mm = t.messageMentions;
  const [row] = await ex
    .select({ n: sql<number>`count(*)::int` })
    .from(mm)
    .where(and(eq(mm.workspaceId, workspaceId), eq(mm.memberId, memberId), isNull(mm.readAt)));
  return row?.n ?? 0;
}

export async function markMentionsRead(ex: Executor, workspaceId: string, memberId: string, conversationId: string): Promise<number> {
  const mm = t.messageMentions;
  const rows = await ex
    .update(mm)
    .set({ readAt: sql`now()` })
    .where(and(eq(mm.workspaceId, workspaceId), eq(mm.memberId, memberId), eq(mm.conversationId, conversationId), isNull(mm.readAt)))
    .returning({ id: mm.id });
  return rows.length;
}
