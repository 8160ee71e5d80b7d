/**
 * The import wizard's column mapping: each CSV column goes to phoneNumber, userId (WhatsApp user id), username, name,
 * email, country, city, an attribute, or is skipped. Checked with the shared CreateImportBody rule (a phone number
 * or user id column: 'At least one column must be mapped to phoneNumber').
 */
import { z } from 'zod';
import { CreateImportBody } from '@shared/schemas/requests';

export const SKIP = '';
export const builtInTargets = [
  { value: 'phoneNumber', label: 'Phone number' },
  { value: 'userId', label: 'WhatsApp user ID' },
  { value: 'username', label: 'WhatsApp username' },
  { value: 'name', label: 'Name' },
  { value: 'email', label: 'E-mail' },
  { value: 'country', label: 'Country' },
  { value: 'city', label: 'City' },
] as const;

/** How a target reads in the UI ("Phone number", not phoneNumber; attributes by their own name). */
export function targetLabel(target: string): string {
  return builtInTargets.find((t) => t.value === target)?.label ?? target;
}

export type ColumnMapping = Record<string, string>;

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** A first guess from the column names (the user checks and changes it). */
export function guessMapping(columns: readonly string[], attributeNames: readonly string[]): ColumnMapping {
  const used = new Set<string>();
  const out: ColumnMapping = {};
  for (const col of columns) {
    const n = norm(col);
    let target: string = SKIP;
    if (/^(phone|phonenumber|mobile|mobilenumber|whatsapp|whatsappnumber|msisdn|tel|telephone|cell|number)$/.test(n)) target = 'phoneNumber';
    else if (/^(userid|whatsappuserid|bsuid|businessscopeduserid)$/.test(n)) target = 'userId';
    else if (/^(username|whatsappusername|handle)$/.test(n)) target = 'username';
    else if (/^(name|fullname|contactname|customername|firstname)$/.test(n)) target = 'name';
    else if (/^(email|emailaddress|mail)$/.test(n)) target = 'email';
    else if (/^(country|countrycode|nation)$/.test(n)) target = 'country';
    else if (/^(city|town)$/.test(n)) target = 'city';
    else target = attributeNames.find((a) => norm(a) === n) ?? SKIP;
    if (target !== SKIP && used.has(target)) target = SKIP;
    if (target !== SKIP) used.add(target);
    out[col] = target;
  }
  return out;
}

/** The request's columnAttributeMap: every column, `attribute: null` when skipped. */
export function toColumnAttributeMap(columns: readonly string[], mapping: ColumnMapping) {
  return columns.map((columnName) => ({ columnName, attribute: mapping[columnName] ? mapping[columnName] : null }));
}

/** What is wrong with a mapping, in the words the user sees (empty when it can be imported). */
export function mappingErrors(columns: readonly string[], mapping: ColumnMapping): string[] {
  const errors: string[] = [];
  const parsed = z
    .object({ columnAttributeMap: CreateImportBody.shape.columnAttributeMap })
    .safeParse({ columnAttributeMap: toColumnAttributeMap(columns, mapping) });
  if (!parsed.success) errors.push(...parsed.error.issues.map((i) => i.message));
  const seen = new Map<string, string>();
  for (const col of columns) {
    const t = mapping[col];
    if (!t) continue;
    if (seen.has(t)) errors.push(`Columns “${seen.get(t)}” and “${col}” are both mapped to ${targetLabel(t)}`);
    else seen.set(t, col);
  }
  return errors;
}

