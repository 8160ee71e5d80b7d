/**
 * Segment filters as SQL: the one place that turns them into conditions. Lists, previews and campaigns all
 * call these functions, so a segment means the same everywhere.
 *
 * Semantics (documented in the README):
 * - Filters combine with AND binding tighter than OR, as in SQL: `a AND b OR c AND d` is `(a AND b) OR (c AND d)`.
 *   Each filter's `conjuction` joins it to the filter before it; the first filter's conjuction is ignored.
 * - IS / IS_NOT are exact (case-sensitive) comparisons; an attribute value is compared in its format
 *   (`"42"` matches the number 42 of a number attribute, `"true"` a boolean). IS_NOT also matches contacts
 *   with no value.
 * - STARTS_WITH, END_WITH, CONTAINS and DOES_NOT_CONTAINS ignore case; DOES_NOT_CONTAINS matches empty values.
 * - IS_EMPTY: no value, or the empty text (tags: no tags). IS_NOT_EMPTY: the opposite.
 * - Columns: the contact's own name, phoneNumber, userId (WhatsApp user id), username (without its @: a value
 *   written `@maria` is read `maria`), email, country, city, tags (IS / IS_NOT: has / lacks the tag;
 *   text operators: over the tags joined by spaces) and createdAt (as its UTC date, YYYY-MM-DD, so STARTS_WITH
 *   "2026-11" is a month); optedOut (IS / IS_NOT "true" or "false", opted out of campaigns); any other
 *   column names an attribute of the workspace (by name, ignoring case).
 *
 * Every value reaches the database as a bound parameter; the SQL text itself depends only on the shape of the
 * filters. Index use: attribute IS goes through the jsonb_path_ops GIN index (`@>`), phoneNumber / name / email
 * STARTS_WITH through the prefix btrees, the workspace through every index's leading column.
 */
import { likeEscape } from './like';
import { bareUsername } from '../../shared/user-id';
import { type SQL, and, or, sql } from 'drizzle-orm';
import type { SegmentFilter } from '../../shared/schemas/entities';
import * as t from '../db/schema';
import { badRequest } from '../errors';

export interface SegmentAttribute {
  name: string;
  format: 'text' | 'number' | 'boolean';
}
/** The workspace's attributes keyed by lower-case name. */
export type AttributeIndex = Map<string, SegmentAttribute>;

export const contactColumns = ['name', 'phoneNumber', 'userId', 'username', 'email', 'country', 'city', 'tags', 'createdAt'] as const;
type ContactColumn = (typeof contactColumns)[number];
const isContactColumn = (c: string): c is ContactColumn => (contactColumns as readonly string[]).includes(c);

const c = t.contacts;
/** LIKE wildcards in a value match themselves. */

/** Columns the text operators work on, as SQL expressions. */
function textExpr(col: ContactColumn): SQL {
  switch (col) {
    case 'name':
      return sql`${c.name}`;
    case 'phoneNumber':
      return sql`${c.phoneNumber}`;
    case 'userId':
      return sql`${c.userId}`;
    case 'username':
      return sql`${c.username}`;
    case 'email':
      return sql`${c.email}`;
    case 'country':
      return sql`${c.country}`;
    case 'city':
      return sql`${c.city}`;
    case 'tags':
      return sql`array_to_string(${c.tags}, ' ')`;
    case 'createdAt':
      return sql`to_char(${c.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  }
}

/** The lower-cased form the prefix indexes are built on (phone numbers have no case: kept as is). */
function lowered(col: ContactColumn, e: SQL): SQL {
  return col === 'phoneNumber' ? e : sql`lower(${e})`;
}

function patternCondition(e: SQL, op: 'STARTS_WITH' | 'END_WITH' | 'CONTAINS' | 'DOES_NOT_CONTAINS', value: string, keepCase = false): SQL {
  const v = likeEscape(keepCase ? value : value.toLowerCase());
  switch (op) {
    case 'STARTS_WITH':
      return sql`${e} like ${`${v}%`}`;
    case 'END_WITH':
      return sql`${e} like ${`%${v}`}`;
    case 'CONTAINS':
      return sql`${e} like ${`%${v}%`}`;
    case 'DOES_NOT_CONTAINS':
      return sql`coalesce(${e}, '') not like ${`%${v}%`}`;
  }
}

function contactColumnCondition(col: ContactColumn, given: SegmentFilter): SQL {
  const e = textExpr(col);
  const f = col === 'username' ? { ...given, value: bareUsername(given.value) } : given;
  if (col === 'tags') {
    switch (f.operator) {
      case 'IS':
        return sql`${f.value} = any(${c.tags})`;
      case 'IS_NOT':
        return sql`not (${f.value} = any(${c.tags}))`;
      case 'IS_EMPTY':
        return sql`cardinality(${c.tags}) = 0`;
      case 'IS_NOT_EMPTY':
        return sql`cardinality(${c.tags}) > 0`;
      default:
        return patternCondition(sql`lower(${e})`, f.operator, f.value);
    }
  }
  switch (f.operator) {
    case 'IS':
      return sql`${e} = ${f.value}`;
    case 'IS_NOT':
      return sql`${e} is distinct from ${f.value}`;
    case 'IS_EMPTY':
      return sql`coalesce(${e}, '') = ''`;
    case 'IS_NOT_EMPTY':
      return sql`${e} <> ''`;
    default:
      return patternCondition(lowered(col, e), f.operator, f.value, col === 'phoneNumber');
  }
}

/** An attribute value in its format, for exact comparisons through the GIN index. */
function typedValue(attr: SegmentAttribute, value: string): string | number | boolean {
  if (attr.format === 'number') {
    const n = value.trim() === '' ? NaN : Number(value);
    if (!Number.isFinite(n)) throw badRequest(`Filter on ${attr.name}: "${value}" is not a number`);
    return n;
  }
  if (attr.format === 'boolean') {
    if (value !== 'true' && value !== 'false') throw badRequest(`Filter on ${attr.name}: use true or false`);
    return value === 'true';
  }
  return value;
}

function attributeCondition(attr: SegmentAttribute, f: SegmentFilter): SQL {
  const text = sql`(${c.attributes} ->> ${attr.name}::text)`;
  switch (f.operator) {
    case 'IS':
      return sql`${c.attributes} @> ${JSON.stringify({ [attr.name]: typedValue(attr, f.value) })}::jsonb`;
    case 'IS_NOT':
      return sql`not (${c.attributes} @> ${JSON.stringify({ [attr.name]: typedValue(attr, f.value) })}::jsonb)`;
    case 'IS_EMPTY':
      return sql`coalesce(${text}, '') = ''`;
    case 'IS_NOT_EMPTY':
      return sql`${text} <> ''`;
    default:
      return patternCondition(sql`lower(${text})`, f.operator, f.value);
  }
}

/** optedOut: whether the contact opted out of campaigns. */
function optedOutCondition(f: SegmentFilter): SQL {
  const yes = f.value === 'true';
  if ((f.operator !== 'IS' && f.operator !== 'IS_NOT') || (f.value !== 'true' && f.value !== 'false')) {
    throw badRequest('Filter on optedOut: use is or is not with true or false');
  }
  return (f.operator === 'IS') === yes ? sql`${c.optedOutAt} is not null` : sql`${c.optedOutAt} is null`;
}

/** One filter as a condition; unknown columns and values of the wrong format answer 400. */
export function filterCondition(f: SegmentFilter, attributes: AttributeIndex): SQL {
  if (isContactColumn(f.column)) return contactColumnCondition(f.column, f);
  if (f.column === 'optedOut') return optedOutCondition(f);
  const attr = attributes.get(f.column.toLowerCase());
  if (!attr) throw badRequest(`Unknown column: ${f.column}`);
  return attributeCondition(attr, f);
}

/** Checks every filter (column known, value in the attribute's format) without running anything. */
export function validateFilters(filters: SegmentFilter[], attributes: AttributeIndex): void {
  const problems: string[] = [];
  for (const f of filters) {
    try {
      filterCondition(f, attributes);
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  if (problems.length) throw badRequest([...new Set(problems)]);
}

/**
 * The filters as one condition, AND binding tighter than OR; undefined for no filters (everyone).
 * Not scoped by workspace: `segmentWhere` adds that.
 */
export function compileFilters(filters: SegmentFilter[], attributes: AttributeIndex): SQL | undefined {
  if (filters.length === 0) return undefined;
  const groups: SQL[][] = [[]];
  filters.forEach((f, i) => {
    if (i > 0 && f.conjuction === 'OR') groups.push([]);
    groups[groups.length - 1].push(filterCondition(f, attributes));
  });
  const ands = groups.map((g) => (g.length === 1 ? g[0] : and(...g)!));
  return ands.length === 1 ? ands[0] : or(...ands);
}
