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
