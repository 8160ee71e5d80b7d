import { cn } from '../../lib/cn';

// The 700 shades: white initials reach 4.5:1 on each (the 600 shades of amber, teal and emerald do not).
const palette = ['bg-emerald-700', 'bg-sky-700', 'bg-violet-700', 'bg-amber-700', 'bg-rose-700', 'bg-teal-700', 'bg-indigo-700'];

export function initialsOf(name: string | null | undefined): string {
  const parts = (name ?? '').trim().split(/[\s@._-]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '?') + (parts[1]?.[0] ?? '')).toUpperCase();
}

/** A photo, or initials on a colour picked from the name. */
export function Avatar({ name, src, className }: { name: string | null | undefined; src?: string | null; className?: string }) {
  const seed = [...(name ?? '?')].reduce((a, c) => a + c.charCodeAt(0), 0);
  if (src) return <img src={src} alt="" className={cn('size-7 shrink-0 rounded-full object-cover', className)} />;
  return (
    <span
      aria-hidden
      className={cn(
        'inline-flex size-7 shrink-0 items-center justify-center rounded-full text-[11px] font-semibold text-white',
        palette[seed % palette.length],
        className,
      )}
    >
      {initialsOf(name)}
    </span>
  );
}
