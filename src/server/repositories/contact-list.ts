/** SQL of the contact list (GET /workspace/{id}/contacts): a page of contacts, searched and/or in a segment. */
import { type SQL, and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';
import { afterCursor, pageLimit, toPage } from './pagination';
import { contacts, toContact } from './resources';
import { phoneDigits, searchCondition } from './contact-search';
import { defaultCountryOf } from './workspaces';
import { type ContactOrder, sortedContactsPage } from './contact-sort';
import type { ContactSort } from '../../shared';

/** The contact search (see searchCondition), reading national phone numbers in the workspace's country. */
export async function contactSearchIn(ex: Executor, workspaceId: string, search: string): Promise<SQL | undefined> {
  return searchCondition(search, await defaultCountryOf(ex, workspaceId));
}

/** A search matching at most this many contacts is answered from their rows, sorted (see contactsPage). */
const SELECTIVE_SEARCH_CONTACTS = 2000;

/** The list's order: newest first unless the query names another; name and phone default to asc. */
export function contactOrderOf(query: { sort?: ContactSort; order?: 'asc' | 'desc' }): ContactOrder {
  const sort = query.sort ?? 'createdAt';
  return { sort, order: query.order ?? (sort === 'createdAt' ? 'desc' : 'asc') };
}

/** A page of contacts, newest first or in the query's order, limited by a segment and/or a search (see searchCondition). */
export async function contactsPage(
  ex: Executor,
  workspaceId: string,
  query: { search?: string; cursor?: string; limit?: number; sort?: ContactSort; order?: 'asc' | 'desc' },
  segmentCond: SQL | undefined,
  searchCond: SQL | undefined,
) {
  const c = t.contacts;
  const limit = pageLimit(query);
  const order = contactOrderOf(query);
  // Another order than newest first pages with a cursor of its own (see contact-sort.ts).
  const sorted = order.sort !== 'createdAt' || order.order !== 'desc' ? order : null;
  // A newest-first order key no index provides: the planner collects the matches and sorts them, rather than
  // walking the newest-first index and skipping non-matches (which, for a rare term, is the whole table).
  const collectAndSort = [sql`${c.createdAt} + interval '0 seconds' desc`, desc(c.id)] as const;
  if (searchCond) {
    // How many contacts the search matches decides the plan (not the planner's estimate, which took a
    // 5,000-row guess for "user12345" and walked a million rows for its eleven).
    const matched = await ex
      .select({ id: c.id })
      .from(c)
      .where(and(eq(c.workspaceId, workspaceId), searchCond))
      .limit(SELECTIVE_SEARCH_CONTACTS + 1);
    if (matched.length === 0) return { items: [], nextCursor: null };
    if (matched.length <= SELECTIVE_SEARCH_CONTACTS) {
      const matchedIds = sql`${c.id} = any(${sql.param(matched.map((m) => m.id))}::uuid[])`;
      if (sorted) return sortedContactsPage(ex, workspaceId, sorted, query, and(matchedIds, segmentCond), 'collect');
      const rows = await ex
        .select()
        .from(c)
        .where(
          and(
            eq(c.workspaceId, workspaceId),
            matchedIds,
            segmentCond,
            afterCursor(c.createdAt, c.id, query.cursor),
          ),
        )
        .orderBy(...collectAndSort)
        .limit(limit + 1);
      return toPage(rows, limit, (row) => ({ at: row.createdAt, id: row.id }), toContact);
    }
  }
  if (query.search && phoneDigits(query.search) >= 5) {
    // Phone numbers follow the order contacts were imported in, so "newest first, skipping non-matches"
    // can walk most of the table before it finds a page. A sort key no index provides makes the planner
    // collect the (few) matches through the phone prefix index and sort them instead.
    if (sorted) return sortedContactsPage(ex, workspaceId, sorted, query, and(segmentCond, searchCond), 'collect');
    const rows = await ex
      .select()
      .from(c)
      .where(and(eq(c.workspaceId, workspaceId), segmentCond, searchCond, afterCursor(c.createdAt, c.id, query.cursor)))
      .orderBy(...collectAndSort)
      .limit(limit + 1);
    return toPage(rows, limit, (row) => ({ at: row.createdAt, id: row.id }), toContact);
  }
  if (sorted) return sortedContactsPage(ex, workspaceId, sorted, query, and(segmentCond, searchCond), 'index');
  const page = await contacts.page(ex, workspaceId, query, and(segmentCond, searchCond));
  return { items: page.items.map(toContact), nextCursor: page.nextCursor };
}

/** How many contacts a segment and/or a search selects (the audience screen's exact total). */
export async function countContacts(ex: Executor, workspaceId: string, segmentCond: SQL | undefined, searchCond: SQL | undefined): Promise<number> {
  const c = t.contacts;
  const [row] = await ex
    .select({ n: sql<number>`count(*)::int` })
    .from(c)
    .where(and(eq(c.workspaceId, workspaceId), segmentCond, searchCond));
  return Number(row?.n ?? 0);
}
