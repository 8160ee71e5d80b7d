/** WhatsApp numbers (accounts) and their message templates. */
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, createdAt, workspaceId } from './columns';
import { workspaces } from './workspaces';

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
    /** The number's health as Meta last told it (Graph read or phone_number_quality_update). */
    qualityRating: text('quality_rating'),
    messagingLimitTier: text('messaging_limit_tier'),
    /** The business portfolio's messaging limit, shared by its numbers (TIER_250 ... TIER_UNLIMITED). */
    portfolioMessagingLimit: text('portfolio_messaging_limit'),
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

/** A template_category_update as stored (times as ISO strings). */
export interface StoredCategoryChange {
  state: 'impending' | 'completed';
  previousCategory: string | null;
  newCategory: string;
  effectiveAt: string | null;
}

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
     * review Meta redelivers days later never undoes a newer one.
     */
    statusAt: timestamp('status_at', { withTimezone: true, precision: 3 }),
    /** Meta's quality score (message_template_quality_update), the one before, and when Meta changed it. */
    qualityScore: text('quality_score'),
    previousQualityScore: text('previous_quality_score'),
    qualityAt: timestamp('quality_at', { withTimezone: true, precision: 3 }),
    /** Meta's last template_category_update (impending or completed), and when Meta sent it: older ones never win. */
    categoryChange: jsonb('category_change').$type<StoredCategoryChange>(),
    categoryChangeAt: timestamp('category_change_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('whatsapp_templates_workspace_idx').on(t.workspaceId, t.createdAt),
    uniqueIndex('whatsapp_templates_account_name_lang_uq').on(t.workspaceId, t.whatsappAccountId, t.name, t.language),
  ],
);
