const dateFmt = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
const dateTimeFmt = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : dateFmt.format(d);
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : dateTimeFmt.format(d);
}

const countFmt = new Intl.NumberFormat('en-US');
const pluralRules = new Intl.PluralRules('en-US');

/** "1 step", "3 steps", "1,204 contacts" (`many` when the plural is not the noun plus "s"). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${countFmt.format(n)} ${pluralRules.select(n) === 'one' ? one : many}`;
}
