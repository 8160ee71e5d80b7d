import { Tooltip as T } from 'radix-ui';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

/**
 * A short label shown on hover and keyboard focus of its single child (which must be focusable or hoverable).
 * `className` styles the bubble, e.g. `xl:hidden` where the label is already on screen at that width.
 */
export function Tooltip({
  content,
  children,
  side = 'right',
  className,
}: {
  content: ReactNode;
  children: ReactNode;
  side?: 'top' | 'right' | 'bottom' | 'left';
  className?: string;
}) {
  return (
    <T.Provider delayDuration={300}>
      <T.Root>
        <T.Trigger asChild>{children}</T.Trigger>
        <T.Portal>
          <T.Content
            side={side}
            sideOffset={6}
            className={cn('z-50 rounded-md bg-fg px-2 py-1 text-[12px] font-medium text-bg shadow-md', className)}
          >
            {content}
          </T.Content>
        </T.Portal>
      </T.Root>
    </T.Provider>
  );
}

/**
 * Text that ends in an ellipsis when its box is too narrow; the whole text stays in the DOM (screen readers get
 * all of it) and in a native tooltip. Give the parent `min-w-0` in a flex row so this can shrink.
 */
export function TruncatedText({ text, className, as: As = 'span' }: { text: string; className?: string; as?: 'span' | 'h1' | 'h2' | 'p' }) {
  return (
    <As className={cn('block min-w-0 truncate', className)} title={text}>
      {text}
    </As>
  );
}
