/**
 * Auto-assignment after an inbound batch commits, set-based: one statement finds what the batch left waiting
 * (and whether anyone could take it), one transaction deals the conversations among the available members.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { rowsOf } from '../db/client';

export interface WaitingConversation {
  id: string;
  /** Its number has an active bot: the bot takes it first. */
  botNumber: boolean;
}

/**
 * The unassigned open conversations the given inbound messages (wamids) landed in, in the order of their first
 * message, and whether any member of the workspace is available at all (most workspaces: nobody, then the
 * batch costs this one statement). Each wamid is looked up on its own (the laterals, fenced by `offset 0`, keep
 * the planner on the (workspace, wamid) and primary-key indexes): joined as sets, a table not analyzed yet, as
 * in a fresh database during a burst, was read through every unassigned conversation of the workspace instead.
 */
export async function waitingForAgent(ex: Executor, workspaceId: string, wamids: string[]): Promise<{ waiting: WaitingConversation[]; anyoneAvailable: boolean }> {
  if (wamids.length === 0) return { waiting: [], anyoneAvailable: false };
  const rows = rowsOf<{ id: string | null; bot_number: boolean | null; anyone: boolean }>(
    await ex.execute(sql`
      with waiting as (
        select c.id, c.whatsapp_account_id, min(m.created_at) as first_at
          from unnest(${sql.param(wamids)}::text[]) as w(wamid)
          cross join lateral (select m.conversation_id, m.created_at from messages m
                               where m.workspace_id = ${workspaceId} and m.wa_message_id = w.wamid offset 0) m
          cross join lateral (select c.id, c.whatsapp_account_id from conversations c
                               where c.id = m.conversation_id and c.workspace_id = ${workspaceId} and c.is_active
                                 and c.assignee_member_id is null and c.assignee_bot_id is null offset 0) c
         group by c.id, c.whatsapp_account_id)
      select w.id,
             exists (select 1 from bots b where b.workspace_id = ${workspaceId} and b.whatsapp_account_id = w.whatsapp_account_id and b.is_active) as bot_number,
             a.anyone
        from (select exists (select 1 from workspace_members wm where wm.workspace_id = ${workspaceId} and wm.available) as anyone) a
        left join waiting w on true
       order by w.first_at, w.id`),
  );
  const anyoneAvailable = rows[0]?.anyone ?? false;
  return { waiting: rows.filter((r) => r.id !== null).map((r) => ({ id: r.id!, botNumber: !!r.bot_number })), anyoneAvailable };
}

export interface AgentSeat {
  memberId: string;
  /** Open conversations assigned to the member now. */
  open: number;
  chatCapacity: number;
}

/**
 * The available members under their capacity, next first in the round-robin (the one whose last automatic
 * assignment is oldest, never first), their rows locked in the caller's transaction (another server dealing at
 * the same moment skips them, so two servers never deal one member's last seat twice).
 */
export async function lockAgentSeats(tx: Executor, workspaceId: string): Promise<AgentSeat[]> {
  const rows = rowsOf<{ member_id: string; open: number; chat_capacity: number }>(
    await tx.execute(sql`
      select wm.member_id, o.open, wm.chat_capacity
        from workspace_members wm
        cross join lateral (select count(*)::int as open from conversations c
                             where c.workspace_id = wm.workspace_id and c.assignee_member_id = wm.member_id and c.is_active) o
       where wm.workspace_id = ${workspaceId} and wm.available and o.open < wm.chat_capacity
       order by wm.last_auto_assigned_at asc nulls first, wm.created_at, wm.member_id
       for update of wm skip locked`),
  );
  return rows.map((r) => ({ memberId: r.member_id, open: Number(r.open), chatCapacity: Number(r.chat_capacity) }));
}

/** Records when each member last got an automatic assignment (the round-robin's order). */
export async function markAutoAssigned(tx: Executor, workspaceId: string, last: { memberId: string; at: Date }[]): Promise<void> {
  if (last.length === 0) return;
  await tx.execute(sql`
    update workspace_members wm set last_auto_assigned_at = v.at
      from unnest(${sql.param(last.map((l) => l.memberId))}::uuid[], ${sql.param(last.map((l) => l.at.toISOString()))}::timestamptz[]) as v(member_id, at)
     where wm.workspace_id = ${workspaceId} and wm.member_id = v.member_id`);
}
