/**
 * Send windows (quiet hours): a daily window in each recipient's own time zone. A send that
 * falls due outside it is due at the window's next start. The clock comes in as `now`.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { SendWindow } from '../../shared/schemas/campaign-canvas';
import { phoneAreaZones } from './phone-time-zones';

export function isTimeZone(tz: unknown): tz is string {
  if (typeof tz !== 'string' || !tz) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The contact attribute that holds its own IANA zone, in the spellings a sender's import may use (first wins). */
export const timeZoneAttributeNames = ['timeZone', 'timezone', 'time_zone'] as const;

/**
 * One zone of the several a number's area spans (a toll-free or unplaced range): the workspace's when it is
 * among them (the sender's own customers), else the first in the table's (alphabetical) order.
 */
export function pickZone(zones: string[], workspaceZone: string): string | null {
  const known = zones.filter(isTimeZone);
  if (known.includes(workspaceZone)) return workspaceZone;
  return known[0] ?? null;
}

/**
 * The recipient's time zone: its `timeZone` attribute (an IANA zone; anything else is ignored), else its phone
 * number's area (libphonenumber's time zone table, so a California number is in Los Angeles, a New York one in
 * New York), else the workspace's (no phone, as a contact known by a user id only, or an area without a zone).
 */
export async function recipientTimeZone(contact: { phoneNumber: string | null; attributes: Record<string, unknown> }, workspaceZone: string): Promise<string> {
  const own = timeZoneAttributeNames.map((name) => contact.attributes[name]).find((v) => v !== undefined && v !== null);
  if (isTimeZone(own)) return own;
  const phone = contact.phoneNumber ? parsePhoneNumberFromString(contact.phoneNumber) : undefined;
  if (!phone) return workspaceZone;
  return pickZone(await phoneAreaZones(phone.number), workspaceZone) ?? workspaceZone;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Minutes since local midnight, in `timeZone`, of an instant. */
function localMinutes(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return get('hour') * 60 + get('minute');
}

function inWindow(minute: number, w: SendWindow): boolean {
  const start = minutesOf(w.start);
  const end = minutesOf(w.end);
  if (start === end) return true;
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

/**
 * When a send due at `due` may go: `due` itself inside the window, else the window's next start in the
 * recipient's zone (found minute-exact by stepping the local clock, so daylight-saving days are right).
 */
export function nextSendTime(due: Date, window: SendWindow | null | undefined, timeZone: string): Date {
  if (!window) return due;
  const minute = localMinutes(due, timeZone);
  if (inWindow(minute, window)) return due;
  const start = minutesOf(window.start);
  let wait = (start - minute + 1440) % 1440;
  // The zone's offset may change before the start (a DST night): correct by what the local clock then says.
  for (let i = 0; i < 3; i++) {
    const candidate = new Date(due.getTime() + wait * 60_000);
    const drift = localMinutes(candidate, timeZone) - start;
    if (drift === 0) break;
    wait -= drift;
  }
  const at = new Date(due.getTime() + wait * 60_000);
  at.setUTCSeconds(0, 0);
  // A start the local clock skips that night (02:30 when 02:00 jumps to 03:00) never shows: the first minute the
  // window holds instead, that night or the next (bounded: two days of minutes).
  for (let i = 0; i < 2 * 1440 && !inWindow(localMinutes(at, timeZone), window); i++) at.setTime(at.getTime() + 60_000);
  return at;
}
