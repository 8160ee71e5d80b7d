/**
 * Workspace events: what changed in a workspace, in order. The server appends them to its event log in the
 * transaction of the change and streams them at GET /workspace/{workspaceId}/events (server-sent events):
 * each SSE message has `id: <seq>`, `event: <type>` and `data: <WorkspaceEvent as JSON>`. `seq` increases by
 * one per workspace; a client resumes with `Last-Event-ID` (or `?lastEventId=`) and receives what it missed.
 * Payloads carry the entities in their REST wire shapes, so a client updates its cache without a refetch.
 */
import * as z from '../zod';
import { Id, Timestamp } from './common';
import { CampaignCounts, CampaignListEntry, Contact, Conversation, ConversationListEntry, ImportHistory, Message, WhatsappTemplate } from './entities';
import { Mention } from './agent-tools';

export const eventPayloads = {
  /** A message was stored: inbound from the customer, or sent by an agent, a bot or a campaign. */
  'message.created': z.object({ message: Message }),
  /** A message's delivery status changed (sent, delivered, read, failed with failureReason). */
  'message.status': z.object({ message: Message }),
  /** A new conversation started (first inbound message, or an outbound template to a new contact). */
  'conversation.opened': z.object({ conversation: ConversationListEntry }),
  /** Assigned, closed or reopened: the conversation as it is now. */
  'conversation.updated': z.object({ conversation: Conversation }),
  'contact.created': z.object({ contact: Contact }),
  'contact.updated': z.object({ contact: Contact }),
  /** Addition: a contact was deleted, with its conversations and messages: clients drop all three. */
  'contact.deleted': z.object({ contactId: Id }),
  /** An import advanced: rows processed so far out of the total. */
  'import.progress': z.object({ importHistory: ImportHistory, processed: z.number().int().min(0), total: z.number().int().min(0) }),
  /** An import ended (completed or failed, per importHistory.status). */
  'import.finished': z.object({ importHistory: ImportHistory, processed: z.number().int().min(0), total: z.number().int().min(0) }),
  /** WhatsApp reviewed a template (approved, rejected, paused ...). */
  'template.status': z.object({ template: WhatsappTemplate }),
  // ---- additions ----
  /** A note mentioned a member (`memberId`): their desktop app notifies, their mentions view counts it unread. */
  'mention.created': z.object({ mention: Mention }),
  /** Addition: a campaign changed (deployed, scheduled, paused, resumed, completed, renamed). */
  'campaign.updated': z.object({ campaign: CampaignListEntry }),
  /** Addition: a running campaign's counts, at most one a second per campaign. */
  'campaign.progress': z.object({ campaignId: Id, counts: CampaignCounts }),
  /**
   * Addition: a bot's HumanHandoff gave a conversation to a member (`memberId`, named `memberName`);
   * their desktop app notifies. `message` is what the bot told the customer (may be empty).
   */
  'bot.handoff': z.object({
    conversationId: Id,
    memberId: Id,
    memberName: z.string(),
    botId: Id,
    botName: z.string(),
    contact: z.object({ name: z.string().nullable(), phoneNumber: z.string().nullable() }),
    message: z.string(),
  }),
  /**
   * Addition: a bot session ended without finishing (loop guard, invalid answers); the conversation is nobody's
   * and waits for a person. Every agent's desktop app notifies.
   */
  'bot.needsPerson': z.object({
    conversationId: Id,
    botId: Id,
    botName: z.string(),
    contact: z.object({ name: z.string().nullable(), phoneNumber: z.string() }),
  }),
} as const;

export type WorkspaceEventType = keyof typeof eventPayloads;
export const workspaceEventTypes = Object.keys(eventPayloads) as WorkspaceEventType[];
export type WorkspaceEventPayload<T extends WorkspaceEventType> = z.infer<(typeof eventPayloads)[T]>;

const eventOf = <T extends WorkspaceEventType>(type: T) =>
  z.object({
    seq: z.number().int().positive(),
    workspaceId: Id,
    type: z.literal(type),
    createdAt: Timestamp,
    payload: eventPayloads[type],
  });

/** One event as streamed (the `data` of an SSE message), discriminated by `type`. */
export const WorkspaceEvent = z.discriminatedUnion('type', [
  eventOf('message.created'),
  eventOf('message.status'),
  eventOf('conversation.opened'),
  eventOf('conversation.updated'),
  eventOf('contact.created'),
  eventOf('contact.updated'),
  eventOf('contact.deleted'),
  eventOf('import.progress'),
  eventOf('import.finished'),
  eventOf('template.status'),
  eventOf('mention.created'),
  eventOf('campaign.updated'),
  eventOf('campaign.progress'),
  eventOf('bot.handoff'),
  eventOf('bot.needsPerson'),
]);
export type WorkspaceEvent = z.infer<typeof WorkspaceEvent>;

/**
 * Not a workspace event: what the stream sends (`event: reset`, `id: <seq>`) when a client resumes from a seq
 * the log no longer holds (events are kept EVENTS_RETENTION_DAYS days). The changes in between cannot be
 * replayed, so the client must reload what it shows; the stream then goes on after `seq`.
 */
export const StreamReset = z.object({ reason: z.literal('pruned'), seq: z.number().int().min(0) });
export type StreamReset = z.infer<typeof StreamReset>;
export const streamResetEvent = 'reset';

/**
 * Not a workspace event: the first message of a stream opened without a resume point (`event: position`,
 * `id: <seq>`, empty data): the seq the stream goes on after. A client that hears no event afterwards still knows
 * where to resume (EventSource keeps the id as its Last-Event-ID) instead of starting at whatever is newest then.
 */
export const streamPositionEvent = 'position';

/** Query of the stream: `token` because a browser's EventSource cannot send an Authorization header. */
export const EventStreamQuery = z.strictObject({
  token: z.string().min(1).max(8192).optional(),
  lastEventId: z.coerce.number().int().min(0).optional(),
});
