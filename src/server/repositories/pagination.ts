import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { limits } from '../../shared/limits';
import { badRequest } from '../errors';

export interface PageRequest {
  limit?: number;
  cursor?: string;
}
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Cursors are opaque to clients: base64url of the last row's ordering key. */
export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify([at.toISOString(), id])).toString('base64url');
}

/**
 * A cursor names a row by its timestamp and UUID. Anything else (a forged or truncated cursor, an id that is no
 * UUID, a date PostgreSQL cannot compare such as year 275760) answers 400 instead of reaching SQL as a cast error.
 */
export function decodeCursor(cursor: string): { at: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    if (typeof at !== 'string' || typeof id !== 'string' || !isUuid(id)) throw new Error('bad');
    return { at: cursorDate(at), id };
  } catch {
    throw badRequest('Invalid cursor');
  }
}

/** A cursor's timestamp, if PostgreSQL can compare it (else throws, for the caller's 400). */
export function cursorDate(at: string): Date {
  const d = new Date(at);
  const year = d.getUTCFullYear();
  if (Number.isNaN(d.getTime()) || year < 1 || year > 9999) throw new Error('bad');
  return d;
}

export function pageLimit(req: PageRequest): number {
  return req.limit ?? limits.page.defaultLimit;
}

/** Keyset condition "after the cursor" for lists ordered by (at DESC, id DESC). */
export function afterCursor(atCol: AnyPgColumn, idCol: AnyPgColumn, cursor?: string): SQL | undefined {
  if (!cursor) return undefined;
  const c = decodeCursor(cursor);
  return sql`(${atCol}, ${idCol}) < (${c.at.toISOString()}::timestamptz, ${c.id}::uuid)`;
}

/** Trims the extra row fetched to know whether a next page exists. */
export function toPage<R, T>(rows: R[], limit: number, key: (r: R) => { at: Date; id: string }, map: (r: R) => T): Page<T> {
  const more = rows.length > limit;
  const slice = more ? rows.slice(0, limit) : rows;
  const last = slice[slice.length - 1];
  return { items: slice.map(map), nextCursor: more && last ? encodeCursor(key(last).at, key(last).id) : null };
}

export const iso = (d: Date) => d.toISOString();
export const isoOrNull = (d: Date | null | undefined) => (d ? d.toISOString() : null);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids are UUIDs; anything else cannot name a row, and must not reach SQL as a uuid cast error. */
export const isUuid = (v: string) => UUID.test(v);

/** A page with each item mapped (rows to their wire form). */
export function mapPage<R, T>(page: Page<R>, map: (r: R) => T): Page<T> {
  return { items: page.items.map(map), nextCursor: page.nextCursor };
}
