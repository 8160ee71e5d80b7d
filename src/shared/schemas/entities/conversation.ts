// Messages and conversations: what a conversation holds, its events, its list entry and the tab counts.
import * as z from '../../zod';
import { Channel, Id, Json, Timestamp } from '../common';
import { Contact } from './contact';

/** Additions: `audio` (an agent's audio file) and `note` (an internal note: never sent to WhatsApp). */
export const MessageType = z.enum(['text', 'reply', 'image', 'document', 'video', 'list', 'template', 'flow', 'audio', 'note']);
export const MessageCreator = z.enum(['user', 'agent', 'bot']);
/** Addition: delivery state of an outbound message (WhatsApp statuses), `received` for inbound ones. */
export const DeliveryStatus = z.enum(['pending', 'sent', 'delivered', 'read', 'failed', 'received']);
export const Message = z.object({
  id: Id,
  type: MessageType,
  header: Json.nullable(),
  text: z.string().nullable(),
  mediaUrl: z.string().nullable(),
  footer: z.string().nullable(),
  action: Json.nullable(),
  templateComponents: Json.nullable(),
  createdAt: Timestamp,
  creator: MessageCreator,
  conversationId: Id,
  memberId: Id.nullable(),
  /** Addition. */
  status: DeliveryStatus,
  /** Addition: why a send failed, in words a user understands. */
  failureReason: z.string().nullable(),
  /**
   * Addition: the business sent it from the WhatsApp Business app on its phone (coexistence), not through
   * Parley. Left out by older answers, which means false.
   */
  sentFromPhone: z.boolean().optional(),
  /** Addition: the campaign that sent the message (its creator is `bot`); null for any other message. */
  campaignId: Id.nullable().optional(),
});
export type Message = z.infer<typeof Message>;

export const AssignedByType = z.enum(['system', 'bot', 'member']);
export const ConversationAssignedData = z.object({
  type: z.literal('CONVERSATION_ASSIGNED'),
  assignedByType: AssignedByType,
  assignedById: Id.nullable(),
  assigneeType: z.enum(['bot', 'member']),
  assigneeBotId: Id.nullable(),
  assigneeMemberId: Id.nullable(),
});
export const ConversationClosedData = z.object({
  type: z.literal('CONVERSATION_CLOSED'),
  closedBy: z.enum(['system', 'bot', 'user']),
  userId: Id.nullable(),
});
/** Addition: a closed conversation opened again (the customer wrote, or a member, a bot or the system reopened it). */
export const ConversationReopenedData = z.object({
  type: z.literal('CONVERSATION_REOPENED'),
  reopenedBy: z.enum(['contact', 'member', 'bot', 'system']),
  memberId: Id.nullable(),
});
export const ConversationEventData = z.discriminatedUnion('type', [
  ConversationAssignedData,
  ConversationClosedData,
  ConversationReopenedData,
]);
export const ConversationEvent = z.object({
  id: Id,
  createdAt: Timestamp,
  conversationId: Id,
  /** Addition: the same as `data.type`, for convenience. */
  type: z.enum(['CONVERSATION_ASSIGNED', 'CONVERSATION_CLOSED', 'CONVERSATION_REOPENED']),
  data: ConversationEventData,
});
export type ConversationEvent = z.infer<typeof ConversationEvent>;

export const Conversation = z.object({
  id: Id,
  createdAt: Timestamp,
  isActive: z.boolean(),
  channel: Channel,
  contactId: Id,
  workspaceId: Id,
  whatsappAccountId: Id.nullable(),
  /** Additions: who works the conversation, and when it last saw a message. */
  assigneeMemberId: Id.nullable(),
  assigneeBotId: Id.nullable(),
  lastMessageAt: Timestamp.nullable(),
  /**
   * Addition: present (true) while the conversation waits for a person because a bot session ended without
   * finishing; gone once it is assigned or closed.
   */
  needsPerson: z.literal(true).optional(),
});
export type Conversation = z.infer<typeof Conversation>;
export const ConversationDetail = Conversation.extend({
  ConversationEvent: z.array(ConversationEvent),
  Contact: Contact,
  Message: z.array(Message),
  /**
   * Addition: when the caller last read the conversation (null: never); customer messages received
   * after it are unread, and the client puts the "New messages" divider above the first of them.
   */
  readAt: Timestamp.nullable().optional(),
});
export type ConversationDetail = z.infer<typeof ConversationDetail>;
export const ConversationListEntry = Conversation.extend({
  Contact: Contact,
  lastMessage: Message.nullable(),
  /** Addition: the customer wrote since the caller last opened the conversation. */
  unread: z.boolean().optional(),
  /** Addition: when the customer's unanswered message came (their last message is the last one), else null. */
  waitingSince: Timestamp.nullable().optional(),
});
export type ConversationListEntry = z.infer<typeof ConversationListEntry>;
/** A figure per live-chat tab. */
export const TabCounts = z.object({
  me: z.number().int(),
  assigned: z.number().int(),
  open: z.number().int(),
  closed: z.number().int(),
});
export type TabCounts = z.infer<typeof TabCounts>;
/** Addition: how many conversations each live-chat tab holds, and how many of them are unread for the caller. */
export const ConversationCounts = TabCounts.extend({ unread: TabCounts });
export type ConversationCounts = z.infer<typeof ConversationCounts>;
