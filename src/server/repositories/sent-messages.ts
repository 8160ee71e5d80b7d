/**
 * SQL of the final write of sends Meta accepted (src/server/messaging/accepted-sends.ts): their messages, the
 * activity times of their conversations, the workspace's events and the sends' outcomes, in one statement.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { type NewEvent, eventsJson } from './event-log';
import type { MessageRow } from './messages';

/** A message Meta accepted, as stored; its id is chosen by the caller, so its events are built before the write. */
export type SentMessageRow = Pick<
  MessageRow,
  'id' | 'conversationId' | 'type' | 'header' | 'text' | 'mediaUrl' | 'footer' | 'action' | 'templateComponents' | 'creator' | 'memberId' | 'campaignId'
> & { sendId: string; waMessageId: string };

/** The unique index a wamid stored already breaks (Meta answered an id Parley has). */
export const storedWamidConstraint = 'messages_wa_message_id_uq';

/**
 * Writes the messages (status `sent`, created at `at`), moves their conversations' times to `at` (never back),
 * marks the sends `sent` with their message, and appends `events` after them (append_workspace_events, migration
 * 0033: the workspace's event lock is taken last, as every writer of the log takes it). One statement is its own
 * transaction: outside one, it commits alone; a failure writes nothing.
 */
export async function writeSentMessages(ex: Executor, workspaceId: string, at: Date, rows: SentMessageRow[], events: NewEvent[]): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((r) => ({
    id: r.id,
    send_id: r.sendId,
    conversation_id: r.conversationId,
    type: r.type,
    header: r.header ?? null,
    text: r.text,
    media_url: r.mediaUrl,
    footer: r.footer,
    action: r.action ?? null,
    template_components: r.templateComponents ?? null,
    creator: r.creator,
    member_id: r.memberId,
    campaign_id: r.campaignId,
    wa_message_id: r.waMessageId,
  }));
  const when = at.toISOString();
  // The events come last: the function runs only once the three counts are known, that is once every row
  // above is written and its conversation rows are locked.
  await ex.execute(sql`
    with v as (
      select * from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(id uuid, send_id uuid, conversation_id uuid, type text,
        header jsonb, text text, media_url text, footer text, action jsonb, template_components jsonb, creator text, member_id uuid,
        campaign_id uuid, wa_message_id text)),
    stored as (
      insert into messages (id, workspace_id, conversation_id, type, header, text, media_url, footer, action, template_components,
                            creator, member_id, wa_message_id, status, campaign_id, created_at)
      select id, ${workspaceId}::uuid, conversation_id, type, header, text, media_url, footer, action, template_components,
             creator, member_id, wa_message_id, 'sent', campaign_id, ${when}::timestamptz
        from v
      returning 1),
    touched as (
      update conversations c
         set last_message_at = greatest(c.last_message_at, ${when}::timestamptz),
             last_activity_at = greatest(c.last_activity_at, ${when}::timestamptz)
       where c.workspace_id = ${workspaceId}::uuid and c.id in (select conversation_id from v)
      returning 1),
    finished as (
      update outbound_sends s
         set status = 'sent', message_id = v.id, wa_message_id = v.wa_message_id, conversation_id = v.conversation_id,
             error_code = null, failure_reason = null, finished_at = now()
        from v
       where s.workspace_id = ${workspaceId}::uuid and s.id = v.send_id
      returning 1)
    select append_workspace_events(${workspaceId}, ${eventsJson(events)}::jsonb) as seq
      from (select count(*) from stored) m, (select count(*) from touched) c, (select count(*) from finished) s`);
}
