/**
 * Contacts as WhatsApp names them: a business-scoped user id, a phone number, or both. The inbound path finds or
 * creates a batch's customers here, user id first and phone second, and keeps one contact per person: a phone
 * contact whose messages start carrying a user id takes it, a user-id contact whose phone Meta starts sharing
 * takes that. The history of changes Meta announces is kept in `contact_identity_changes`.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';
import type { ContactRow } from './contacts';
import { tableRows } from './table-rows';

/** One customer as a batch of webhooks names them. */
export interface CustomerIdentity {
  phoneNumber: string | null;
  userId: string | null;
  parentUserId: string | null;
  username: string | null;
  /** The profile name: fills a contact without a name. */
  name: string | null;
}

/** The key a batch groups a customer's messages by: the user id when there is one, else the phone number. */
export const identityKey = (p: Pick<CustomerIdentity, 'phoneNumber' | 'userId'>): string => (p.userId ? `u:${p.userId}` : `p:${p.phoneNumber}`);

export interface UpsertedCustomers {
  byKey: Map<string, ContactRow>;
  created: Set<string>;
  /** Contacts this call changed (a name, a user id, a phone number or a username filled in). */
  updated: Set<string>;
}

/**
 * The contacts of these people's user ids or phone numbers (a contact named by both comes twice). The keys
 * travel as two JSON parameters (one parameter per key cost more to build than the lookup costs to run); each
 * key is looked up on its own index (laterals fenced by `offset 0`), so the plan stays a few index probes also
 * before the table has statistics, as in a burst right after the first contacts arrive.
 */
async function contactsOf(ex: Executor, workspaceId: string, people: CustomerIdentity[]): Promise<ContactRow[]> {
  const userIds = people.flatMap((p) => (p.userId ? [p.userId] : []));
  const phones = people.flatMap((p) => (p.phoneNumber ? [p.phoneNumber] : []));
  if (userIds.length === 0 && phones.length === 0) return [];
  const result = await ex.execute(sql`
    select c.* from jsonb_array_elements_text(${JSON.stringify(userIds)}::jsonb) as k(v)
    cross join lateral (select * from contacts where workspace_id = ${workspaceId}::uuid and user_id = k.v offset 0) c
    union all
    select c.* from jsonb_array_elements_text(${JSON.stringify(phones)}::jsonb) as k(v)
    cross join lateral (select * from contacts where workspace_id = ${workspaceId}::uuid and phone_number = k.v collate "C" offset 0) c`);
  return tableRows(t.contacts, result);
}

/** Matches each person to a contact: by user id first, then by phone number. */
function matchAll(rows: ContactRow[], people: CustomerIdentity[]): Map<string, ContactRow> {
  const byUserId = new Map(rows.filter((r) => r.userId).map((r) => [r.userId!, r]));
  const byPhone = new Map(rows.filter((r) => r.phoneNumber).map((r) => [r.phoneNumber!, r]));
  const matched = new Map<string, ContactRow>();
  for (const p of people) {
    const row = (p.userId ? byUserId.get(p.userId) : undefined) ?? (p.phoneNumber ? byPhone.get(p.phoneNumber) : undefined);
    if (row) matched.set(identityKey(p), row);
  }
  return matched;
}

/** Creates the contacts of people not matched, in key order (two batches take their index locks in one order). */
async function insertMissing(ex: Executor, workspaceId: string, missing: CustomerIdentity[]): Promise<ContactRow[]> {
  if (missing.length === 0) return [];
  const rows = missing.map((p) => ({ phone_number: p.phoneNumber, user_id: p.userId, parent_user_id: p.parentUserId, username: p.username, name: p.name }));
  // The rows travel as one JSON parameter; a contact created meanwhile by another delivery is left alone.
  const result = await ex.execute(sql`
    insert into contacts (workspace_id, phone_number, user_id, parent_user_id, username, name)
    select ${workspaceId}::uuid, v.phone_number, v.user_id, v.parent_user_id, v.username, v.name
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(phone_number text, user_id text, parent_user_id text, username text, name text)
    order by coalesce('u:' || v.user_id, 'p:' || v.phone_number)
    on conflict do nothing
    returning *`);
  return tableRows(t.contacts, result);
}

/**
 * Fills in what a matched contact lacks or what changed: a user id, a phone number (each only when no other
 * contact of the workspace holds it), the parent id, the username, a name. Answers the rows it changed, and
 * whether each got the user id and phone number it was given (not when another contact holds one of them).
 */
async function fillIn(
  ex: Executor,
  workspaceId: string,
  matched: Map<string, ContactRow>,
  people: CustomerIdentity[],
): Promise<{ rows: ContactRow[]; complete: boolean }> {
  const changes = people.flatMap((p) => {
    const row = matched.get(identityKey(p));
    if (!row) return [];
    const differs =
      (p.userId && !row.userId) ||
      (p.phoneNumber && !row.phoneNumber) ||
      (p.parentUserId && p.parentUserId !== row.parentUserId) ||
      (p.username && p.username !== row.username) ||
      (p.name && !row.name);
    return differs ? [{ id: row.id, phone_number: p.phoneNumber, user_id: p.userId, parent_user_id: p.parentUserId, username: p.username, name: p.name }] : [];
  });
  if (changes.length === 0) return { rows: [], complete: true };
  const result = await ex.execute(sql`
    update contacts c set
      user_id = coalesce(c.user_id, case when not exists (select 1 from contacts o where o.workspace_id = c.workspace_id and o.user_id = v.user_id) then v.user_id end),
      phone_number = coalesce(c.phone_number, case when not exists (select 1 from contacts o where o.workspace_id = c.workspace_id and o.phone_number = v.phone_number) then v.phone_number end),
      parent_user_id = coalesce(v.parent_user_id, c.parent_user_id),
      username = coalesce(v.username, c.username),
      name = coalesce(c.name, v.name),
      updated_at = now()
    from jsonb_to_recordset(${JSON.stringify(changes)}::jsonb)
      as v(id uuid, phone_number text, user_id text, parent_user_id text, username text, name text)
    where c.workspace_id = ${workspaceId}::uuid and c.id = v.id
    returning c.*`);
  const rows = tableRows(t.contacts, result);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const complete = changes.every((ch) => {
    const row = byId.get(ch.id);
    return !!row && (!ch.user_id || row.userId !== null) && (!ch.phone_number || row.phoneNumber !== null);
  });
  return { rows, complete };
}

/**
 * Finds or creates the contacts of a batch's customers (see the top of this file). The rows created or changed
 * here come back from their own statements; the contacts are read again only when something got in the way: a
 * contact created meanwhile by another delivery (an insert skipped), or a user id or phone number another
 * contact holds (not filled in), so the match is then made against what the workspace holds now.
 */
export async function upsertCustomers(ex: Executor, workspaceId: string, people: CustomerIdentity[]): Promise<UpsertedCustomers> {
  const found = await contactsOf(ex, workspaceId, people);
  let matched = matchAll(found, people);
  const createdRows = await insertMissing(ex, workspaceId, people.filter((p) => !matched.has(identityKey(p))));
  const filled = await fillIn(ex, workspaceId, matched, people);
  const created = new Set(createdRows.map((r) => r.id));
  const updated = new Set(filled.rows.map((r) => r.id));
  if (createdRows.length > 0 || filled.rows.length > 0) {
    const now = new Map(found.map((r) => [r.id, r]));
    for (const r of [...filled.rows, ...createdRows]) now.set(r.id, r);
    matched = matchAll([...now.values()], people);
  }
  if (matched.size < people.length || !filled.complete) matched = matchAll(await contactsOf(ex, workspaceId, people), people);
  return { byKey: matched, created, updated };
}

export type IdentityKind = (typeof t.contactIdentityChanges.$inferInsert)['kind'];

/**
 * Moves a contact to a new phone number or user id that Meta announced, keeping the history. When another
 * contact already holds the new value, the contact keeps its own (the two are not merged; the history says
 * so). Answers the contact after the change, or null when it is not in the workspace.
 */
export async function changeIdentity(
  ex: Executor,
  workspaceId: string,
  contactId: string,
  change: { kind: IdentityKind; current: string; at: Date },
): Promise<{ contact: ContactRow; moved: boolean } | null> {
  const c = t.contacts;
  const column = change.kind === 'phoneNumber' ? c.phoneNumber : change.kind === 'userId' ? c.userId : c.parentUserId;
  const [before] = await ex.select().from(c).where(and(eq(c.workspaceId, workspaceId), eq(c.id, contactId))).for('update');
  if (!before) return null;
  const previous = before[change.kind];
  if (previous === change.current) return { contact: before, moved: false };
  const [holder] = change.kind === 'parentUserId' ? [] : await ex.select({ id: c.id }).from(c).where(and(eq(c.workspaceId, workspaceId), eq(column, change.current))).limit(1);
  await ex.insert(t.contactIdentityChanges).values({ workspaceId, contactId, kind: change.kind, previous, current: change.current, changedAt: change.at });
  if (holder) return { contact: before, moved: false };
  const [after] = await ex
    .update(c)
    .set({ [change.kind]: change.current, updatedAt: sql`now()` })
    .where(and(eq(c.workspaceId, workspaceId), eq(c.id, contactId)))
    .returning();
  return { contact: after, moved: true };
}

/** The contact a user id or a phone number names (user id first). */
export async function contactByIdentity(ex: Executor, workspaceId: string, who: { userId?: string | null; phoneNumber?: string | null }): Promise<ContactRow | null> {
  const c = t.contacts;
  for (const [column, value] of [
    [c.userId, who.userId],
    [c.phoneNumber, who.phoneNumber],
  ] as const) {
    if (!value) continue;
    const [row] = await ex.select().from(c).where(and(eq(c.workspaceId, workspaceId), eq(column, value))).limit(1);
    if (row) return row;
  }
  return null;
}
