/**
 * The one database schema, for PGlite and PostgreSQL alike (SQL both PostgreSQL 15 and 18 accept).
 * Tenancy: every tenant table carries `workspace_id NOT NULL` (indexed, usually as the leading key column),
 * so every query is scoped by it and the tables can be distributed by it later.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const id = () => uuid('id').primaryKey().default(sql`gen_random_uuid()`);
const createdAt = () => timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow();
const workspaceId = () => uuid('workspace_id').notNull();
/**
 * Text compared byte by byte (collation "C"). For ASCII values such as E.164 numbers the order is the same, and a
 * plain btree on such a column also answers `LIKE 'prefix%'`, so no second (text_pattern_ops) index is needed.
 */
const bytewiseText = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });

export const workspaces = pgTable('workspaces', {
  id: id(),
  name: text('name').notNull(),
  /** Country assumed for phone numbers written without a country code (imports). */
  defaultCountry: text('default_country').notNull().default('US'),
  // ---- campaigns (issue 17) ----
  /** IANA time zone of recipients whose own cannot be told (send windows). */
  timeZone: text('time_zone').notNull().default('UTC'),
  /** Opt-out keywords besides STOP and UNSUBSCRIBE, upper-cased. */
  optOutKeywords: text('opt_out_keywords').array().notNull().default(sql`'{}'::text[]`),
  /** Sent after an opt-out when the 24-hour window allows; empty sends nothing. */
  optOutConfirmation: text('opt_out_confirmation').notNull().default('You will no longer receive campaign messages from us. Reply START to subscribe again.'),
  createdAt: createdAt(),
});

/** A person (one Firebase identity). Not a tenant table: membership is. */
export const members = pgTable('members', {
  id: id(),
  uid: text('uid').notNull().unique(),
  currentWorkspaceId: uuid('current_workspace_id'),
  createdAt: createdAt(),
});

export const workspaceMembers = pgTable(
  'workspace_members',
  {
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    memberId: uuid('member_id').notNull().references(() => members.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['admin', 'agent'] }).notNull(),
    createdAt: createdAt(),
    // issue 19 part B (routing): the member takes new conversations (availability toggle, off until the
    // member turns it on: auto-assignment is opt-in), up to this many open ones at once; the round-robin
    // gives the next one to whom it gave one longest ago.
    available: boolean('available').notNull().default(false),
    chatCapacity: integer('chat_capacity').notNull().default(10),
    lastAutoAssignedAt: timestamp('last_auto_assigned_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.memberId] }), index('workspace_members_member_idx').on(t.memberId)],
);

export const invitees = pgTable(
  'invitees',
  {
    id: id(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: ['admin', 'agent'] }).notNull(),
    token: text('token').notNull().unique(),
    used: boolean('used').notNull().default(false),
    usedByMemberId: uuid('used_by_member_id'),
    memberId: uuid('member_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('invitees_workspace_idx').on(t.workspaceId, t.createdAt)],
);

export const attributes = pgTable(
  'attributes',
  {
    id: id(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    type: text('type', { enum: ['contact', 'conversation'] }).notNull().default('contact'),
    format: text('format', { enum: ['text', 'number', 'boolean'] }).notNull(),
    memberId: uuid('member_id').notNull(),
    createdAt: createdAt(),
  },
  // Names are unique per workspace regardless of case, so "Plan" and "plan" cannot both exist.
  (t) => [uniqueIndex('attributes_workspace_name_uq').on(t.workspaceId, sql`lower(${t.name})`)],
);

export const contacts = pgTable(
  'contacts',
  {
    id: id(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name'),
    /**
     * The name's words, lower-cased (split at spaces and , . ; : ( ) " / -), kept by PostgreSQL itself from
     * `name` on every write (import, edit, inbound), for "any word of the name" searches through the GIN below.
     */
    nameWords: text('name_words')
      .array()
      .generatedAlwaysAs(sql`regexp_split_to_array(lower(btrim("name")), '[\\s,.;:()"/-]+')`),
    /** E.164. */
    phoneNumber: bytewiseText('phone_number').notNull(),
    email: text('email'),
    attributes: jsonb('attributes').$type<Record<string, string | number | boolean | null>>().notNull().default({}),
    channel: text('channel').notNull().default('WhatsApp'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    country: text('country'),
    city: text('city'),
    metaSourceId: text('meta_source_id'),
    metaSourceType: text('meta_source_type'),
    metaCtwaClid: text('meta_ctwa_clid'),
    /** Campaigns (issue 17): opted out of campaigns since this time (null: not opted out). */
    optedOutAt: timestamp('opted_out_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('contacts_workspace_phone_uq').on(t.workspaceId, t.phoneNumber),
    index('contacts_workspace_created_idx').on(t.workspaceId, t.createdAt, t.id),
    index('contacts_attributes_gin').using('gin', t.attributes.op('jsonb_path_ops')),
    // Search and STARTS_WITH filters are prefix matches: plain btrees stay cheap to maintain during a
    // million-row import, where a pg_trgm index on the same columns more than doubled the import time. Phone
    // prefixes use the unique index above (phone_number is collated "C"); every index here costs import time.
    index('contacts_name_prefix_idx').on(t.workspaceId, sql`lower(${t.name}) text_pattern_ops`),
    index('contacts_email_prefix_idx').on(t.workspaceId, sql`lower(${t.email}) text_pattern_ops`),
    // Whole words of the name (`name_words @> '{archer}'`). An array's element statistics give the planner real
    // estimates (a prefix tsquery had none), so a rare or absent word is looked up here, a common one on the
    // newest-first index. fastupdate batches the index's inserts during an import.
    index('contacts_name_words_gin').using('gin', t.nameWords),
  ],
);

export const segments = pgTable(
  'segments',
  {
    id: id(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    filters: jsonb('filters').$type<unknown[]>().notNull(),
    memberId: uuid('member_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('segments_workspace_idx').on(t.workspaceId, t.createdAt)],
);

export const whatsappAccounts = pgTable(
  'whatsapp_accounts',
  {
    id: id(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    phoneNumber: text('phone_number').notNull(),
    wabaAccountId: text('waba_account_id').notNull(),
    appId: text('app_id').notNull(),
    phoneNumberId: text('phone_number_id').notNull(),
    /** AES-256-GCM ciphertext (SECRETS_KEY); never returned to a client. */
    tokenCiphertext: text('token_ciphertext').notNull(),
    tokenLast4: text('token_last4').notNull(),
    /** Messages per second this number may send (Meta's throughput tier): the rate of its pacer. */
    throughputPerSecond: integer('throughput_per_second').notNull().default(80),
    /** Issue 19 item 8: the number's health as Meta last told it (Graph read or phone_number_quality_update). */
    qualityRating: text('quality_rating'),
    messagingLimitTier: text('messaging_limit_tier'),
    throughputLevel: text('throughput_level'),
    /** The last phone_number_quality_update event (FLAGGED, UNFLAGGED, UPGRADE, DOWNGRADE, THROUGHPUT_UPGRADE...). */
    qualityEvent: text('quality_event'),
    healthUpdatedAt: timestamp('health_updated_at', { withTimezone: true, precision: 3 }),
    memberId: uuid('member_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('whatsapp_accounts_throughput_range', sql`${t.throughputPerSecond} between 1 and 1000`),
    index('whatsapp_accounts_workspace_idx').on(t.workspaceId),
    // Webhooks find the account by phone_number_id; one number belongs to one workspace.
    uniqueIndex('whatsapp_accounts_phone_number_id_uq').on(t.phoneNumberId),
  ],
);

export const whatsappTemplates = pgTable(
  'whatsapp_templates',
  {
    id: id(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    whatsappAccountId: uuid('whatsapp_account_id').notNull(),
    name: text('name').notNull(),
    status: text('status').notNull(),
    language: text('language').notNull(),
    category: text('category').notNull(),
    components: jsonb('components').$type<unknown[]>().notNull(),
    mediaUrl: text('media_url'),
    whatsappTemplateId: text('whatsapp_template_id'),
    memberId: uuid('member_id').notNull(),
    createdAt: createdAt(),
    /**
     * When WhatsApp decided `status` (the review webhook's entry.time, or the time of a pull from WhatsApp): a
     * review Meta redelivers days later never undoes a newer one (issue 20.3).
     */
    statusAt: timestamp('status_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('whatsapp_templates_workspace_idx').on(t.workspaceId, t.createdAt),
    uniqueIndex('whatsapp_templates_account_name_lang_uq').on(t.workspaceId, t.whatsappAccountId, t.name, t.language),
  ],
);

export const bots = pgTable(
  'bots',
  {
    id: id(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    isActive: boolean('is_active').notNull().default(false),
    lastDeployedAt: timestamp('last_deployed_at', { withTimezone: true, precision: 3 }),
    channel: text('channel').notNull().default('WhatsApp'),
    rfInstance: jsonb('rf_instance').notNull(),
    whatsappAccountId: uuid('whatsapp_account_id'),
    memberId: uuid('member_id').notNull(),
    createdAt: createdAt(),
    // ---- issue 18 (bots): draft and published ----
    /** The version new sessions start on (null until the first deploy). */
    publishedVersionId: uuid('published_version_id'),
    /** Bumped on every change of the draft canvas; a version records the revision it was published from. */
    draftRevision: integer('draft_revision').notNull().default(0),
    publishedRevision: integer('published_revision'),
  },
  (t) => [
    index('bots_workspace_idx').on(t.workspaceId, t.createdAt),
    // One active bot per WhatsApp number, held by the database.
    uniqueIndex('bots_active_account_uq').on(t.whatsappAccountId).where(sql`${t.isActive} AND ${t.whatsappAccountId} IS NOT NULL`),
  ],
);

/** Issue 18: a published, immutable version of a bot's canvas; sessions run on the version they started on. */
export const botVersions = pgTable(
  'bot_versions',
  {
    id: id(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    botId: uuid('bot_id').notNull().references(() => bots.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    rfInstance: jsonb('rf_instance').notNull(),
    /** The draft revision it was published from. */
    draftRevision: integer('draft_revision').notNull(),
    memberId: uuid('member_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('bot_versions_bot_version_uq').on(t.botId, t.version), index('bot_versions_workspace_idx').on(t.workspaceId, t.botId)],
);

/** Issue 18: values of conversation-type attributes (contact-type ones live on the contact). */
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

export const campaigns = pgTable(
  'campaigns',
  {
    id: id(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type', { enum: ['oneTime', 'recurring'] }).notNull(),
    status: text('status', { enum: ['draft', 'scheduled', 'active', 'paused', 'inProgress', 'completed'] }).notNull().default('draft'),
    resumeAt: timestamp('resume_at', { withTimezone: true, precision: 3 }),
    rfInstance: jsonb('rf_instance').notNull(),
    memberId: uuid('member_id').notNull(),
    // ---- issue 17 ----
    /** A scheduled one-time campaign starts then (the scheduler claims it once). */
    scheduledAt: timestamp('scheduled_at', { withTimezone: true, precision: 3 }),
    deployedAt: timestamp('deployed_at', { withTimezone: true, precision: 3 }),
    /** The canvas as deployed: the runner follows it, edits of the draft cannot change a running campaign. */
    deployedRf: jsonb('deployed_rf'),
    /** sha256 of the recurring trigger key (the key is shown once). */
    triggerKeyHash: text('trigger_key_hash'),
    triggerKeyHint: text('trigger_key_hint'),
    createdAt: createdAt(),
  },
  (t) => [
    index('campaigns_workspace_idx').on(t.workspaceId, t.createdAt),
    uniqueIndex('campaigns_trigger_key_uq').on(t.triggerKeyHash),
    index('campaigns_due_idx').on(t.scheduledAt).where(sql`${t.status} = 'scheduled'`),
    index('campaigns_resume_idx').on(t.resumeAt).where(sql`${t.status} = 'paused'`),
  ],
);

/**
 * One execution of a campaign: a one-time campaign's deploy, or one record of a recurring campaign's
 * `POST /outbound`. Its recipients and logs carry its id, so a campaign run twice keeps both histories apart.
 */
export const campaignRuns = pgTable(
  'campaign_runs',
  {
    id: id(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    campaignId: uuid('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['running', 'paused', 'completed', 'cancelled'] }).notNull().default('running'),
    /** Issue 17: the recipients snapshot of a one-time run is still being written. */
    snapshotDone: boolean('snapshot_done').notNull().default(true),
    /** Recipients snapshotted at deploy (one for a recurring campaign's record). */
    recipientCount: integer('recipient_count').notNull().default(0),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('campaign_runs_campaign_idx').on(t.workspaceId, t.campaignId, t.createdAt),
    // The runner's claim starts from the running runs (few among every run ever made).
    index('campaign_runs_running_idx').on(t.id).where(sql`${t.status} = 'running'`),
  ],
);

/**
 * Where each recipient of a run stands on the campaign's chain: the step (canvas node id) it is at, whether it
 * waits (a delay until `nextAt`) or is done, skipped (opted out) or failed. One row per (run, contact).
 */
export const campaignRecipients = pgTable(
  'campaign_recipients',
  {
    id: id(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    runId: uuid('run_id').notNull().references(() => campaignRuns.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id').notNull().references(() => contacts.id, { onDelete: 'cascade' }),
    /** The canvas node the recipient is at (null before the first step). */
    stepId: text('step_id'),
    status: text('status', { enum: ['pending', 'waiting', 'sending', 'done', 'skipped', 'failed'] }).notNull().default('pending'),
    /** When a waiting recipient moves on (end of a delay). */
    nextAt: timestamp('next_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    // ---- issue 17 ----
    campaignId: uuid('campaign_id').references(() => campaigns.id, { onDelete: 'cascade' }),
    /** Pair-rate (131056) retries of the current step so far. */
    attempts: integer('attempts').notNull().default(0),
  },
  (t) => [
    uniqueIndex('campaign_recipients_run_contact_uq').on(t.workspaceId, t.runId, t.contactId),
    index('campaign_recipients_run_status_idx').on(t.workspaceId, t.runId, t.status),
    // The runner's claim: a running run's due recipients, oldest due first (pending, waiting, and stale sending).
    index('campaign_recipients_run_due_idx').on(t.runId, t.nextAt).where(sql`${t.status} in ('pending', 'waiting', 'sending')`),
  ],
);

/**
 * What each send step did for a recipient (spec: CampaignLogs). Rows written by the campaign runner carry the
 * run, the recipient and the step, unique per (recipient, step), so a retried step logs once; the wamid lets
 * status webhooks update the row. Rows from before runs existed keep those columns null.
 */
export const campaignLogs = pgTable(
  'campaign_logs',
  {
    id: id(),
    workspaceId: workspaceId(),
    campaignId: uuid('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
    runId: uuid('run_id').references(() => campaignRuns.id, { onDelete: 'cascade' }),
    recipientId: uuid('recipient_id').references(() => campaignRecipients.id, { onDelete: 'cascade' }),
    stepId: text('step_id'),
    phoneNumber: text('phone_number').notNull(),
    templateName: text('template_name').notNull(),
    messageStatus: text('message_status', { enum: ['success', 'failed'] }).notNull(),
    /** The sent message's wamid; its delivery status follows from the status webhooks. */
    waMessageId: text('wa_message_id'),
    reason: text('reason'),
    createdAt: createdAt(),
    // ---- issue 17 ----
    contactId: uuid('contact_id'),
    /** pending, sent, delivered, read, failed, unknown, optedOut: only ever moves forward (see campaigns/status.ts). */
    deliveryState: text('delivery_state', { enum: ['pending', 'sent', 'delivered', 'read', 'failed', 'unknown', 'optedOut'] }).notNull().default('sent'),
    errorCode: integer('error_code'),
    repliedAt: timestamp('replied_at', { withTimezone: true, precision: 3 }),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index('campaign_logs_campaign_idx').on(t.workspaceId, t.campaignId, t.createdAt),
    index('campaign_logs_contact_idx').on(t.workspaceId, t.contactId, t.createdAt),
    uniqueIndex('campaign_logs_recipient_step_uq').on(t.workspaceId, t.recipientId, t.stepId),
    index('campaign_logs_wamid_idx').on(t.workspaceId, t.waMessageId),
  ],
);

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
    createdAt: createdAt(),
  },
  (t) => [
    index('messages_conversation_idx').on(t.workspaceId, t.conversationId, t.createdAt, t.id),
    uniqueIndex('messages_wa_message_id_uq').on(t.workspaceId, t.waMessageId),
    // Addition (issue 19): full-text search of message texts and captions ('simple': no stemming, any language).
    index('messages_text_search_idx').using('gin', sql`to_tsvector('simple', coalesce(${t.text}, ''))`),
    // Addition (issue 19): a broad search walks the workspace's messages newest first (repositories/message-search.ts).
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

export const importHistories = pgTable(
  'import_histories',
  {
    id: id(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    fileUrl: text('file_url').notNull(),
    status: text('status', { enum: ['pending', 'completed', 'failed'] }).notNull().default('pending'),
    columnAttributeMap: jsonb('column_attribute_map').notNull(),
    createdCount: integer('created_count').notNull().default(0),
    updatedCount: integer('updated_count').notNull().default(0),
    rejectedCount: integer('rejected_count').notNull().default(0),
    failureReason: text('failure_reason'),
    /** Data rows whose outcome is committed; a restarted import skips them (resumption without duplicates). */
    processedRows: integer('processed_rows').notNull().default(0),
    /** Country assumed for numbers without a country code; the workspace's default when not given. */
    defaultCountry: text('default_country'),
    /** File-store key of the CSV error report (rejected rows), written when the import ends. */
    errorReportKey: text('error_report_key'),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
    memberId: uuid('member_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('import_histories_workspace_idx').on(t.workspaceId, t.createdAt)],
);

/** Rows an import refused, kept for the downloadable error report. */
export const importRejections = pgTable(
  'import_rejections',
  {
    workspaceId: workspaceId(),
    importId: uuid('import_id').notNull().references(() => importHistories.id, { onDelete: 'cascade' }),
    /** 1-based line number of the record in the file, the header being line 1. */
    rowNumber: integer('row_number').notNull(),
    value: text('value').notNull(),
    reason: text('reason').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.importId, t.rowNumber] })],
);

/** Append-only log of what members should see change; feeds the realtime stream and desktop sync. */
export const workspaceEvents = pgTable(
  'workspace_events',
  {
    workspaceId: workspaceId(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.seq] })],
);

/**
 * A bot's conversation with one customer: the node it is at, the variables it collected, what input it waits
 * for, and when it expires (the 24-hour window). At most one live session per conversation (partial unique
 * index); ended sessions stay as history with why they ended (completed, expired, a member took over ...).
 */
export const botSessions = pgTable(
  'bot_sessions',
  {
    id: id(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    botId: uuid('bot_id').notNull().references(() => bots.id, { onDelete: 'cascade' }),
    conversationId: uuid('conversation_id').notNull().references(() => conversations.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['active', 'ended'] }).notNull().default('active'),
    /** The canvas node the session is at. */
    currentNodeId: text('current_node_id').notNull(),
    variables: jsonb('variables').$type<Record<string, unknown>>().notNull().default({}),
    /** What the current node waits for from the customer (a typed answer, a reply button, a list row, a flow), or null. */
    waitingFor: text('waiting_for', { enum: ['input', 'reply', 'list', 'flow'] }),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true, precision: 3 }),
    endReason: text('end_reason', { enum: ['completed', 'expired', 'handoff', 'member', 'bot_stopped', 'failed'] }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    // ---- issue 18 (bots): the runtime ----
    /** The published version the session runs on to its end. */
    botVersionId: uuid('bot_version_id').references(() => botVersions.id, { onDelete: 'cascade' }),
    /** Nodes run so far: part of every send's idempotency key (`bot:<sessionId>:<step>:<block>`). */
    step: integer('step').notNull().default(0),
    /** Invalid answers to the current waiting node. */
    invalidAnswers: integer('invalid_answers').notNull().default(0),
    /** When the current waiting node's no-answer edge is due (null when there is none). */
    noAnswerAt: timestamp('no_answer_at', { withTimezone: true, precision: 3 }),
    /** The time of the last inbound message applied: messages are applied in order, each once. */
    handledUntil: timestamp('handled_until', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('bot_sessions_no_answer_idx').on(t.noAnswerAt).where(sql`${t.status} = 'active' AND ${t.noAnswerAt} IS NOT NULL`),
    uniqueIndex('bot_sessions_live_conversation_uq').on(t.workspaceId, t.conversationId).where(sql`${t.status} = 'active'`),
    index('bot_sessions_bot_idx').on(t.workspaceId, t.botId, t.createdAt),
    // The expiry sweep looks across workspaces for live sessions past their time.
    index('bot_sessions_expiry_idx').on(t.expiresAt).where(sql`${t.status} = 'active'`),
  ],
);

/**
 * One intended send of the outbound path (src/server/messaging/outbound.ts), recorded and claimed before Meta is
 * called. `status`: `claimed` (being sent, or its process died), `pending` (not accepted by Meta for a reason
 * that may pass: a retry with the same key sends it), `sent` (accepted: message and wamid stored), `failed`
 * (refused for good), `unknown` (Meta may or may not have it: never sent again automatically).
 */
export const outboundSends = pgTable(
  'outbound_sends',
  {
    id: id(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull(),
    whatsappAccountId: uuid('whatsapp_account_id').notNull(),
    contactId: uuid('contact_id').notNull(),
    conversationId: uuid('conversation_id'),
    actorType: text('actor_type', { enum: ['member', 'bot', 'campaign', 'system'] }).notNull(),
    actorId: uuid('actor_id'),
    messageType: text('message_type').notNull(),
    status: text('status', { enum: ['claimed', 'pending', 'sent', 'failed', 'unknown'] }).notNull().default('claimed'),
    /** Times the send was claimed (a retry of a `pending` send claims it again). */
    attempts: integer('attempts').notNull().default(1),
    /** 130429 answers met (each one backed the number off; the same send went again later). */
    throttled: integer('throttled').notNull().default(0),
    messageId: uuid('message_id'),
    waMessageId: text('wa_message_id'),
    errorCode: integer('error_code'),
    failureReason: text('failure_reason'),
    claimedAt: timestamp('claimed_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('outbound_sends_key_uq').on(t.workspaceId, t.idempotencyKey),
    // Operators look for unknown outcomes (and stale claims) per workspace.
    index('outbound_sends_status_idx').on(t.workspaceId, t.status, t.claimedAt),
  ],
);

/**
 * The pacer of one WhatsApp number, shared by every server process through the database: a virtual-scheduling
 * token bucket (GCRA). `next_at` is the theoretical time of the next send; a send may go at `next_at - burst`.
 */
export const sendPacers = pgTable(
  'send_pacers',
  {
    whatsappAccountId: uuid('whatsapp_account_id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    nextAt: doublePrecision('next_at').notNull().default(0),
    /** 130429 answers that backed this number off. */
    backoffs: integer('backoffs').notNull().default(0),
  },
  (t) => [index('send_pacers_workspace_idx').on(t.workspaceId)],
);

// ---- issue 19 part A (additions): canned replies and mentions ----

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

// ---- issue 19 part B ----
/** The last time Meta's webhook verification call (GET with hub.challenge) reached this server. Server-wide. */
export const webhookVerifications = pgTable('webhook_verifications', {
  channel: text('channel').primaryKey(),
  verifiedAt: timestamp('verified_at', { withTimezone: true, precision: 3 }).notNull(),
});

/** Tables that hold one workspace's data; each must have an indexed NOT NULL workspace_id (checked by a test). */
export const tenantTables = [
  'workspace_members',
  'invitees',
  'attributes',
  'contacts',
  'segments',
  'whatsapp_accounts',
  'whatsapp_templates',
  'bots',
  'campaigns',
  'campaign_logs',
  'campaign_runs',
  'campaign_recipients',
  'bot_sessions',
  'bot_versions',
  'conversation_attributes',
  'conversations',
  'conversation_events',
  'messages',
  'conversation_reads',
  'import_histories',
  'import_rejections',
  'workspace_events',
  'outbound_sends',
  'send_pacers',
  'canned_replies',
  'message_mentions',
] as const;
