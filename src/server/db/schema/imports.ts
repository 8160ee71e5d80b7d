/** Contact imports and the rows they refused. */
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { id, createdAt, workspaceId } from './columns';
import { workspaces } from './workspaces';

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
