/** Column helpers every table of the schema shares. */
import { sql } from 'drizzle-orm';
import { customType, timestamp, uuid } from 'drizzle-orm/pg-core';

export const id = () => uuid('id').primaryKey().default(sql`gen_random_uuid()`);
export const createdAt = () => timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow();
export const workspaceId = () => uuid('workspace_id').notNull();
/**
 * Text compared byte by byte (collation "C"). For ASCII values such as E.164 numbers the order is the same, and a
 * plain btree on such a column also answers `LIKE 'prefix%'`, so no second (text_pattern_ops) index is needed.
 */
export const bytewiseText = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });

/** A full-text vector (`tsvector`), read as its text form; the schema only declares it, SQL compares it with `@@`. */
export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
