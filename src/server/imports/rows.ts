/** One CSV row to a contact: phone normalised to E.164, known columns, attribute values in their formats. */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';

export const contactFields = ['phoneNumber', 'name', 'email', 'country', 'city'] as const;
export type ContactField = (typeof contactFields)[number];

export interface ColumnPlan {
  phone: number[];
  fields: { field: Exclude<ContactField, 'phoneNumber'>; index: number }[];
  attributes: { name: string; format: 'text' | 'number' | 'boolean'; index: number }[];
  width: number;
}

export interface ContactInput {
  phone: string;
  name: string | null;
  email: string | null;
  country: string | null;
  city: string | null;
  attributes: Record<string, string | number | boolean>;
}

export type RowOutcome = { ok: true; contact: ContactInput } | { ok: false; value: string; reason: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
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
  if (!raw) return { ok: false, value: '', reason: 'No phone number' };
  const phone = normalisePhone(raw, defaultCountry);
  if (!phone) return { ok: false, value: raw, reason: 'Not a valid phone number' };
  const contact: ContactInput = { phone, name: null, email: null, country: null, city: null, attributes: {} };
  for (const { field, index } of plan.fields) {
    const v = fields[index]?.trim();
    if (!v) continue;
    if (field === 'email' && !EMAIL.test(v)) return { ok: false, value: v, reason: 'Not a valid e-mail address' };
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
 * One chunk ready for the database: its contacts as columns (deduplicated by phone, later values win, attributes
 * merged) and its rejected rows. Built off the main thread by the reader worker, so the columns are already
 * PostgreSQL array literals (pg's own serialiser) and the thread that talks to the database only sends them.
 */
export interface PreparedChunk {
  /** Records of the file this chunk covers (contacts, duplicates and rejections). */
  rows: number;
  contacts: number;
  /** Rows that repeated a phone number seen earlier in the chunk (counted as updates). */
  duplicates: number;
  columns: { id: string; phone: string; name: string; email: string; country: string; city: string; attributes: string };
  rejected: { count: number; line: string; value: string; reason: string };
}

export function prepareChunk(results: RowResult[], newId: () => string, toArrayLiteral: (values: unknown[]) => string): PreparedChunk {
  const byPhone = new Map<string, ContactInput>();
  let duplicates = 0;
  const rejected: { line: number; value: string; reason: string }[] = [];
  for (const r of results) {
    if (!r.outcome.ok) {
      rejected.push({ line: r.line, value: r.outcome.value.slice(0, 500), reason: r.outcome.reason });
      continue;
    }
    const c = r.outcome.contact;
    const prev = byPhone.get(c.phone);
    if (prev) {
      duplicates++;
      byPhone.set(c.phone, {
        phone: c.phone,
        name: c.name ?? prev.name,
        email: c.email ?? prev.email,
        country: c.country ?? prev.country,
        city: c.city ?? prev.city,
        attributes: { ...prev.attributes, ...c.attributes },
      });
    } else byPhone.set(c.phone, c);
  }
  const contacts = [...byPhone.values()];
  return {
    rows: results.length,
    contacts: contacts.length,
    duplicates,
    columns: {
      id: toArrayLiteral(contacts.map(() => newId())),
      phone: toArrayLiteral(contacts.map((c) => c.phone)),
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
