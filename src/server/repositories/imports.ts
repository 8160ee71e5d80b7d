/**
 * SQL of contact imports (src/server/imports): the history entry, its chunks written set-based (the contacts
 * upsert and the rejected rows, each one statement over arrays), its progress guarded against a second runner,
 * and the rejected rows read back for the report.
 */
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../db/client';
import * as t from '../db/schema';

export type ImportHistoryRow = typeof t.importHistories.$inferSelect;

export async function insertImport(ex: Executor, v: typeof t.importHistories.$inferInsert): Promise<ImportHistoryRow> {
  const [row] = await ex.insert(t.importHistories).values(v).returning();
  return row;
}

export async function importById(ex: Executor, importId: string): Promise<ImportHistoryRow | null> {
  const [row] = await ex.select().from(t.importHistories).where(eq(t.importHistories.id, importId)).limit(1);
  return row ?? null;
}

/** Ends a pending import (null when it was not pending any more). */
export async function finishImport(
  ex: Executor,
  importId: string,
  status: 'completed' | 'failed',
  fields: Partial<ImportHistoryRow>,
): Promise<ImportHistoryRow | null> {
  const h = t.importHistories;
  const [done] = await ex
    .update(h)
    .set({ status, finishedAt: new Date(), ...fields })
    .where(and(eq(h.id, importId), eq(h.status, 'pending')))
    .returning();
  return done ?? null;
}

/** Rejected rows of an import after row `afterRow`, in row order. */
export async function rejectionsAfter(ex: Executor, workspaceId: string, importId: string, afterRow: number, limit: number) {
  const r = t.importRejections;
  return ex
    .select()
    .from(r)
    .where(and(eq(r.workspaceId, workspaceId), eq(r.importId, importId), gt(r.rowNumber, afterRow)))
    .orderBy(asc(r.rowNumber))
    .limit(limit);
}

/**
 * The chunk and its progress commit together, so a commit lost in a server crash is simply redone by the resumed
 * run: no need to wait for each chunk's WAL flush (PostgreSQL only).
 */
export async function skipCommitFlush(tx: Executor): Promise<void> {
  await tx.execute(sql`set local synchronous_commit = off`);
}

/** A chunk's contacts as PostgreSQL array literals, one per column (src/server/imports/rows.ts prepares them). */
export interface ContactColumns {
  id: string;
  phone: string;
  userId: string;
  username: string;
  name: string;
  email: string;
  country: string;
  city: string;
  attributes: string;
}

/**
 * Upserts a chunk of phone-only contacts by (workspace, phone) in one INSERT ... SELECT FROM unnest(...): a
 * value the file lacks keeps the stored one, attributes merge. Answers how many contacts were created.
 */
export async function upsertContactColumns(tx: Executor, workspaceId: string, c: ContactColumns): Promise<number> {
  const result = await tx.execute(sql`
    with input as (
      select * from unnest(
        ${c.id}::uuid[], ${c.phone}::text[], ${c.username}::text[], ${c.name}::text[], ${c.email}::text[],
        ${c.country}::text[], ${c.city}::text[], ${c.attributes}::jsonb[]
      ) as u(id, phone, username, name, email, country, city, attributes)
    ), up as (
      insert into ${t.contacts} (id, workspace_id, phone_number, username, name, email, country, city, attributes)
      select id, ${workspaceId}::uuid, phone, username, name, email, country, city, attributes from input
      on conflict (workspace_id, phone_number) do update set
        username = coalesce(excluded.username, ${t.contacts}.username),
        name = coalesce(excluded.name, ${t.contacts}.name),
        email = coalesce(excluded.email, ${t.contacts}.email),
        country = coalesce(excluded.country, ${t.contacts}.country),
        city = coalesce(excluded.city, ${t.contacts}.city),
        attributes = ${t.contacts}.attributes || excluded.attributes,
        updated_at = now()
      returning (xmax = 0) as inserted
    )
    select count(*) filter (where inserted)::int as created from up`);
  return rowsOf<{ created: number }>(result)[0].created;
}

/**
 * Upserts a chunk that names customers by WhatsApp user id too, in one statement: each row finds its contact by
 * user id first, then by phone (as inbound messages do); a found contact takes the file's values and the phone
 * number or user id it lacks when no other contact holds it (a stored one is never replaced); the rest are
 * created. The chunk holds each phone and user id once (rows.ts), so no two rows claim one. Answers how many
 * contacts were created.
 */
export async function upsertContactsByUserId(tx: Executor, workspaceId: string, c: ContactColumns): Promise<number> {
  const k = t.contacts;
  const result = await tx.execute(sql`
    with input as (
      select * from unnest(
        ${c.id}::uuid[], ${c.phone}::text[], ${c.userId}::text[], ${c.username}::text[], ${c.name}::text[],
        ${c.email}::text[], ${c.country}::text[], ${c.city}::text[], ${c.attributes}::jsonb[]
      ) as u(id, phone, user_id, username, name, email, country, city, attributes)
    ), matched as (
      -- Two unique-index probes per row. phone_number is collated "C": the input's phone is too, or the index
      -- could not answer (and every chunk would scan the contacts).
      select i.*,
             (select u.id from ${k} u where u.workspace_id = ${workspaceId} and u.user_id = i.user_id) as user_match,
             (select p.id from ${k} p where p.workspace_id = ${workspaceId} and p.phone_number = i.phone collate "C") as phone_match
        from input i
    ), updated as (
      update ${k} set
        user_id = coalesce(${k}.user_id, case when m.user_match is null then m.user_id end),
        phone_number = coalesce(${k}.phone_number, case when m.phone_match is null then m.phone end),
        username = coalesce(m.username, ${k}.username),
        name = coalesce(m.name, ${k}.name),
        email = coalesce(m.email, ${k}.email),
        country = coalesce(m.country, ${k}.country),
        city = coalesce(m.city, ${k}.city),
        attributes = ${k}.attributes || m.attributes,
        updated_at = now()
        from matched m
       -- The ids as one array: the primary key answers them, where a join would scan every contact per chunk.
       where ${k}.id = any(array(select coalesce(user_match, phone_match) from matched where coalesce(user_match, phone_match) is not null))
         and ${k}.workspace_id = ${workspaceId} and ${k}.id = coalesce(m.user_match, m.phone_match)
      returning ${k}.id
    ), inserted as (
      insert into ${k} (id, workspace_id, phone_number, user_id, username, name, email, country, city, attributes)
      select id, ${workspaceId}::uuid, phone, user_id, username, name, email, country, city, attributes
        from matched where user_match is null and phone_match is null
      on conflict do nothing
      returning id
    )
    select (select count(*) from inserted)::int as created, (select count(*) from updated)::int as updated`);
  return rowsOf<{ created: number }>(result)[0].created;
}

/** A chunk's rejected rows as array literals (line numbers, values, reasons). */
export interface RejectedColumns {
  line: string;
  value: string;
  reason: string;
}

export async function insertRejections(tx: Executor, workspaceId: string, importId: string, rejected: RejectedColumns): Promise<void> {
  await tx.execute(sql`
    insert into ${t.importRejections} (workspace_id, import_id, row_number, value, reason)
    select ${workspaceId}::uuid, ${importId}::uuid, * from unnest(
      ${rejected.line}::int[], ${rejected.value}::text[], ${rejected.reason}::text[]
    ) on conflict do nothing`);
}

/**
 * Moves a pending import's progress on from `processedBefore`; null when another run already moved it (or it
 * is not pending any more), so a second runner of the same import stops instead of counting twice.
 */
export async function advanceImport(
  tx: Executor,
  importId: string,
  processedBefore: number,
  add: { rows: number; created: number; updated: number; rejected: number },
): Promise<ImportHistoryRow | null> {
  const h = t.importHistories;
  const [progressed] = await tx
    .update(h)
    .set({
      processedRows: processedBefore + add.rows,
      createdCount: sql`${h.createdCount} + ${add.created}`,
      updatedCount: sql`${h.updatedCount} + ${add.updated}`,
      rejectedCount: sql`${h.rejectedCount} + ${add.rejected}`,
    })
    .where(and(eq(h.id, importId), eq(h.status, 'pending'), eq(h.processedRows, processedBefore)))
    .returning();
  return progressed ?? null;
}
