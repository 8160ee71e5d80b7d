/**
 * Meta's marketing consent of contacts (apart from Parley's own opt-out): set by the `user_preferences` webhook
 * and by 131050 refusals, ordered by when Meta says each happened, so a redelivered or late event never undoes
 * a newer one.
 */
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { rowsOf } from '../db/client';
import * as t from '../db/schema';

type ContactRow = typeof t.contacts.$inferSelect;
export type MarketingConsent = 'stopped' | 'resumed';
export type MarketingConsentSource = 'user_preferences' | '131050';

/** One consent change of a contact known by phone (E.164) or, when WhatsApp withholds it, by user id. */
export interface ConsentByPhone {
  phoneNumber: string | null;
  userId?: string | null;
  value: MarketingConsent;
  at: Date;
}

/**
 * Applies the changes (at most one per phone: the caller keeps the newest), each only if it is newer than what
 * the contact holds; answers the contacts that changed.
 */
export async function applyConsentByPhone(ex: Executor, workspaceId: string, source: MarketingConsentSource, changes: ConsentByPhone[]): Promise<ContactRow[]> {
  if (changes.length === 0) return [];
  const data = JSON.stringify(changes.map((c) => ({ phone: c.phoneNumber, user_id: c.userId ?? null, value: c.value, at: c.at.toISOString() })));
  const rows = rowsOf<{ id: string }>(
    await ex.execute(sql`
      update contacts c
         set marketing_consent = v.value, marketing_consent_source = ${source}, marketing_consent_at = v.at, updated_at = now()
        from jsonb_to_recordset(${data}::jsonb) as v(phone text, user_id text, value text, at timestamptz)
       where c.workspace_id = ${workspaceId} and (c.phone_number = v.phone or c.user_id = v.user_id)
         and (c.marketing_consent_at is null or c.marketing_consent_at < v.at)
      returning c.id`),
  );
  if (rows.length === 0) return [];
  return ex
    .select()
    .from(t.contacts)
    .where(and(eq(t.contacts.workspaceId, workspaceId), inArray(t.contacts.id, rows.map((r) => r.id))));
}

/** Contacts of these sent messages (by wamid), with their phone numbers: whom a 131050 status is about. */
export async function phonesOfWamids(ex: Executor, workspaceId: string, wamids: string[]): Promise<Map<string, string>> {
  if (wamids.length === 0) return new Map();
  const m = t.messages;
  const rows = await ex
    .select({ wamid: m.waMessageId, phone: t.contacts.phoneNumber })
    .from(m)
    .innerJoin(t.conversations, and(eq(t.conversations.workspaceId, m.workspaceId), eq(t.conversations.id, m.conversationId)))
    .innerJoin(t.contacts, and(eq(t.contacts.workspaceId, m.workspaceId), eq(t.contacts.id, t.conversations.contactId)))
    .where(and(eq(m.workspaceId, workspaceId), isNotNull(m.waMessageId), inArray(m.waMessageId, wamids)));
  return new Map(rows.flatMap((r) => (r.phone ? [[r.wamid!, r.phone] as const] : [])));
}
