/** SQL of a workspace's rate card (one per workspace; an upload replaces it) and of its audience's countries. */
import { type SQL, eq, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../db/client';
import * as t from '../db/schema';

export type RateCardRow = typeof t.rateCards.$inferSelect;

export async function rateCardOf(ex: Executor, workspaceId: string): Promise<RateCardRow | null> {
  const [row] = await ex.select().from(t.rateCards).where(eq(t.rateCards.workspaceId, workspaceId));
  return row ?? null;
}

export async function saveRateCard(ex: Executor, values: typeof t.rateCards.$inferInsert): Promise<RateCardRow> {
  const { workspaceId: _ws, ...rest } = values;
  const [row] = await ex
    .insert(t.rateCards)
    .values(values)
    .onConflictDoUpdate({ target: t.rateCards.workspaceId, set: { ...rest, uploadedAt: sql`now()` } })
    .returning();
  return row;
}

/**
 * The audience's phone numbers grouped by their first digits (calling code and area code: a country is read
 * from one sample of each group, so a million contacts cost a few thousand look-ups, not a million).
 * Contacts without a phone number count under a null prefix.
 */
export async function audiencePrefixes(ex: Executor, audience: SQL): Promise<{ sample: string | null; recipients: number }[]> {
  const rows = rowsOf<{ sample: string | null; n: string | number }>(
    await ex.execute(sql`
      select min(contacts.phone_number) as sample, count(*) as n
        from contacts
       where ${audience}
       group by left(contacts.phone_number, 7)`),
  );
  return rows.map((r) => ({ sample: r.sample, recipients: Number(r.n) }));
}
