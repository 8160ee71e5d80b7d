/**
 * SQL of what messages cost: the `pricing` of their status webhooks, and a campaign's billable messages by
 * pricing category.
 */
import { sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../db/client';
import type { StoredPricing } from '../db/schema';

/**
 * Stores each message's pricing in one statement. A status without pricing never reaches here, so a later
 * `read` cannot erase it; of two pricings the one of the later status wins, so a redelivered or late `sent` does
 * not replace a newer one.
 */
export async function storePricing(ex: Executor, workspaceId: string, rows: { wamid: string; pricing: StoredPricing }[]): Promise<void> {
  if (rows.length === 0) return;
  await ex.execute(sql`
    update messages m set pricing = v.pricing
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(wamid text, pricing jsonb)
     where m.workspace_id = ${workspaceId} and m.wa_message_id = v.wamid
       and (m.pricing is null or (m.pricing->>'at')::bigint <= (v.pricing->>'at')::bigint)`);
}

/**
 * A campaign's billable messages by pricing category. Billable is Meta's `billable` where it is given, else a
 * `regular` pricing type (Meta is retiring `billable`; the free types are free_customer_service and
 * free_entry_point).
 */
export async function billableByCategory(ex: Executor, workspaceId: string, campaignId: string): Promise<{ category: string; messages: number }[]> {
  const rows = rowsOf<{ category: string; messages: string | number }>(
    await ex.execute(sql`
      select coalesce(m.pricing->>'category', 'unknown') as category, count(*) as messages
        from campaign_logs l
        join messages m on m.workspace_id = l.workspace_id and m.wa_message_id = l.wa_message_id
       where l.workspace_id = ${workspaceId} and l.campaign_id = ${campaignId} and m.pricing is not null
         and coalesce((m.pricing->>'billable')::boolean, m.pricing->>'type' = 'regular', false)
       group by 1 order by 1`),
  );
  return rows.map((r) => ({ category: r.category, messages: Number(r.messages) }));
}
