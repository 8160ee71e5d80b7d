/** Dates and times as an inbox shows them, in the user's locale and time zone. */

const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate());
const DAY = 24 * 60 * 60 * 1000;

export function dayKey(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()}`;
}

/** Whole calendar days between two dates (local time). */
function daysBetween(a: Date, b: Date): number {
  return Math.round((startOfDay(b).getTime() - startOfDay(a).getTime()) / DAY);
}

const timeFmt = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const weekdayFmt = new Intl.DateTimeFormat(undefined, { weekday: 'long' });
const shortWeekdayFmt = new Intl.DateTimeFormat(undefined, { weekday: 'short' });
const dateFmt = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
const shortDateFmt = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });
const fullFmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export const formatTime = (iso: string) => timeFmt.format(new Date(iso));
export const formatFull = (iso: string) => fullFmt.format(new Date(iso));

/** Day separator label: Today, Yesterday, a weekday within the week, else the date. */
export function formatDay(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  const days = daysBetween(d, now);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  if (days > 1 && days < 7) return weekdayFmt.format(d);
  return dateFmt.format(d);
}

/** List timestamp: time today, Yesterday, weekday within the week, else a short date. */
export function formatListTime(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  const days = daysBetween(d, now);
  if (days <= 0) return timeFmt.format(d);
  if (days === 1) return 'Yesterday';
  if (days < 7) return shortWeekdayFmt.format(d);
  return d.getFullYear() === now.getFullYear() ? shortDateFmt.format(d) : dateFmt.format(d);
}

/** "Waiting 5 min" / "2 h 10 min" / "3 d": how long the customer's last message has gone unanswered. */
export function formatWaiting(since: string | Date, now: Date = new Date()): string {
  const mins = Math.max(0, Math.floor((now.getTime() - new Date(since).getTime()) / 60_000));
  if (mins < 1) return 'just now';
  if (mins < 60) return `${mins} min`;
  const hours = Math.floor(mins / 60);
  if (hours < 24) return mins % 60 ? `${hours} h ${mins % 60} min` : `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}

/**
 * Since when the customer waits for an answer: their last message is the last one (a note answers nobody),
 * from the list entry's `waitingSince` or, for a message the event stream just placed, from the message itself.
 */
export function waitingSinceOf(entry: { waitingSince?: string | null; lastMessage: { creator: string; type: string; createdAt: string } | null }): string | null {
  const last = entry.lastMessage;
  if (!last) return entry.waitingSince ?? null;
  if (last.creator === 'user') return entry.waitingSince ?? last.createdAt;
  if (last.type === 'note') return entry.waitingSince ?? null;
  return null;
}
