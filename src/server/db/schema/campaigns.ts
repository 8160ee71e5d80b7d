/** Campaigns, their runs, the recipients' due work, and the log lines (one per recipient and send step). */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, createdAt, workspaceId } from './columns';
import { workspaces } from './workspaces';

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
    // ---- the runner's (ours) ----
    /** A scheduled one-time campaign starts then (the scheduler claims it once). */
    scheduledAt: timestamp('scheduled_at', { withTimezone: true, precision: 3 }),
    deployedAt: timestamp('deployed_at', { withTimezone: true, precision: 3 }),
    /** The canvas as deployed: the runner follows it, edits of the draft cannot change a running campaign. */
    deployedRf: jsonb('deployed_rf'),
    /** sha256 of the recurring trigger key (the key is shown once). */
    triggerKeyHash: text('trigger_key_hash'),
    triggerKeyHint: text('trigger_key_hint'),
    /** Paused by an account-level refusal of Meta: its code and Meta's words (cleared on resume). */
    haltCode: integer('halt_code'),
    haltReason: text('halt_reason'),
    haltedAt: timestamp('halted_at', { withTimezone: true, precision: 3 }),
    /**
     * Some recipients wait for room in the business portfolio's messaging limit: why, and when the oldest send of
     * the moving 24 hours leaves it (cleared once the campaign sends again without holding anyone).
     */
    holdReason: text('hold_reason'),
    heldUntil: timestamp('held_until', { withTimezone: true, precision: 3 }),
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
    /** The recipients snapshot of a one-time run is still being written. */
    snapshotDone: boolean('snapshot_done').notNull().default(true),
    /** Recipients snapshotted at deploy (one for a recurring campaign's record). */
    recipientCount: integer('recipient_count').notNull().default(0),
    /**
     * Where an unfinished snapshot stopped: the last contact written, in the walk's (created_at, id) order
     * (null: from the start). Moved in each chunk's transaction.
     */
    snapshotAfterCreatedAt: timestamp('snapshot_after_created_at', { withTimezone: true, precision: 3 }),
    snapshotAfterId: uuid('snapshot_after_id'),
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
 *
 * Only the run is a foreign key (migration 0031 says why): a workspace's or campaign's delete takes the run and the
 * run's its recipients; a contact's delete takes its recipients through a trigger on contacts.
 */
export const campaignRecipients = pgTable(
  'campaign_recipients',
  {
    id: id(),
    workspaceId: workspaceId(),
    runId: uuid('run_id').notNull().references(() => campaignRuns.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id').notNull(),
    /** The canvas node the recipient is at (null before the first step). */
    stepId: text('step_id'),
    status: text('status', { enum: ['pending', 'waiting', 'sending', 'done', 'skipped', 'failed'] }).notNull().default('pending'),
    /** When a waiting recipient moves on (end of a delay). */
    nextAt: timestamp('next_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    // ---- the runner's (ours) ----
    campaignId: uuid('campaign_id'),
    /** Pair-rate (131056) retries of the current step so far. */
    attempts: integer('attempts').notNull().default(0),
  },
  (t) => [
    uniqueIndex('campaign_recipients_run_contact_uq').on(t.workspaceId, t.runId, t.contactId),
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
    // ---- the runner's (ours) ----
    contactId: uuid('contact_id'),
    /** pending, sent, delivered, read, failed, unknown, optedOut, capped (131049): only ever moves forward (see campaigns/status.ts). */
    deliveryState: text('delivery_state', { enum: ['pending', 'sent', 'delivered', 'read', 'failed', 'unknown', 'optedOut', 'capped'] }).notNull().default('sent'),
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
