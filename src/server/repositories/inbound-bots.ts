/**
 * Which conversations of a committed inbound batch a bot takes a turn in, in one statement: when none of the
 * batch's numbers has an active bot (most batches), the statement ends at that check without reading messages.
 * Each wamid is looked up on its own in the (workspace, wamid) index, whatever the statistics (see inbound-routing.ts).
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { rowsOf } from '../db/client';

export interface BotTurnSpan {
  conversationId: string;
  /** The first and the last of the batch's messages in the conversation. */
  from: Date;
  upTo: Date;
}

export async function botTurnSpans(ex: Executor, workspaceId: string, accountIds: string[], wamids: string[]): Promise<BotTurnSpan[]> {
  if (wamids.length === 0 || accountIds.length === 0) return [];
  const rows = rowsOf<{ conversation_id: string; first_ms: number | string; last_ms: number | string }>(
    await ex.execute(sql`
      with bot_numbers as materialized (
        select distinct b.whatsapp_account_id as id from bots b
         where b.workspace_id = ${workspaceId} and b.is_active and b.whatsapp_account_id = any(${sql.param(accountIds)}::uuid[]))
      select m.conversation_id, (extract(epoch from min(m.created_at)) * 1000)::float8 as first_ms,
             (extract(epoch from max(m.created_at)) * 1000)::float8 as last_ms
        from unnest(${sql.param(wamids)}::text[]) as w(wamid)
        cross join lateral (select m.conversation_id, m.created_at from messages m
                             where m.workspace_id = ${workspaceId} and m.wa_message_id = w.wamid offset 0) m
        cross join lateral (select c.whatsapp_account_id from conversations c
                             where c.id = m.conversation_id and c.workspace_id = ${workspaceId} offset 0) c
       where exists (select 1 from bot_numbers) and c.whatsapp_account_id in (select id from bot_numbers)
       group by m.conversation_id`),
  );
  return rows.map((r) => ({ conversationId: r.conversation_id, from: new Date(Math.round(Number(r.first_ms))), upTo: new Date(Math.round(Number(r.last_ms))) }));
}
