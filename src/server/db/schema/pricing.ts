/** Addition: what messages cost. A workspace's rate card (Meta's per-message prices by market), one per workspace. */
import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { workspaceId } from './columns';
import { workspaces } from './workspaces';

/** One market of a rate card; `country` null: every country without a row of its own. */
interface StoredRate {
  market: string;
  country: string | null;
  currency: string;
  marketing: number | null;
  utility: number | null;
  authentication: number | null;
}

export const rateCards = pgTable('rate_cards', {
  workspaceId: workspaceId()
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  fileName: text('file_name').notNull(),
  rates: jsonb('rates').$type<StoredRate[]>().notNull(),
  ignoredMarkets: jsonb('ignored_markets').$type<string[]>().notNull(),
  memberId: uuid('member_id').notNull(),
  uploadedAt: timestamp('uploaded_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});
