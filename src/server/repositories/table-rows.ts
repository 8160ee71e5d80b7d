import { type InferSelectModel, type Table, getTableColumns } from 'drizzle-orm';
import { rowsOf } from '../db/client';

/**
 * A raw row (keys by column name, as a raw statement or `row_to_json` answers it) as drizzle's own select answers
 * it: keys by the schema's field names, each value decoded by its column (timestamps to Dates and the like). The
 * hot inbound and bot statements are raw SQL, so building them costs no per-row drizzle work.
 */
export function tableRow<T extends Table>(table: T, raw: Record<string, unknown>): InferSelectModel<T> {
  const row: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    row[field] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as InferSelectModel<T>;
}

/** The rows of a raw statement's `returning *` (or `select *`), each as `tableRow` reads it. */
export function tableRows<T extends Table>(table: T, result: unknown): InferSelectModel<T>[] {
  return rowsOf<Record<string, unknown>>(result).map((raw) => tableRow(table, raw));
}
