import { and, eq, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../db/client';
import * as t from '../db/schema';
import { messageColumns, type MessageRow } from './messages';

/**
 * Set-based versions of the channel's inbound steps (contacts.ts, messages.ts), for a batch of webhook deliveries
 * stored in one transaction (src/server/whatsapp/inbound-batch.ts); the conversations' own set-based steps are in
 * conversation-rows.ts, shared with the outbound path.
 */

/** The wamids of this list already stored in the workspace (the list travels as one JSON parameter). */
export async function storedWamids(ex: Executor, workspaceId: string, wamids: string[]): Promise<Set<string>> {
  if (wamids.length === 0) return new Set();
  const result = await ex.execute(sql`
    select wa_message_id as wamid from messages
    where workspace_id = ${workspaceId}::uuid
      and wa_message_id = any(array(select jsonb_array_elements_text(${JSON.stringify(wamids)}::jsonb)))`);
  return new Set(rowsOf<{ wamid: string }>(result).map((r) => r.wamid));
}

/**
 * Inserts messages; those whose wamid the workspace has already are skipped (not answered). The rows travel as
 * one JSON parameter rather than one parameter per column and row: a batch of a hundred was 1,600 parameters,
 * and building them cost more CPU than the database spent on the insert.
 */
export async function insertMessages(ex: Executor, values: (typeof t.messages.$inferInsert)[]): Promise<MessageRow[]> {
  if (values.length === 0) return [];
  const rows = values.map((v) => ({
    workspace_id: v.workspaceId,
    conversation_id: v.conversationId,
    type: v.type,
    header: v.header ?? null,
    text: v.text ?? null,
    media_url: v.mediaUrl ?? null,
    footer: v.footer ?? null,
    action: v.action ?? null,
    template_components: v.templateComponents ?? null,
    creator: v.creator,
    member_id: v.memberId ?? null,
    wa_message_id: v.waMessageId ?? null,
    status: v.status ?? 'pending',
    failure_reason: v.failureReason ?? null,
    campaign_id: v.campaignId ?? null,
    created_at: v.createdAt ?? null,
    sent_from_phone: v.sentFromPhone ?? false,
  }));
  // Columns in the schema's order (drizzle inserts a raw select into every column of the schema, in its order,
  // leaving out the generated search_vector; the pricing of a message comes later, with its statuses).
  return ex
    .insert(t.messages)
    .select(
      sql`select gen_random_uuid(), workspace_id, conversation_id, type, header, text, media_url, footer, action, template_components,
                 creator, member_id, wa_message_id, status, failure_reason, null, campaign_id, coalesce(created_at, now()),
                 sent_from_phone
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(workspace_id uuid, conversation_id uuid,
               type text, header jsonb, text text, media_url text, footer text, action jsonb, template_components jsonb,
               creator text, member_id uuid, wa_message_id text, status text, failure_reason text, campaign_id uuid,
               created_at timestamptz, sent_from_phone boolean)`,
    )
    .onConflictDoNothing({ target: [t.messages.workspaceId, t.messages.waMessageId] })
    .returning(messageColumns);
}

/** Sets the activity times of conversations the caller holds locked (the caller computes them: times never move backwards). */
export async function setConversationTimes(
  ex: Executor,
  workspaceId: string,
  rows: { id: string; lastMessageAt: Date | null; lastActivityAt: Date; lastInboundAt: Date | null }[],
): Promise<void> {
  if (rows.length === 0) return;
  const c = t.conversations;
  await ex
    .update(c)
    .set({ lastMessageAt: sql`v.last_message_at`, lastActivityAt: sql`v.last_activity_at`, lastInboundAt: sql`v.last_inbound_at` })
    .from(
      sql`jsonb_to_recordset(${JSON.stringify(rows.map((r) => ({ id: r.id, last_message_at: r.lastMessageAt, last_activity_at: r.lastActivityAt, last_inbound_at: r.lastInboundAt })))}::jsonb)
        as v(id uuid, last_message_at timestamptz, last_activity_at timestamptz, last_inbound_at timestamptz)`,
    )
    .where(and(eq(c.workspaceId, workspaceId), sql`${c.id} = v.id`));
}
