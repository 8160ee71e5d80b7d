/**
 * SQL of a campaign's results: its counts over every run for a whole page of campaigns (one query, summing the
 * few rows of campaign_counts each has, which triggers keep as recipients and log lines change), folding those
 * rows, and its sends over time for the results chart.
 */
import { sql } from 'drizzle-orm';
import type { CampaignCounts } from '../../shared/schemas/entities';
import { type Executor, rowsOf } from '../db/client';

const zero: CampaignCounts = { recipients: 0, pending: 0, sent: 0, delivered: 0, read: 0, replied: 0, failed: 0, unknown: 0, optedOut: 0, capped: 0 };
export const emptyCounts = (): CampaignCounts => ({ ...zero });

const countColumns = sql.raw(
  ['recipients', 'pending', 'sent', 'delivered', 'read', 'replied', 'failed', 'unknown', 'opted_out', 'capped'].join(', '),
);

function toCounts(r: Record<keyof CampaignCounts, string | number>): CampaignCounts {
  const counts = emptyCounts();
  for (const k of Object.keys(zero) as (keyof CampaignCounts)[]) counts[k] = Number(r[k]);
  return counts;
}

/** Counts of each campaign: the sum of its campaign_counts rows (a folded one and the deltas since). */
export async function countsOf(ex: Executor, workspaceId: string, campaignIds: string[]): Promise<Map<string, CampaignCounts>> {
  const out = new Map<string, CampaignCounts>();
  if (campaignIds.length === 0) return out;
  const ids = sql.join(campaignIds.map((id) => sql`${id}::uuid`), sql`, `);
  const rows = rowsOf<Record<keyof CampaignCounts, string | number> & { campaign_id: string }>(
    await ex.execute(sql`
      select campaign_id, sum(recipients) as recipients, sum(pending) as pending, sum(sent) as sent,
             sum(delivered) as delivered, sum(read) as read, sum(replied) as replied, sum(failed) as failed,
             sum(unknown) as unknown, sum(opted_out) as "optedOut", sum(capped) as capped
        from campaign_counts
       where workspace_id = ${workspaceId} and campaign_id in (${ids})
       group by campaign_id`),
  );
  for (const r of rows) out.set(r.campaign_id, toCounts(r));
  return out;
}

/**
 * Folds the campaigns' rows into one each (their sum, `folded`): the campaigns given, else up to `limit` of those
 * with deltas. Exact under concurrency: rows are deleted and their sum written in one statement, and deltas a
 * concurrent statement adds are not among the rows deleted. Answers how many rows were folded away.
 */
export async function foldCounts(ex: Executor, scope: { workspaceId: string; campaignIds: string[] } | { limit: number }): Promise<number> {
  const which =
    'limit' in scope
      ? sql`campaign_id in (select distinct campaign_id from campaign_counts where not folded limit ${scope.limit})`
      : sql`campaign_id in (select campaign_id from campaign_counts
                             where not folded and workspace_id = ${scope.workspaceId}
                               and campaign_id in (${sql.join(scope.campaignIds.map((id) => sql`${id}::uuid`), sql`, `)}))`;
  if (!('limit' in scope) && scope.campaignIds.length === 0) return 0;
  const rows = rowsOf<{ n: string | number }>(
    await ex.execute(sql`
      with gone as (
        delete from campaign_counts where ${which} returning *
      ), folded as (
        insert into campaign_counts (workspace_id, campaign_id, folded, ${countColumns})
        select workspace_id, campaign_id, true, sum(recipients), sum(pending), sum(sent), sum(delivered), sum(read),
               sum(replied), sum(failed), sum(unknown), sum(opted_out), sum(capped)
          from gone group by workspace_id, campaign_id
        returning 1
      )
      select (select count(*) from gone) - (select count(*) from folded) as n`),
  );
  return Number(rows[0]?.n ?? 0);
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
