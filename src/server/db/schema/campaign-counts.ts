/**
 * Each campaign's progress counts, kept as recipients and log lines change (database triggers, migration
 * 0022_campaign_counts): every statement that inserts, updates or deletes campaign_recipients or campaign_logs
 * adds one row of deltas per campaign it touched, in the same transaction. A campaign's counts are the sum of its
 * rows; folding replaces them by one `folded` row (repositories/campaign-results.ts), so a read sums a few rows
 * instead of counting a million.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, pgTable, uuid } from 'drizzle-orm/pg-core';
import { workspaceId } from './columns';

const count = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0);

export const campaignCounts = pgTable(
  'campaign_counts',
  {
    // No foreign keys (migration 0022 says why): a campaign's delete trigger takes its rows.
    workspaceId: workspaceId(),
    campaignId: uuid('campaign_id').notNull(),
    /** The sum of the campaign's earlier rows (written by a fold); deltas are not folded yet. */
    folded: boolean('folded').notNull().default(false),
    recipients: count('recipients'),
    pending: count('pending'),
    sent: count('sent'),
    delivered: count('delivered'),
    read: count('read'),
    replied: count('replied'),
    failed: count('failed'),
    unknown: count('unknown'),
    optedOut: count('opted_out'),
    capped: count('capped'),
  },
  (t) => [
    index('campaign_counts_campaign_idx').on(t.workspaceId, t.campaignId),
    // The campaigns with deltas to fold.
    index('campaign_counts_unfolded_idx').on(t.campaignId).where(sql`not ${t.folded}`),
  ],
);
