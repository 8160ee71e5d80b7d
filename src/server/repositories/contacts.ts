/**
 * SQL of `contacts` for inbound messages: find by phone number, insert if absent, fill a missing name.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';

export type ContactRow = typeof t.contacts.$inferSelect;

export async function contactByPhone(ex: Executor, workspaceId: string, phoneNumber: string): Promise<ContactRow | null> {
  const [row] = await ex
    .select()
    .from(t.contacts)
    .where(and(eq(t.contacts.workspaceId, workspaceId), eq(t.contacts.phoneNumber, phoneNumber)))
    .limit(1);
  return row ?? null;
}

/** Inserts a contact unless the phone number exists already (a concurrent delivery); null then. */
export async function insertContactIfAbsent(
  ex: Executor,
  values: { workspaceId: string; phoneNumber: string; name: string | null; country: string | null },
): Promise<ContactRow | null> {
  const [row] = await ex
    .insert(t.contacts)
    .values(values)
    .onConflictDoNothing({ target: [t.contacts.workspaceId, t.contacts.phoneNumber] })
    .returning();
  return row ?? null;
}

export async function setContactName(ex: Executor, workspaceId: string, id: string, name: string): Promise<ContactRow> {
  const [row] = await ex
    .update(t.contacts)
    .set({ name, updatedAt: sql`now()` })
    .where(and(eq(t.contacts.workspaceId, workspaceId), eq(t.contacts.id, id)))
    .returning();
  return row;
}
