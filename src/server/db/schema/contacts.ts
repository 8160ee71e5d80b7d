/** The audience: contacts, the workspace's attributes, and saved segments. */
import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, createdAt, workspaceId, bytewiseText } from './columns';
import { members, workspaces } from './workspaces';

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
    /**
     * E.164; null when Meta withholds it (a customer with a username who has not talked with the business's
     * number in 30 days): such a contact is known by its user id alone.
     */
    phoneNumber: bytewiseText('phone_number'),
    /** Meta's business-scoped user id (`US.13491208655302741918`): matched before the phone number. */
    userId: text('user_id'),
    /** The parent business-scoped user id, when the business has one (portfolio-wide). */
    parentUserId: text('parent_user_id'),
    /** The customer's WhatsApp username, when they adopted one. */
    username: text('username'),
    email: text('email'),
    attributes: jsonb('attributes').$type<Record<string, string | number | boolean | null>>().notNull().default({}),
    channel: text('channel').notNull().default('WhatsApp'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    country: text('country'),
    city: text('city'),
    metaSourceId: text('meta_source_id'),
    metaSourceType: text('meta_source_type'),
    metaCtwaClid: text('meta_ctwa_clid'),
    /** Campaigns: opted out of campaigns since this time (null: not opted out). */
    optedOutAt: timestamp('opted_out_at', { withTimezone: true, precision: 3 }),
    /**
     * How Parley's opt-out came: `keyword` (STOP, UNSUBSCRIBE or a workspace keyword), `template_button` (the
     * marketing template's "Stop promotions" button) or `member` (by hand, `optedOutByMemberId` says who).
     * Null for opt-outs recorded before sources were kept.
     */
    optedOutSource: text('opted_out_source', { enum: ['keyword', 'template_button', 'member'] }),
    optedOutByMemberId: uuid('opted_out_by_member_id').references(() => members.id, { onDelete: 'set null' }),
    /**
     * Meta's marketing consent, apart from Parley's opt-out: `stopped` or `resumed` as the customer set it in
     * WhatsApp (`user_preferences`), or `stopped` by a 131050 refusal; `marketingConsentSource` says which, and
     * `marketingConsentAt` when Meta says it happened (an older event never undoes a newer one).
     */
    marketingConsent: text('marketing_consent', { enum: ['stopped', 'resumed'] }),
    marketingConsentSource: text('marketing_consent_source', { enum: ['user_preferences', '131050'] }),
    marketingConsentAt: timestamp('marketing_consent_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('contacts_workspace_phone_uq').on(t.workspaceId, t.phoneNumber),
    uniqueIndex('contacts_workspace_user_id_uq').on(t.workspaceId, t.userId),
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
    // Username prefixes; partial, so the many contacts without a username cost an import nothing here.
    index('contacts_username_prefix_idx')
      .on(t.workspaceId, sql`lower(${t.username}) text_pattern_ops`)
      .where(sql`${t.username} is not null`),
  ],
);

/** Each change of a contact's identity that Meta announced (a new phone number or user id): the history kept. */
export const contactIdentityChanges = pgTable(
  'contact_identity_changes',
  {
    id: id(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['phoneNumber', 'userId', 'parentUserId'] }).notNull(),
    previous: text('previous'),
    current: text('current'),
    /** When Meta says it changed. */
    changedAt: timestamp('changed_at', { withTimezone: true, precision: 3 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('contact_identity_changes_contact_idx').on(t.workspaceId, t.contactId, t.changedAt)],
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
