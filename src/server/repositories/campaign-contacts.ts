/**
 * Contacts as campaigns see them: looked up by id or phone, opted out of campaigns (or back in), and the
 * attributes a recurring trigger's records merge into them.
 */
import { type SQL, and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';
import type { OptOutSource } from '../../shared/schemas/entities';

export type ContactRow = typeof t.contacts.$inferSelect;

export async function contactsByIds(ex: Executor, workspaceId: string, ids: string[]): Promise<Map<string, ContactRow>> {
  if (ids.length === 0) return new Map();
  const rows = await ex.select().from(t.contacts).where(and(eq(t.contacts.workspaceId, workspaceId), inArray(t.contacts.id, ids)));
  return new Map(rows.map((r) => [r.id, r]));
}

/** Where an opt-out came from: a keyword, the template's opt-out button, or a member by hand (who). */
export interface OptOutCause {
  source: OptOutSource;
  memberId?: string;
}

/**
 * Opt contacts out of campaigns (the time, and what caused it) or back in (all cleared); answers the contacts
 * that changed.
 */
export async function setOptedOut(ex: Executor, workspaceId: string, contactIds: string[], optOut: OptOutCause | null): Promise<ContactRow[]> {
  if (contactIds.length === 0) return [];
  const c = t.contacts;
  const optedOut = optOut !== null;
  return ex
    .update(c)
    .set({
      optedOutAt: optedOut ? sql`now()` : null,
      optedOutSource: optOut?.source ?? null,
      optedOutByMemberId: optOut?.memberId ?? null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(c.workspaceId, workspaceId), inArray(c.id, contactIds), optedOut ? sql`${c.optedOutAt} is null` : sql`${c.optedOutAt} is not null`))
    .returning();
}

/** A contacts condition narrowed by the contacts list's opt-out filter (none when `optedOut` is undefined). */
export function withOptOutFilter(cond: SQL | undefined, optedOut: boolean | undefined): SQL | undefined {
  if (optedOut === undefined) return cond;
  return and(cond, optedOut ? sql`${t.contacts.optedOutAt} is not null` : sql`${t.contacts.optedOutAt} is null`);
}

export async function attributeNamesOf(ex: Executor, workspaceId: string): Promise<Map<string, string>> {
  const rows = await ex.select({ id: t.attributes.id, name: t.attributes.name }).from(t.attributes).where(eq(t.attributes.workspaceId, workspaceId));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Merges each contact's new attribute values into its attributes (one statement). */
export async function mergeContactAttributes(ex: Executor, workspaceId: string, updates: { id: string; attributes: Record<string, string> }[]): Promise<void> {
  const withValues = updates.filter((u) => Object.keys(u.attributes).length > 0);
  if (withValues.length === 0) return;
  await ex.execute(sql`
    update contacts c set attributes = c.attributes || v.attributes, updated_at = now()
      from jsonb_to_recordset(${JSON.stringify(withValues)}::jsonb) as v(id uuid, attributes jsonb)
     where c.workspace_id = ${workspaceId} and c.id = v.id`);
}
