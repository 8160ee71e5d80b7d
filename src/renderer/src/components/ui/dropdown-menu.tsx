import { DropdownMenu as M } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

/**
 * Non-modal: a modal menu hides the rest of the page with aria-hidden while its focusable controls stay
 * focusable (axe aria-hidden-focus). The menu still traps arrow keys, closes on Escape and outside clicks, and
 * returns focus to its trigger.
 */
export function DropdownMenu({ modal = false, ...props }: ComponentProps<typeof M.Root>) {
  return <M.Root modal={modal} {...props} />;
}
export const DropdownMenuTrigger = M.Trigger;

export function DropdownMenuContent({ className, sideOffset = 6, ...props }: ComponentProps<typeof M.Content>) {
  return (
    <M.Portal>
      <M.Content
        sideOffset={sideOffset}
        className={cn(
          'z-50 min-w-48 overflow-hidden rounded-lg border border-border bg-surface p-1 text-[13px] text-fg shadow-lg',
          className,
        )}
        {...props}
      />
    </M.Portal>
  );
}

const item =
  'relative flex h-8 cursor-default items-center gap-2 rounded-md px-2 outline-none select-none data-[disabled]:opacity-50 data-[highlighted]:bg-muted [&_svg]:size-4 [&_svg]:text-fg-muted';

export function DropdownMenuItem({ className, danger, ...props }: ComponentProps<typeof M.Item> & { danger?: boolean }) {
  return <M.Item className={cn(item, danger && 'text-danger [&_svg]:text-danger', className)} {...props} />;
}

export function DropdownMenuLabel({ className, ...props }: ComponentProps<typeof M.Label>) {
  return <M.Label className={cn('px-2 py-1.5 text-[11px] font-medium text-fg-subtle uppercase', className)} {...props} />;
}

export function DropdownMenuSeparator({ className, ...props }: ComponentProps<typeof M.Separator>) {
  return <M.Separator className={cn('-mx-1 my-1 h-px bg-border', className)} {...props} />;
}
