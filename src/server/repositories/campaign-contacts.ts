/**
 * Contacts as campaigns see them: looked up by id or phone, opted out of campaigns (or back in), and the
 * attributes a recurring trigger's records merge into them.
 */
import { type SQL, and, eq, inArray, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../db/client';
import * as t from '../db/schema';
import { isUuid } from './pagination';
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

/**
 * What a trigger call reads before it looks at its records, in one round trip (a key may make 100 calls in 10 s):
 * the campaign, the workspace's default country and its attributes' names. Null when there is no such campaign.
 */
export async function triggerFactsOf(ex: Executor, workspaceId: string, campaignId: string) {
  if (!isUuid(campaignId)) return null;
  const [row] = await ex
    .select({
      campaign: t.campaigns,
      country: sql<string | null>`(select w.default_country from workspaces w where w.id = ${workspaceId})`,
      attributes: sql<[string, string][]>`(select coalesce(json_agg(json_build_array(a.id, a.name)), '[]'::json) from attributes a where a.workspace_id = ${workspaceId})`,
    })
    .from(t.campaigns)
    .where(and(eq(t.campaigns.workspaceId, workspaceId), eq(t.campaigns.id, campaignId)));
  if (!row) return null;
  return { campaign: row.campaign, country: row.country ?? 'US', attributeNames: new Map(row.attributes) };
}

/** A person of a recurring trigger's call: an E.164 number, a name, attribute values to merge. */
export interface TriggerPerson {
  phoneNumber: string;
  name: string | null;
  attributes: Record<string, string>;
}

/**
 * Finds or creates the contacts of a trigger call's people (one per phone number) in one statement: new ones are
 * inserted with their name and attributes, existing ones take the name when they have none and the attributes
 * merged over theirs (`updated_at` moves only when the call gives them something). Answers each phone's contact
 * id. Inserted in phone order, so two calls with the same numbers take their index and row locks in one order.
 *
 * One `insert ... on conflict do update ... returning`: each number is found through the unique
 * (workspace, phone) index by the insert itself, whatever the statistics say, and a number another transaction
 * inserts meanwhile is waited for and answered. A join of the records with the workspace's contacts was planned
 * from the statistics, and a workspace they rate at one contact (new since the last ANALYZE, e.g. after a bulk
 * import elsewhere) had all its contacts read into a hash twice a call, a cost that grew with every call. The
 * price: an existing contact the call changes nothing of still gets a new row version (its row is locked and
 * rewritten as it was).
 */
export async function upsertTriggerContacts(ex: Executor, workspaceId: string, people: TriggerPerson[]): Promise<Map<string, string>> {
  if (people.length === 0) return new Map();
  const sorted = [...people].sort((a, b) => (a.phoneNumber < b.phoneNumber ? -1 : a.phoneNumber > b.phoneNumber ? 1 : 0));
  const data = JSON.stringify(sorted.map((p) => ({ phone: p.phoneNumber, name: p.name, attributes: p.attributes })));
  const rows = rowsOf<{ id: string; phone: string }>(
    await ex.execute(sql`
      insert into contacts (workspace_id, phone_number, name, attributes)
      select ${workspaceId}, v.phone, v.name, v.attributes
        from jsonb_to_recordset(${data}::jsonb) as v(phone text collate "C", name text, attributes jsonb)
       order by v.phone
      on conflict (workspace_id, phone_number) do update
         set name = coalesce(contacts.name, excluded.name),
             attributes = contacts.attributes || excluded.attributes,
             updated_at = case when (contacts.name is null and excluded.name is not null) or excluded.attributes <> '{}'::jsonb
                               then now() else contacts.updated_at end
      returning id, phone_number as phone`),
  );
  return new Map(rows.map((r) => [r.phone, r.id]));
}
