import { Loader2 } from 'lucide-react';
import { cn } from '../../lib/cn';

export function Spinner({ className, label }: { className?: string; label?: string }) {
  return (
    <Loader2
      className={cn('size-4 animate-spin text-fg-subtle', className)}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      role={label ? 'status' : undefined}
    />
  );
}

/** Full-area spinner with a line of text (e.g. 'Verifying user...'). */
/** The whole page while the app cannot show a screen yet ('Verifying user...'): still a main landmark. */
export function FullPageSpinner({ text }: { text: string }) {
  return (
    <main className="flex h-full min-h-[60vh] items-center justify-center">
      <div className="flex flex-col items-center gap-3" role="status" aria-live="polite">
        <Loader2 className="size-6 animate-spin text-accent" aria-hidden />
        <p className="text-sm text-fg-muted">{text}</p>
      </div>
    </main>
  );
}
