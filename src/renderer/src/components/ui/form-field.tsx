import { Label } from 'radix-ui';
import { type ReactElement, type ReactNode, cloneElement, isValidElement, useId } from 'react';
import { cn } from '../../lib/cn';

interface FormFieldProps {
  label: ReactNode;
  /** The inline error of this field (react-hook-form's fieldState.error.message). */
  error?: string;
  hint?: ReactNode;
  className?: string;
  /** One control; it gets id, aria-invalid and aria-describedby. */
  children: ReactElement<Record<string, unknown>>;
  optional?: boolean;
}

/** Label + control + hint + inline error, wired for screen readers. */
export function FormField({ label, error, hint, className, children, optional }: FormFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  const control = isValidElement(children)
    ? cloneElement(children, {
        id: (children.props.id as string | undefined) ?? id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy,
      })
    : children;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <Label.Root htmlFor={(children.props.id as string | undefined) ?? id} className="text-[13px] font-medium text-fg">
        {label}
        {optional && <span className="ml-1 font-normal text-fg-subtle">(optional)</span>}
      </Label.Root>
      {control}
      {hint && !error && (
        <p id={hintId} className="text-xs text-fg-subtle">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="text-xs font-medium text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
