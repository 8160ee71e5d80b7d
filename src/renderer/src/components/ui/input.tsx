import { type ComponentProps, forwardRef } from 'react';
import { cn } from '../../lib/cn';

const field =
  'w-full rounded-md border border-border-strong bg-surface px-2.5 text-[13px] text-fg shadow-xs transition-colors placeholder:text-fg-subtle ' +
  'focus-visible:border-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent/50 ' +
  'disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-danger aria-invalid:focus-visible:ring-danger/20';

export const Input = forwardRef<HTMLInputElement, ComponentProps<'input'>>(function Input({ className, ...props }, ref) {
  return <input ref={ref} className={cn(field, 'h-8', className)} {...props} />;
});

export const Textarea = forwardRef<HTMLTextAreaElement, ComponentProps<'textarea'>>(function Textarea(
  { className, ...props },
  ref,
) {
  return <textarea ref={ref} className={cn(field, 'min-h-20 py-2 leading-relaxed', className)} {...props} />;
});

/** A plain <select> styled like the inputs: for compact in-row pickers where a popover is too heavy. */
export const NativeSelect = forwardRef<HTMLSelectElement, ComponentProps<'select'>>(function NativeSelect(
  { className, ...props },
  ref,
) {
  return <select ref={ref} className={cn(field, 'h-8 pr-7', className)} {...props} />;
});
