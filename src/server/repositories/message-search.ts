/**
 * Full-text search of messages: the stored `search_vector` (`to_tsvector('simple', text)`, a generated column)
 * behind the GIN index `messages_text_search_idx`. 'simple' lowercases and splits words without stemming, so it
 * treats every language alike; each word of the query matches as a prefix (`ord` finds "order", "orders").
 */
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';
import type { Message } from '../../shared';
import { toMessage } from './conversations';
import { messageColumns } from './messages';
import { afterCursor, toPage, type Page } from './pagination';

/** The words of a query as the index knows them (letters and digits, lowercased), at most 8. */
export function searchTerms(q: string): string[] {
  return [...new Set((q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8))];
}

/** A tsquery of prefix terms, all required. Terms hold only letters and digits, so nothing needs quoting. */
const tsQuery = (terms: string[]) => terms.map((w) => `${w}:*`).join(' & ');
const matches = (terms: string[]) =>
  sql`${t.messages.searchVector} @@ to_tsquery('simple', ${tsQuery(terms)})`;

/** Every match in one conversation, oldest first (a conversation's rows are found by its own index). */
export async function conversationMatches(
  ex: Executor,
  workspaceId: string,
  conversationId: string,
  terms: string[],
  max = 1000,
): Promise<{ id: string; createdAt: string }[]> {
  if (terms.length === 0) return [];
  const m = t.messages;
  const rows = await ex
    .select({ id: m.id, createdAt: m.createdAt })
    .from(m)
    .where(and(eq(m.workspaceId, workspaceId), eq(m.conversationId, conversationId), matches(terms)))
    .orderBy(asc(m.createdAt), asc(m.id))
    .limit(max);
  return rows.map((r) => ({ id: r.id, createdAt: r.createdAt.toISOString() }));
}

export interface SearchHit {
  message: Message;
  contact: { id: string; name: string | null; phoneNumber: string | null };
}

/** A search matching at most this many messages is answered from those rows, sorted (see workspaceMatches). */
const SELECTIVE_SEARCH_MESSAGES = 2000;

/**
 * Messages of the workspace matching every term, newest first, with the contact of their conversation.
 * How many messages match decides the plan (as for contacts, repositories/contact-list.ts): the first query asks
 * the GIN index for up to 2,001 matches; up to 2,000 are fetched by id and sorted; a broader search walks the
 * workspace's newest-first index (`messages_workspace_created_idx`) and checks each message, where matches are
 * dense enough to fill a page early. The planner's own estimate cannot tell "order" in 1% of messages from "order"
 * in 40%, and its wrong guess costs either a sort of 400,000 rows or a walk of the whole table for 11 rows.
 */
export async function workspaceMatches(
  ex: Executor,
  workspaceId: string,
  terms: string[],
  page: { limit: number; cursor?: string },
): Promise<Page<SearchHit>> {
  // The cursor is checked first: a malformed one is refused (400) whether or not anything matches.
  const after = afterCursor(t.messages.createdAt, t.messages.id, page.cursor);
  if (terms.length === 0) return { items: [], nextCursor: null };
  const m = t.messages;
  const cv = t.conversations;
  const ct = t.contacts;
  const matched = await ex
    .select({ id: m.id })
    .from(m)
    .where(and(eq(m.workspaceId, workspaceId), matches(terms)))
    .limit(SELECTIVE_SEARCH_MESSAGES + 1);
  if (matched.length === 0) return { items: [], nextCursor: null };
  const selective = matched.length <= SELECTIVE_SEARCH_MESSAGES;
  const rows = await ex
    .select({ message: messageColumns, contact: { id: ct.id, name: ct.name, phoneNumber: ct.phoneNumber } })
    .from(m)
    .innerJoin(cv, and(eq(cv.workspaceId, m.workspaceId), eq(cv.id, m.conversationId)))
    .innerJoin(ct, and(eq(ct.workspaceId, cv.workspaceId), eq(ct.id, cv.contactId)))
    .where(
      and(
        eq(m.workspaceId, workspaceId),
        selective ? sql`${m.id} = any(${sql.param(matched.map((r) => r.id))}::uuid[])` : undefined,
        matches(terms),
        after,
      ),
    )
    // Selective: an order key no index provides, so the few matches are collected and sorted.
    .orderBy(...(selective ? [sql`${m.createdAt} + interval '0 seconds' desc`, desc(m.id)] : [desc(m.createdAt), desc(m.id)]))
    .limit(page.limit + 1);
  return toPage(rows, page.limit, (r) => ({ at: r.message.createdAt, id: r.message.id }), (r) => ({ message: toMessage(r.message), contact: r.contact }));
}
