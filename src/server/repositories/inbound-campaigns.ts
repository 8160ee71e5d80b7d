/**
 * What an inbound batch and its statuses mean for campaigns, read and written set-based: one statement tells
 * which of the batch's contacts a campaign awaits a reply from (and the workspace's opt-out settings), one
 * statement moves the campaign log lines of a batch of statuses.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { rowsOf } from '../db/client';
import type { WorkspaceCampaignSettings } from './campaign-settings';

export interface InboundContact {
  id: string;
  /** A campaign sent to the contact in the last 72 hours has no reply yet. */
  awaitingReply: boolean;
}

/**
 * The workspace's opt-out settings and, for these contacts, whether a campaign awaits their reply, in one
 * statement; each contact looked up on its own by its key, whatever the table's statistics (see inbound-routing.ts).
 */
export async function campaignFactsOf(
  ex: Executor,
  workspaceId: string,
  contactIds: string[],
): Promise<{ settings: Pick<WorkspaceCampaignSettings, 'optOutKeywords' | 'optOutConfirmation'>; contacts: Map<string, InboundContact> }> {
  const rows = rowsOf<{ keywords: string[] | null; confirmation: string | null; contacts: { id: string; awaiting: boolean }[] | null }>(
    await ex.execute(sql`
      select w.opt_out_keywords as keywords, w.opt_out_confirmation as confirmation,
             (select json_agg(json_build_object('id', c.id, 'awaiting', exists (
                       select 1 from campaign_logs l
                        where l.workspace_id = ${workspaceId} and l.contact_id = c.id and l.replied_at is null
                          and l.message_status = 'success' and l.created_at > now() - interval '72 hours')))
                from unnest(${sql.param(contactIds)}::uuid[]) as p(id)
                cross join lateral (select c.id from contacts c
                                     where c.workspace_id = ${workspaceId} and c.id = p.id offset 0) c) as contacts
        from workspaces w where w.id = ${workspaceId}`),
  );
  const row = rows[0];
  const contacts = new Map((row?.contacts ?? []).map((c) => [c.id, { id: c.id, awaitingReply: c.awaiting }]));
  return { settings: { optOutKeywords: row?.keywords ?? [], optOutConfirmation: row?.confirmation ?? '' }, contacts };
}

export type DeliveryStatus = 'sent' | 'delivered' | 'read' | 'failed';
export interface StatusOfWamid {
  wamid: string;
  status: DeliveryStatus;
  failure: { code: number | null; reason: string | null };
}

/** Delivery states in the order they are reached: a status never moves a log line backwards. */
const rank = sql`(case l.delivery_state when 'pending' then 0 when 'unknown' then 1 when 'sent' then 2 when 'delivered' then 3 when 'read' then 4 else 5 end)`;

/**
 * Statuses of distinct wamids, in one statement, by the rules of campaign-runs' applyDeliveryStatus:
 * delivered and read move a log line forward only; failed ends a line not read yet (131049: `capped`, 131050:
 * `optedOut`, neither a failure of the campaign). Answers the campaigns whose lines changed.
 */
export async function applyDeliveryStatuses(ex: Executor, workspaceId: string, list: StatusOfWamid[]): Promise<string[]> {
  if (list.length === 0) return [];
  const col = <T>(f: (s: StatusOfWamid) => T) => sql.param(list.map(f));
  const rows = rowsOf<{ campaign_id: string }>(
    await ex.execute(sql`
      update campaign_logs l
         set delivery_state = case when v.status <> 'failed' then v.status when v.code = 131049 then 'capped' when v.code = 131050 then 'optedOut' else 'failed' end,
             message_status = case when v.status = 'failed' then 'failed' else 'success' end,
             reason = case when v.status = 'failed' then v.reason when l.delivery_state = 'unknown' then null else l.reason end,
             error_code = case when v.status = 'failed' then v.code else l.error_code end,
             updated_at = now()
        from unnest(${col((s) => s.wamid)}::text[], ${col((s) => s.status)}::text[], ${col((s) => s.failure.code)}::int[], ${col((s) => s.failure.reason)}::text[])
             as v(wamid, status, code, reason)
       where l.workspace_id = ${workspaceId} and l.wa_message_id = v.wamid
         and case when v.status = 'failed' then l.delivery_state in ('unknown', 'sent', 'delivered')
                  else ${rank} < (case v.status when 'sent' then 2 when 'delivered' then 3 else 4 end) end
      returning l.campaign_id`),
  );
  return [...new Set(rows.map((r) => r.campaign_id))];
}
