import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { errorText } from '../../lib/api-client';
import { cn } from '../../lib/cn';
import { Button } from './button';

export function EmptyState({
  icon: Icon,
  title,
  description,
  action,
  className,
  headingLevel: Heading = 'h2',
}: {
  icon?: LucideIcon;
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  className?: string;
  /** h2 under a screen's h1 (the default); h3 inside a section that has its own h2. */
  headingLevel?: 'h2' | 'h3';
}) {
  return (
    <div className={cn('flex flex-col items-center justify-center px-6 py-14 text-center', className)}>
      {Icon && (
        <div className="mb-3 flex size-10 items-center justify-center rounded-lg border border-border bg-subtle text-fg-muted">
          <Icon className="size-5" aria-hidden />
        </div>
      )}
      <Heading className="text-sm font-semibold text-fg">{title}</Heading>
      {description && <p className="mt-1 max-w-sm text-[13px] text-fg-muted">{description}</p>}
      {action && <div className="mt-4">{action}</div>}
    </div>
  );
}

/** What could not be loaded, why, and a button to ask again. */
export function LoadErrorState({ title, error, onRetry }: { title: string; error: unknown; onRetry: () => void }) {
  return (
    <EmptyState
      title={title}
      description={errorText(error)}
      action={
        <Button variant="secondary" onClick={onRetry}>
          Try again
        </Button>
      }
    />
  );
}
