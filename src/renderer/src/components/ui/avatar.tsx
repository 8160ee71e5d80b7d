import { cn } from '../../lib/cn';

const palette = ['bg-emerald-600', 'bg-sky-600', 'bg-violet-600', 'bg-amber-600', 'bg-rose-600', 'bg-teal-600', 'bg-indigo-600'];

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
