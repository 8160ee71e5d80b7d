/**
 * A row of `contacts` as the channel's SQL answers it (inbound-batch-rows.ts reads and writes them in batches).
 */
import type * as t from '../db/schema';

export type ContactRow = typeof t.contacts.$inferSelect;
