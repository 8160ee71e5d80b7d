/** The contact search shared by the contact list and the live-chat conversation search. */
import { type SQL, or, sql } from 'drizzle-orm';
import { getCountryCallingCode, type CountryCode } from 'libphonenumber-js/min';
import * as t from '../db/schema';
import { likeEscape } from './like';
import { bareUsername, isUserId } from '../../shared/user-id';

/**
 * Contact search: prefix matches (ignoring case) on the name or the e-mail address, or every word of the
 * search among the words of the name ("archer" finds "Alice Archer", "archer alice" too); input that looks like
 * a phone number matches numbers starting with it, written with its country code or in the workspace's
 * national form. A WhatsApp username matches by prefix (`@mar` or `mar` finds @maria), a whole user id
 * (`US.13491208655302741918`, its country letters in any case) exactly. Prefixes run on btree indexes (the
 * username's is partial: only contacts with one), a user id on its unique index, and words on the name_words GIN
 * index, whose element statistics keep the planner's estimates right, so a search stays fast at a million contacts.
 */
/** How many digits a search has when it looks like a phone number (0 otherwise). */
export function phoneDigits(search: string): number {
  const digits = search.trim().replace(/[\s().-]/g, '');
  return /^\+?\d{2,}$/.test(digits) ? digits.replace(/^\+/, '').length : 0;
}

/** A search's words as contacts.name_words holds them (same separators as its generated column). */
export const nameWordsOf = (search: string): string[] =>
  search
    .trim()
    .toLowerCase()
    .split(/[\s,.;:()"/-]+/)
    .filter((w) => w !== '');

export function searchCondition(search: string, defaultCountry: string): SQL | undefined {
  const q = search.trim().toLowerCase();
  if (!q) return undefined;
  const c = t.contacts;
  const conds: SQL[] = [sql`lower(${c.name}) like ${`${likeEscape(q)}%`}`, sql`lower(${c.email}) like ${`${likeEscape(q)}%`}`];
  const username = bareUsername(q);
  // `username is not null` lets the planner use the partial index.
  if (username) conds.push(sql`(${c.username} is not null and lower(${c.username}) like ${`${likeEscape(username)}%`})`);
  const typed = search.trim();
  const userId = typed.replace(/^[a-z]{2}\.(ent\.)?/i, (prefix) => prefix.toUpperCase());
  if (isUserId(userId)) conds.push(sql`${c.userId} = ${userId}`);
  const words = nameWordsOf(q);
  if (words.length > 0) conds.push(sql`${c.nameWords} @> ${sql.param(words)}::text[]`);
  const digits = q.replace(/[\s().-]/g, '');
  if (/^\+?\d{2,}$/.test(digits)) {
    const bare = digits.replace(/^\+/, '');
    conds.push(sql`${c.phoneNumber} like ${`+${bare}%`}`);
    if (!digits.startsWith('+')) {
      let code: string | undefined;
      try {
        code = getCountryCallingCode(defaultCountry as CountryCode);
      } catch {
        code = undefined;
      }
      if (code) conds.push(sql`${c.phoneNumber} like ${`+${code}${bare.replace(/^0+/, '')}%`}`);
    }
  }
  return or(...conds);
}
