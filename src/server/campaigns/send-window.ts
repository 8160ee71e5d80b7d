/**
 * Send windows (quiet hours): a daily window in each recipient's own time zone. A send that
 * falls due outside it is due at the window's next start. Pure: the clock comes in as `now`.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { SendWindow } from '../../shared/schemas/campaign-canvas';

/**
 * One time zone per country for the countries where most WhatsApp Business senders' customers live (the most
 * populous zone of countries with several). A recipient's own `timeZone` attribute wins; a country not listed
 * falls back to the workspace's time zone.
 */
const countryZones: Record<string, string> = {
  US: 'America/New_York', CA: 'America/Toronto', MX: 'America/Mexico_City', BR: 'America/Sao_Paulo', AR: 'America/Argentina/Buenos_Aires',
  CO: 'America/Bogota', CL: 'America/Santiago', PE: 'America/Lima', VE: 'America/Caracas', EC: 'America/Guayaquil',
  GB: 'Europe/London', IE: 'Europe/Dublin', FR: 'Europe/Paris', DE: 'Europe/Berlin', ES: 'Europe/Madrid', IT: 'Europe/Rome',
  PT: 'Europe/Lisbon', NL: 'Europe/Amsterdam', BE: 'Europe/Brussels', CH: 'Europe/Zurich', AT: 'Europe/Vienna', PL: 'Europe/Warsaw',
  SE: 'Europe/Stockholm', NO: 'Europe/Oslo', DK: 'Europe/Copenhagen', FI: 'Europe/Helsinki', GR: 'Europe/Athens', TR: 'Europe/Istanbul',
  RU: 'Europe/Moscow', UA: 'Europe/Kyiv', RO: 'Europe/Bucharest', CZ: 'Europe/Prague', HU: 'Europe/Budapest',
  IN: 'Asia/Kolkata', PK: 'Asia/Karachi', BD: 'Asia/Dhaka', ID: 'Asia/Jakarta', MY: 'Asia/Kuala_Lumpur', SG: 'Asia/Singapore',
  PH: 'Asia/Manila', TH: 'Asia/Bangkok', VN: 'Asia/Ho_Chi_Minh', CN: 'Asia/Shanghai', HK: 'Asia/Hong_Kong', JP: 'Asia/Tokyo',
  KR: 'Asia/Seoul', AE: 'Asia/Dubai', SA: 'Asia/Riyadh', QA: 'Asia/Qatar', KW: 'Asia/Kuwait', IL: 'Asia/Jerusalem',
  EG: 'Africa/Cairo', NG: 'Africa/Lagos', KE: 'Africa/Nairobi', ZA: 'Africa/Johannesburg', MA: 'Africa/Casablanca', GH: 'Africa/Accra',
  AU: 'Australia/Sydney', NZ: 'Pacific/Auckland',
};

export function isTimeZone(tz: unknown): tz is string {
  if (typeof tz !== 'string' || !tz) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The recipient's time zone: its `timeZone` attribute, else its phone number's country, else the workspace's. */
export function recipientTimeZone(contact: { phoneNumber: string | null; attributes: Record<string, unknown> }, workspaceZone: string): string {
  const own = contact.attributes.timeZone ?? contact.attributes.timezone ?? contact.attributes.time_zone;
  if (isTimeZone(own)) return own;
  const country = contact.phoneNumber ? parsePhoneNumberFromString(contact.phoneNumber)?.country : undefined;
  return (country && countryZones[country]) || workspaceZone;
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
