/**
 * The reference the campaign-count tests and benchmark compare the kept counts with: a full count of
 * campaign_recipients and campaign_logs, the query the product ran before the counts were kept by triggers.
 */
import { sql } from 'drizzle-orm';
import type { CampaignCounts } from '../../src/shared/schemas/entities';
import { type Executor, rowsOf } from '../../src/server/db/client';

const toCounts = (r: Record<keyof CampaignCounts, string | number>): CampaignCounts =>
  Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'campaign_id').map(([k, v]) => [k, Number(v)])) as unknown as CampaignCounts;

export async function recountOf(ex: Executor, workspaceId: string, campaignIds: string[]): Promise<Map<string, CampaignCounts>> {
  const out = new Map<string, CampaignCounts>();
  if (campaignIds.length === 0) return out;
  const ids = sql.join(campaignIds.map((id) => sql`${id}::uuid`), sql`, `);
  const rows = rowsOf<Record<keyof CampaignCounts, string | number> & { campaign_id: string }>(
    await ex.execute(sql`
      with rec as (
        select campaign_id,
               count(*) as recipients,
               count(*) filter (where status in ('pending', 'waiting', 'sending')) as pending
          from campaign_recipients
         where workspace_id = ${workspaceId} and campaign_id in (${ids})
         group by campaign_id
      ), lg as (
        select campaign_id,
               count(*) filter (where delivery_state in ('sent', 'delivered', 'read')) as sent,
               count(*) filter (where delivery_state in ('delivered', 'read')) as delivered,
               count(*) filter (where delivery_state = 'read') as read,
               count(*) filter (where replied_at is not null) as replied,
               count(*) filter (where delivery_state = 'failed') as failed,
               count(*) filter (where delivery_state = 'unknown') as unknown,
               count(*) filter (where delivery_state = 'optedOut') as "optedOut",
               count(*) filter (where delivery_state = 'capped') as capped
          from campaign_logs
         where workspace_id = ${workspaceId} and campaign_id in (${ids})
         group by campaign_id
      )
      select coalesce(rec.campaign_id, lg.campaign_id) as campaign_id,
             coalesce(rec.recipients, 0) as recipients, coalesce(rec.pending, 0) as pending,
             coalesce(lg.sent, 0) as sent, coalesce(lg.delivered, 0) as delivered, coalesce(lg.read, 0) as read,
             coalesce(lg.replied, 0) as replied, coalesce(lg.failed, 0) as failed, coalesce(lg.unknown, 0) as unknown,
             coalesce(lg."optedOut", 0) as "optedOut", coalesce(lg.capped, 0) as capped
        from rec full join lg on lg.campaign_id = rec.campaign_id`),
  );
  for (const r of rows) out.set(r.campaign_id, toCounts(r));
  return out;
}
