/** Workspaces, the people in them (members, memberships, invitations), and the server-wide webhook verification mark. */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { id, createdAt, workspaceId } from './columns';

export const workspaces = pgTable('workspaces', {
  id: id(),
  name: text('name').notNull(),
  /** Country assumed for phone numbers written without a country code (imports). */
  defaultCountry: text('default_country').notNull().default('US'),
  // ---- campaigns ----
  /** IANA time zone of recipients whose own cannot be told (send windows). */
  timeZone: text('time_zone').notNull().default('UTC'),
  /** Opt-out keywords besides STOP and UNSUBSCRIBE, upper-cased. */
  optOutKeywords: text('opt_out_keywords').array().notNull().default(sql`'{}'::text[]`),
  /** Sent after an opt-out when the 24-hour window allows; empty sends nothing. */
  optOutConfirmation: text('opt_out_confirmation').notNull().default('You will no longer receive campaign messages from us. Reply START to subscribe again.'),
  /** Marketing templates to US numbers are skipped before sending (Meta refuses them with 131049); admins turn it on. */
  skipUsMarketing: boolean('skip_us_marketing').notNull().default(true),
  createdAt: createdAt(),
  // ---- bots ----
  /** The From address of the bots' e-mails (SendEmail steps); null uses SMTP_FROM. */
  botEmailFrom: text('bot_email_from'),
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
    // Routing: the member takes new conversations (availability toggle, off until the
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

/** The last time Meta's webhook verification call (GET with hub.challenge) reached this server. Server-wide. */
export const webhookVerifications = pgTable('webhook_verifications', {
  channel: text('channel').primaryKey(),
  verifiedAt: timestamp('verified_at', { withTimezone: true, precision: 3 }).notNull(),
});
