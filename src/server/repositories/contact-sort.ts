/**
 * The contact list in an order other than newest first: by creation time, by name or by
 * phone number, either way, ties broken by id. Each order walks an index contacts already have
 * (workspace_id + created_at + id; workspace_id + lower(name) text_pattern_ops; workspace_id + phone_number
 * collated "C"), so a page stays a short index walk at a million contacts and needs no migration. A selective
 * search instead collects its few matches and sorts them, through order keys no index provides (see
 * contactsPage). Keyset pagination: the cursor holds the last row's sort key and id.
 *
 * Names compare lower-cased and byte by byte, the order of the text_pattern_ops index (so "é" follows "z");
 * contacts without a name come after the named ones in either direction, among themselves by creation time.
 */
import { type SQL, and, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import type { Contact, ContactSort } from '../../shared';
import type { Executor } from '../db/client';
import * as t from '../db/schema';
import { badRequest } from '../errors';
import { type Page, cursorDate, isUuid, pageLimit } from './pagination';
import { toContact } from './resources';

export interface ContactOrder {
  sort: ContactSort;
  order: 'asc' | 'desc';
}

/** How a page's rows are reached: along the sort's index, or collected (few matches) and sorted. */
export type ContactPlan = 'index' | 'collect';

type Row = typeof t.contacts.$inferSelect & { nameKey: string | null };

/** A stretch of the order: the named contacts and then the unnamed ones, or the one stretch of the other sorts. */
interface Section {
  name: 'key' | 'unnamed';
  only?: SQL;
  orderBy: SQL[];
  after: (value: string, id: string) => SQL;
  valueOf: (row: Row) => string;
  /** The cursor's value is a timestamp (checked before it reaches SQL). */
  dated: boolean;
}

const c = t.contacts;

/** Creation time, then id: the created_at index serves both directions. */
function byCreation(name: Section['name'], dir: 'asc' | 'desc', plan: ContactPlan, only?: SQL): Section {
  // Adding nothing to the key hides it from the index, so the planner sorts the collected rows (see contactsPage).
  const key = plan === 'index' ? sql`${c.createdAt}` : sql`(${c.createdAt} + interval '0 seconds')`;
  const op = sql.raw(dir === 'asc' ? '>' : '<');
  return {
    name,
    only,
    orderBy: [sql`${key} ${sql.raw(dir)}`, sql`${c.id} ${sql.raw(dir)}`],
    after: (at, id) => sql`(${c.createdAt}, ${c.id}) ${op} (${at}::timestamptz, ${id}::uuid)`,
    valueOf: (row) => row.createdAt.toISOString(),
    dated: true,
  };
}

function sectionsOf({ sort, order: dir }: ContactOrder, plan: ContactPlan): Section[] {
  const d = sql.raw(dir);
  if (sort === 'createdAt') return [byCreation('key', dir, plan)];
  if (sort === 'phoneNumber') {
    // phone_number is collated "C": the unique (workspace_id, phone_number) index is already in byte order.
    // Contacts whose phone WhatsApp withholds come after the others in either direction, by creation time.
    const key = plan === 'index' ? sql`${c.phoneNumber}` : sql`(${c.phoneNumber} || '')`;
    const op = sql.raw(dir === 'asc' ? '>' : '<');
    return [
      {
        name: 'key',
        only: sql`${c.phoneNumber} is not null`,
        orderBy: [sql`${key} ${d}`, sql`${c.id} ${d}`],
        after: (phone, id) => sql`(${c.phoneNumber}, ${c.id}) ${op} (${phone}, ${id}::uuid)`,
        valueOf: (row) => row.phoneNumber ?? '',
        dated: false,
      },
      byCreation('unnamed', dir, plan, isNull(c.phoneNumber)),
    ];
  }
  // lower(name) with the pattern operators is the order of contacts_name_prefix_idx (text_pattern_ops); a "C"
  // collation gives the same byte order without matching that index.
  const lowered = sql`lower(${c.name})`;
  const [lt, le, gt, ge] = ['~<~', '~<=~', '~>~', '~>=~'].map((o) => sql.raw(o));
  const named: Section = {
    name: 'key',
    // On lower(name), not name: an index condition, so a descending walk starts past the unnamed rows (which
    // the index keeps at its end) instead of reading through them.
    only: sql`${lowered} is not null`,
    orderBy: [
      plan === 'index' ? sql`${lowered} using ${dir === 'asc' ? lt : gt}` : sql`${lowered} collate "C" ${d}`,
      sql`${c.id} ${d}`,
    ],
    after: (name, id) =>
      dir === 'asc'
        ? sql`${lowered} ${ge} ${name}::text and (${lowered} ${gt} ${name}::text or ${c.id} > ${id}::uuid)`
        : sql`${lowered} ${le} ${name}::text and (${lowered} ${lt} ${name}::text or ${c.id} < ${id}::uuid)`,
    valueOf: (row) => row.nameKey ?? '',
    dated: false,
  };
  return [named, byCreation('unnamed', dir, plan, isNull(c.name))];
}

const tagOf = (o: ContactOrder) => `${o.sort}.${o.order}`;

function encodeCursor(o: ContactOrder, section: Section['name'], value: string, id: string): string {
  return Buffer.from(JSON.stringify([tagOf(o), section, value, id])).toString('base64url');
}

/** A cursor of this very order (another order's cursor would skip or repeat rows): else 400. */
function decodeCursor(o: ContactOrder, sections: Section[], cursor: string): { index: number; value: string; id: string } {
  try {
    const [tag, section, value, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const index = sections.findIndex((s) => s.name === section);
    if (tag !== tagOf(o) || index < 0 || typeof value !== 'string' || typeof id !== 'string' || !isUuid(id)) throw new Error('bad');
    if (sections[index].dated) cursorDate(value);
    return { index, value, id };
  } catch {
    throw badRequest('Invalid cursor');
  }
}

/** A page of contacts in the given order, among those `where` selects (search, segment, opt-out). */
export async function sortedContactsPage(
  ex: Executor,
  workspaceId: string,
  order: ContactOrder,
  query: { cursor?: string; limit?: number },
  where: SQL | undefined,
  plan: ContactPlan,
): Promise<Page<Contact>> {
  const limit = pageLimit(query);
  const sections = sectionsOf(order, plan);
  const from = query.cursor ? decodeCursor(order, sections, query.cursor) : null;
  const rows: { row: Row; section: Section }[] = [];
  // One more row than the page tells whether a next page exists; the unnamed stretch is read only when the
  // named one ran out before it.
  for (let i = from?.index ?? 0; i < sections.length && rows.length <= limit; i++) {
    const section = sections[i];
    const after = from && i === from.index ? section.after(from.value, from.id) : undefined;
    const got = await ex
      .select({ ...getTableColumns(c), nameKey: sql<string | null>`lower(${c.name})` })
      .from(c)
      .where(and(eq(c.workspaceId, workspaceId), where, section.only, after))
      .orderBy(...section.orderBy)
      .limit(limit + 1 - rows.length);
    for (const row of got) rows.push({ row, section });
  }
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map((x) => toContact(x.row)),
    nextCursor: rows.length > limit && last ? encodeCursor(order, last.section.name, last.section.valueOf(last.row), last.row.id) : null,
  };
}
