/**
 * SQL of a campaign's results: its counts over every run in one aggregate for a whole page of
 * campaigns (no query per row), and its sends over time for the results chart.
 */
import { sql } from 'drizzle-orm';
import type { CampaignCounts } from '../../shared/schemas/entities';
import { type Executor, rowsOf } from '../db/client';

const zero: CampaignCounts = { recipients: 0, pending: 0, sent: 0, delivered: 0, read: 0, replied: 0, failed: 0, unknown: 0, optedOut: 0, capped: 0 };
export const emptyCounts = (): CampaignCounts => ({ ...zero });

/** Counts of each campaign: recipients from campaign_recipients, the rest from its log lines (one query). */
export async function countsOf(ex: Executor, workspaceId: string, campaignIds: string[]): Promise<Map<string, CampaignCounts>> {
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
  for (const r of rows) {
    const counts = emptyCounts();
    for (const k of Object.keys(zero) as (keyof CampaignCounts)[]) counts[k] = Number(r[k]);
    out.set(r.campaign_id, counts);
  }
  return out;
}

/** Sends of a campaign per time bucket (minute, hour or day by the campaign's span), by where each stands now. */
export async function timelineOf(ex: Executor, workspaceId: string, campaignId: string) {
  const rows = rowsOf<{ at: Date | string; sent: string; delivered: string; read: string; failed: string }>(
    await ex.execute(sql`
      with span as (
        select coalesce(extract(epoch from max(created_at) - min(created_at)), 0) as s
          from campaign_logs where workspace_id = ${workspaceId} and campaign_id = ${campaignId}
      )
      select date_trunc(case when span.s <= 7200 then 'minute' when span.s <= 7 * 86400 then 'hour' else 'day' end, l.created_at) as at,
             count(*) filter (where l.delivery_state in ('sent', 'delivered', 'read')) as sent,
             count(*) filter (where l.delivery_state in ('delivered', 'read')) as delivered,
             count(*) filter (where l.delivery_state = 'read') as read,
             count(*) filter (where l.delivery_state = 'failed') as failed
        from campaign_logs l, span
       where l.workspace_id = ${workspaceId} and l.campaign_id = ${campaignId}
       group by 1 order by 1
       limit 2000`),
  );
  return rows.map((r) => ({
    at: new Date(r.at).toISOString(),
    sent: Number(r.sent),
    delivered: Number(r.delivered),
    read: Number(r.read),
    failed: Number(r.failed),
  }));
}
