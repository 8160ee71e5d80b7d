/**
 * One CSV row to a contact: phone normalised to E.164, WhatsApp user id checked, known columns, attribute values
 * in their formats. A row names its customer by a phone number, a user id, or both.
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import { bareUsername, isUserId } from '../../shared/user-id';
import type { ContactColumns } from '../repositories/imports';

export const contactFields = ['phoneNumber', 'userId', 'username', 'name', 'email', 'country', 'city'] as const;
export type ContactField = (typeof contactFields)[number];

export interface ColumnPlan {
  phone: number[];
  /** The column of WhatsApp user ids (`US.13491208655302741918`), when the file has one. */
  userId?: number;
  fields: { field: Exclude<ContactField, 'phoneNumber' | 'userId'>; index: number }[];
  attributes: { name: string; format: 'text' | 'number' | 'boolean'; index: number }[];
  width: number;
}

export interface ContactInput {
  phone: string | null;
  userId: string | null;
  username: string | null;
  name: string | null;
  email: string | null;
  country: string | null;
  city: string | null;
  attributes: Record<string, string | number | boolean>;
}

export type RowOutcome = { ok: true; contact: ContactInput } | { ok: false; value: string; reason: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const invalidUserIdReason = 'Not a valid WhatsApp user id (two capital letters, a dot and letters or digits, as US.13491208655302741918)';
const invalidUsernameReason = 'Not a valid WhatsApp username (no spaces)';
const TRUE = new Set(['true', 'yes', '1', 'y']);
const FALSE = new Set(['false', 'no', '0', 'n']);

/** E.164 for a number as people write it: with +, with 00, or national in the default country. */
export function normalisePhone(raw: string, defaultCountry: string): string | null {
  let v = raw.trim();
  if (v.startsWith('00')) v = `+${v.slice(2)}`;
  const p = parsePhoneNumberFromString(v, defaultCountry as CountryCode);
  return p && p.isValid() ? p.number : null;
}

export function rowToContact(fields: string[], plan: ColumnPlan, defaultCountry: string): RowOutcome {
  if (fields.length !== plan.width) {
    return { ok: false, value: fields.join(',').slice(0, 200), reason: `Expected ${plan.width} fields as in the header, found ${fields.length}` };
  }
  let raw = '';
  for (const i of plan.phone) {
    if (fields[i]?.trim()) {
      raw = fields[i].trim();
      break;
    }
  }
  const userId = plan.userId === undefined ? '' : (fields[plan.userId]?.trim() ?? '');
  if (!raw && !userId) return { ok: false, value: '', reason: plan.userId === undefined ? 'No phone number' : 'No phone number or WhatsApp user id' };
  if (userId && !isUserId(userId)) return { ok: false, value: userId, reason: invalidUserIdReason };
  const phone = raw ? normalisePhone(raw, defaultCountry) : null;
  if (raw && !phone) return { ok: false, value: raw, reason: 'Not a valid phone number' };
  const contact: ContactInput = { phone, userId: userId || null, username: null, name: null, email: null, country: null, city: null, attributes: {} };
  for (const { field, index } of plan.fields) {
    const v = fields[index]?.trim();
    if (!v) continue;
    if (field === 'email' && !EMAIL.test(v)) return { ok: false, value: v, reason: 'Not a valid e-mail address' };
    if (field === 'username') {
      const name = bareUsername(v);
      if (!name || /\s/.test(name)) return { ok: false, value: v, reason: invalidUsernameReason };
      contact.username = name.slice(0, 100);
      continue;
    }
    contact[field] = v.slice(0, 500);
  }
  for (const { name, format, index } of plan.attributes) {
    const v = fields[index]?.trim();
    if (!v) continue;
    if (format === 'number') {
      const n = Number(v.replace(/,/g, ''));
      if (!Number.isFinite(n)) return { ok: false, value: v, reason: `${name} must be a number` };
      contact.attributes[name] = n;
    } else if (format === 'boolean') {
      const l = v.toLowerCase();
      if (TRUE.has(l)) contact.attributes[name] = true;
      else if (FALSE.has(l)) contact.attributes[name] = false;
      else return { ok: false, value: v, reason: `${name} must be true or false` };
    } else {
      contact.attributes[name] = v.slice(0, 2000);
    }
  }
  return { ok: true, contact };
}

/** A record as read from the file: its spreadsheet row number and what it became. */
export interface RowResult {
  line: number;
  outcome: RowOutcome;
}

/**
 * One chunk ready for the database: its contacts as columns (deduplicated by user id and by phone, later values
 * win, attributes merged) and its rejected rows. Built off the main thread by the reader worker, so the columns
 * are already PostgreSQL array literals (pg's own serialiser) and the thread that talks to the database only
 * sends them. `byUserId` says the chunk names some customer by user id, so it needs the two-key upsert.
 */
export interface PreparedChunk {
  /** Records of the file this chunk covers (contacts, duplicates and rejections). */
  rows: number;
  contacts: number;
  /** Rows that repeated a phone number or user id seen earlier in the chunk (counted as updates). */
  duplicates: number;
  byUserId: boolean;
  columns: ContactColumns;
  rejected: { count: number; line: string; value: string; reason: string };
}

/**
 * Merges a row into the chunk's contacts: a row whose user id or phone an earlier row named updates that
 * contact (later values win) and fills in the identity it lacks, unless another row of the chunk holds it; so
 * each phone number and each user id is on one contact of the chunk at most, as the upsert needs.
 */
function mergeRow(byUserId: Map<string, ContactInput>, byPhone: Map<string, ContactInput>, c: ContactInput): ContactInput | null {
  const prev = (c.userId ? byUserId.get(c.userId) : undefined) ?? (c.phone ? byPhone.get(c.phone) : undefined);
  if (!prev) {
    const entry = { ...c, attributes: { ...c.attributes } };
    if (entry.userId) byUserId.set(entry.userId, entry);
    if (entry.phone) byPhone.set(entry.phone, entry);
    return entry;
  }
  if (!prev.userId && c.userId && !byUserId.has(c.userId)) byUserId.set((prev.userId = c.userId), prev);
  if (!prev.phone && c.phone && !byPhone.has(c.phone)) byPhone.set((prev.phone = c.phone), prev);
  for (const f of ['username', 'name', 'email', 'country', 'city'] as const) prev[f] = c[f] ?? prev[f];
  Object.assign(prev.attributes, c.attributes);
  return null;
}

export function prepareChunk(results: RowResult[], newId: () => string, toArrayLiteral: (values: unknown[]) => string): PreparedChunk {
  const byUserId = new Map<string, ContactInput>();
  const byPhone = new Map<string, ContactInput>();
  const contacts: ContactInput[] = [];
  let duplicates = 0;
  const rejected: { line: number; value: string; reason: string }[] = [];
  for (const r of results) {
    if (!r.outcome.ok) {
      rejected.push({ line: r.line, value: r.outcome.value.slice(0, 500), reason: r.outcome.reason });
      continue;
    }
    const created = mergeRow(byUserId, byPhone, r.outcome.contact);
    if (created) contacts.push(created);
    else duplicates++;
  }
  return {
    rows: results.length,
    contacts: contacts.length,
    duplicates,
    byUserId: byUserId.size > 0,
    columns: {
      id: toArrayLiteral(contacts.map(() => newId())),
      phone: toArrayLiteral(contacts.map((c) => c.phone)),
      userId: toArrayLiteral(contacts.map((c) => c.userId)),
      username: toArrayLiteral(contacts.map((c) => c.username)),
      name: toArrayLiteral(contacts.map((c) => c.name)),
      email: toArrayLiteral(contacts.map((c) => c.email)),
      country: toArrayLiteral(contacts.map((c) => c.country)),
      city: toArrayLiteral(contacts.map((c) => c.city)),
      attributes: toArrayLiteral(contacts.map((c) => JSON.stringify(c.attributes))),
    },
    rejected: {
      count: rejected.length,
      line: toArrayLiteral(rejected.map((r) => r.line)),
      value: toArrayLiteral(rejected.map((r) => r.value)),
      reason: toArrayLiteral(rejected.map((r) => r.reason)),
    },
  };
}
