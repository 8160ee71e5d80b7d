import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

/**
 * A table in a horizontally scrolling box. When the columns do not fit (1024 px screens), the box is a focusable
 * region (so keyboard users can scroll it), shows a thin scrollbar and a shadow on the side that has more, and
 * the row actions column (`<TH actions />`, `<TD actions>`) stays pinned to the right edge, always in reach.
 */
export function Table({ className, 'aria-label': label, ...props }: ComponentProps<'table'>) {
  return (
    <div className="scroll-cue-x w-full overflow-x-auto" role="region" aria-label={label} tabIndex={0}>
      <table className={cn('w-full border-collapse text-[13px]', className)} aria-label={label} {...props} />
    </div>
  );
}
export function THead({ className, ...props }: ComponentProps<'thead'>) {
  return <thead className={cn('border-b border-border bg-subtle', className)} {...props} />;
}
export function TBody({ className, ...props }: ComponentProps<'tbody'>) {
  return <tbody className={cn('divide-y divide-border', className)} {...props} />;
}
export function TR({ className, ...props }: ComponentProps<'tr'>) {
  return <tr className={cn('group/row transition-colors hover:bg-subtle', className)} {...props} />;
}

const pinned = 'sticky right-0 w-12 shadow-[-10px_0_10px_-8px_rgb(0_0_0/0.25)]';

/** `actions`: the row actions column; its header is named for screen readers and the column stays in view. */
export function TH({ className, actions, children, ...props }: ComponentProps<'th'> & { actions?: boolean }) {
  return (
    <th
      scope="col"
      className={cn(
        'h-8 px-3 text-left text-[11px] xl:px-4 font-medium tracking-wide whitespace-nowrap text-fg-subtle uppercase',
        actions && cn(pinned, 'bg-subtle'),
        className,
      )}
      {...props}
    >
      {actions ? <span className="sr-only">Actions</span> : children}
    </th>
  );
}
export function TD({ className, actions, ...props }: ComponentProps<'td'> & { actions?: boolean }) {
  return (
    <td
      className={cn(
        'h-11 px-3 align-middle whitespace-nowrap text-fg xl:px-4',
        actions && cn(pinned, 'bg-surface px-2 group-hover/row:bg-subtle'),
        className,
      )}
      {...props}
    />
  );
}
