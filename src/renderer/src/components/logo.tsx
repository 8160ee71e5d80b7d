import { cn } from '../lib/cn';

/** Parley's mark: a speech bubble in WhatsApp green. */
export function Logo({ className, withName = true, nameClassName }: { className?: string; withName?: boolean; nameClassName?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-semibold tracking-tight text-fg', className)}>
      <svg viewBox="0 0 32 32" className="size-6" aria-hidden>
        <rect width="32" height="32" rx="8" fill="var(--accent)" />
        <path
          d="M9 11.5c0-1.4 1.1-2.5 2.5-2.5h9c1.4 0 2.5 1.1 2.5 2.5v6c0 1.4-1.1 2.5-2.5 2.5H15l-4 3v-3h0.5C10.1 20 9 18.9 9 17.5z"
          fill="white"
        />
      </svg>
      {withName && <span className={cn('text-[15px]', nameClassName)}>Parley</span>}
    </span>
  );
}
