import { type InferSelectModel, type Table, getTableColumns } from 'drizzle-orm';
import { rowsOf } from '../db/client';

/**
 * The rows of a raw statement's `returning *` (or `select *`) as drizzle's own select answers them: keys by the
 * schema's field names, each value decoded by its column (timestamps to Dates and the like). The hot inbound
 * statements are raw SQL with their rows in one JSON parameter, so building them costs no per-row drizzle work.
 */
export function tableRows<T extends Table>(table: T, result: unknown): InferSelectModel<T>[] {
  const columns = Object.entries(getTableColumns(table));
  return rowsOf<Record<string, unknown>>(result).map((raw) => {
    const row: Record<string, unknown> = {};
    for (const [field, column] of columns) {
      const value = raw[column.name];
      row[field] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row as InferSelectModel<T>;
  });
}
