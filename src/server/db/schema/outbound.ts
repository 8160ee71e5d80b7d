/** Outbound sends (idempotency and outcome of every message Parley sends) and the per-number send pacers. */
import { sql } from 'drizzle-orm';
import { doublePrecision, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, createdAt, workspaceId } from './columns';
import { workspaces } from './workspaces';

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
    // The portfolio's moving 24 hours: unique customers sent a template, counted from this index alone (index-only).
    index('outbound_sends_template_reach_idx').on(t.workspaceId, t.claimedAt, t.contactId, t.status).where(sql`${t.messageType} = 'template'`),
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
