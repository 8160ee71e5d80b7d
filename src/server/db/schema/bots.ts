/** Bots, their published versions, and the live sessions running on them. */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, createdAt, workspaceId } from './columns';
import { conversations } from './conversations';
import { workspaces } from './workspaces';

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
    // ---- bots: draft and published ----
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

/** a published, immutable version of a bot's canvas; sessions run on the version they started on. */
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
    /**
     * What the current node waits for from the customer (a typed answer, a reply button, a list row, a flow), or
     * `call`: the node's network call (bot_calls), made outside the turn's transaction.
     */
    waitingFor: text('waiting_for', { enum: ['input', 'reply', 'list', 'flow', 'call'] }),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true, precision: 3 }),
    endReason: text('end_reason', { enum: ['completed', 'expired', 'handoff', 'member', 'bot_stopped', 'failed'] }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    // ---- bots: the runtime ----
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
 * A turn's network call, named by its key (`bot:<sessionId>:<step>:0`): an HTTP node's request, recorded by the
 * turn that reached it and made after that turn committed, or a sent e-mail. A recorded outcome is reused, never
 * asked again; `attempts` tells a call that may have left (its process died) from one never made.
 */
export const botCalls = pgTable(
  'bot_calls',
  {
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id').notNull().references(() => botSessions.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    kind: text('kind', { enum: ['http', 'email'] }).notNull(),
    nodeId: text('node_id').notNull(),
    step: integer('step').notNull(),
    /** The HTTP call as the walk built it (URL, headers, body, timeout), or the e-mail's recipients and subject. */
    request: jsonb('request').notNull(),
    /** The walk's loop-guard counts when it paused here, carried to the walk that resumes. */
    guard: jsonb('guard').$type<{ walked: number; httpCalls: number }>(),
    outcome: jsonb('outcome'),
    attempts: integer('attempts').notNull().default(0),
    attemptedAt: timestamp('attempted_at', { withTimezone: true, precision: 3 }),
    doneAt: timestamp('done_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.key] }), index('bot_calls_session_idx').on(t.workspaceId, t.sessionId)],
);
