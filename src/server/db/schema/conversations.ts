/** Conversations, their messages and events, read marks, conversation attributes, canned replies and mentions. */
import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, createdAt, tsvector, workspaceId } from './columns';
import { contacts } from './contacts';
import { workspaces, members } from './workspaces';

export const conversations = pgTable(
  'conversations',
  {
    id: id(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id').notNull().references(() => contacts.id, { onDelete: 'cascade' }),
    whatsappAccountId: uuid('whatsapp_account_id'),
    channel: text('channel').notNull().default('WhatsApp'),
    isActive: boolean('is_active').notNull().default(true),
    assigneeMemberId: uuid('assignee_member_id'),
    assigneeBotId: uuid('assignee_bot_id'),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true, precision: 3 }),
    /** The customer's last inbound message: opens WhatsApp's 24-hour customer-service window. */
    lastInboundAt: timestamp('last_inbound_at', { withTimezone: true, precision: 3 }),
    /** Ordering key of the lists: last message, or creation. */
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** A bot session ended without finishing: the conversation waits for a person (shown in live chat). */
    needsPerson: boolean('needs_person').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('conversations_workspace_activity_idx').on(t.workspaceId, t.isActive, t.lastActivityAt, t.id),
    index('conversations_workspace_assignee_idx').on(t.workspaceId, t.assigneeMemberId, t.isActive, t.lastActivityAt),
    index('conversations_contact_idx').on(t.workspaceId, t.contactId),
  ],
);

export const conversationEvents = pgTable(
  'conversation_events',
  {
    id: id(),
    workspaceId: workspaceId(),
    conversationId: uuid('conversation_id').notNull().references(() => conversations.id, { onDelete: 'cascade' }),
    data: jsonb('data').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('conversation_events_conversation_idx').on(t.workspaceId, t.conversationId, t.createdAt)],
);

/** A status webhook's `pricing` as stored; `at` orders redelivered and late statuses. */
export interface StoredPricing {
  billable: boolean | null;
  pricingModel: string | null;
  category: string | null;
  type: string | null;
  at: number;
}

export const messages = pgTable(
  'messages',
  {
    id: id(),
    workspaceId: workspaceId(),
    conversationId: uuid('conversation_id').notNull().references(() => conversations.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    header: jsonb('header'),
    text: text('text'),
    mediaUrl: text('media_url'),
    footer: text('footer'),
    action: jsonb('action'),
    templateComponents: jsonb('template_components'),
    creator: text('creator', { enum: ['user', 'agent', 'bot'] }).notNull(),
    memberId: uuid('member_id'),
    /** The provider's message id (wamid); duplicates of a delivery are dropped by it. */
    waMessageId: text('wa_message_id'),
    status: text('status').notNull().default('pending'),
    failureReason: text('failure_reason'),
    /** Meta's `pricing` of the message's status webhooks, with the status time (seconds) it came with. */
    pricing: jsonb('pricing').$type<StoredPricing>(),
    /**
     * Addition: the campaign that sent the message (its creator is then `bot`), so live chat names it. No foreign
     * key: a deleted campaign's messages still came from a campaign.
     */
    campaignId: uuid('campaign_id'),
    createdAt: createdAt(),
    /** Sent by the business from the WhatsApp Business app on its phone (coexistence echoes), not through Parley. */
    sentFromPhone: boolean('sent_from_phone').notNull().default(false),
    /**
     * Addition: the words of the text for full-text search ('simple': no stemming, any language), stored so a
     * search's check of a message reads the vector instead of parsing its text again. Generated: never written.
     */
    searchVector: tsvector('search_vector').generatedAlwaysAs(sql`to_tsvector('simple', coalesce(text, ''))`),
  },
  (t) => [
    index('messages_conversation_idx').on(t.workspaceId, t.conversationId, t.createdAt, t.id),
    uniqueIndex('messages_wa_message_id_uq').on(t.workspaceId, t.waMessageId),
    // Addition: full-text search of message texts and captions ('simple': no stemming, any language).
    index('messages_text_search_idx').using('gin', t.searchVector),
    // Addition: a broad search walks the workspace's messages newest first (repositories/message-search.ts).
    index('messages_workspace_created_idx').on(t.workspaceId, t.createdAt, t.id),
  ],
);

/**
 * Addition: how far each member has read each conversation. A conversation is unread for a member while the
 * customer's last inbound message is newer than the member's mark (no row: never opened).
 */
export const conversationReads = pgTable(
  'conversation_reads',
  {
    workspaceId: workspaceId(),
    memberId: uuid('member_id').notNull().references(() => members.id, { onDelete: 'cascade' }),
    conversationId: uuid('conversation_id').notNull().references(() => conversations.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.memberId, t.conversationId] })],
);

/** values of conversation-type attributes (contact-type ones live on the contact). */
export const conversationAttributes = pgTable(
  'conversation_attributes',
  {
    conversationId: uuid('conversation_id').primaryKey().references(() => conversations.id, { onDelete: 'cascade' }),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Values by attribute name, as contacts keep theirs. */
    values: jsonb('values').$type<Record<string, string>>().notNull().default({}),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('conversation_attributes_workspace_idx').on(t.workspaceId)],
);

/** A saved answer: `member_id` null for the workspace's (admins manage them), else that member's own. */
export const cannedReplies = pgTable(
  'canned_replies',
  {
    id: id(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    /** The owner of a personal reply; null for a workspace reply. */
    ownerMemberId: uuid('owner_member_id').references(() => members.id, { onDelete: 'cascade' }),
    createdByMemberId: uuid('created_by_member_id').notNull(),
    shortcut: text('shortcut').notNull(),
    text: text('text').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    // One shortcut per scope: the workspace's, and each member's own (NULLS NOT DISTINCT would need PG 15+ syntax
    // drizzle-kit does not emit; the owner is coalesced to a fixed uuid instead).
    uniqueIndex('canned_replies_shortcut_uq').on(
      t.workspaceId,
      sql`coalesce(${t.ownerMemberId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
      sql`lower(${t.shortcut})`,
    ),
  ],
);

/** A note's `@mention` of a member, with whether they have seen it. */
export const messageMentions = pgTable(
  'message_mentions',
  {
    id: id(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    messageId: uuid('message_id').notNull().references(() => messages.id, { onDelete: 'cascade' }),
    conversationId: uuid('conversation_id').notNull().references(() => conversations.id, { onDelete: 'cascade' }),
    memberId: uuid('member_id').notNull().references(() => members.id, { onDelete: 'cascade' }),
    mentionedByMemberId: uuid('mentioned_by_member_id').notNull(),
    readAt: timestamp('read_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
  },
  (t) => [
    index('message_mentions_member_idx').on(t.workspaceId, t.memberId, t.createdAt, t.id),
    uniqueIndex('message_mentions_message_member_uq').on(t.workspaceId, t.messageId, t.memberId),
  ],
);
