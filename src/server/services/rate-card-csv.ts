/**
 * Reads a rate card as Meta publishes it (CSV: market, currency, marketing, utility, authentication; other
 * columns ignored) with csv-parse. A market is a country, by ISO code ("BR") or English name ("Brazil"), or
 * "Other" for every country without a row; Meta's regional rows ("Rest of Africa") name no country and are
 * listed as ignored. A bad cell refuses the whole file, naming its line.
 */
import { parse } from 'csv-parse/sync';
import { getCountries } from 'libphonenumber-js';
import type { RateCardRate } from '../../shared/schemas/entities';
import { badRequest } from '../errors';

const required = ['market', 'currency', 'marketing', 'utility', 'authentication'] as const;
const defaultMarkets = new Set(['other', 'others', 'default', 'rest of world', '*']);

/** Country codes by lower-case ISO code and English name. */
const countryByName: Map<string, string> = (() => {
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  const m = new Map<string, string>();
  for (const code of getCountries()) {
    m.set(code.toLowerCase(), code);
    const name = names.of(code);
    if (name) m.set(name.toLowerCase(), code);
  }
  return m;
})();

/** A price cell: empty or "n/a" is no price; otherwise a number with a decimal point (a currency sign before it allowed). */
function priceOf(cell: string, column: string, line: number): number | null {
  const v = cell.trim();
  if (v === '' || /^(n\/a|na|-)$/i.test(v)) return null;
  const digits = v.replace(/^[^\d.-]+/, '');
  const n = Number(digits);
  if (digits === '' || !Number.isFinite(n) || n < 0) throw badRequest(`Line ${line}: ${column} "${v}" is not a price`);
  return n;
}

function records(content: string): Record<string, string>[] {
  try {
    return parse(content, {
      bom: true,
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
    }) as Record<string, string>[];
  } catch (err) {
    throw badRequest(`The rate card is not a valid CSV file: ${(err as Error).message}`);
  }
}

export function parseRateCard(content: string): { rates: RateCardRate[]; ignoredMarkets: string[] } {
  const rows = records(content);
  const columns = rows.length > 0 ? Object.keys(rows[0]) : [];
  const missing = required.filter((c) => !columns.includes(c));
  if (rows.length === 0 || missing.length > 0) {
    throw badRequest(`The rate card needs a header and rows with the columns ${required.join(', ')}${missing.length ? ` (missing: ${missing.join(', ')})` : ''}`);
  }
  const rates: RateCardRate[] = [];
  const ignoredMarkets: string[] = [];
  const seen = new Set<string>();
  rows.forEach((r, i) => {
    const line = i + 2;
    const market = r.market ?? '';
    if (!market) throw badRequest(`Line ${line}: market is empty`);
    const key = market.toLowerCase();
    const country = defaultMarkets.has(key) ? null : countryByName.get(key);
    if (country === undefined) return void ignoredMarkets.push(market);
    const currency = (r.currency ?? '').toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency)) throw badRequest(`Line ${line}: currency "${r.currency ?? ''}" is not a three-letter code`);
    const id = country ?? '*';
    if (seen.has(id)) throw badRequest(`Line ${line}: market "${market}" appears twice`);
    seen.add(id);
    rates.push({
      market,
      country,
      currency,
      marketing: priceOf(r.marketing ?? '', 'marketing', line),
      utility: priceOf(r.utility ?? '', 'utility', line),
      authentication: priceOf(r.authentication ?? '', 'authentication', line),
    });
  });
  return { rates, ignoredMarkets };
}
