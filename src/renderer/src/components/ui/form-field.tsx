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
  /** A small control on the label's line (e.g. "{} Variable"): beside the label, never over it. */
  action?: ReactNode;
}

/** Label + control + hint + inline error, wired for screen readers. */
export function FormField({ label, error, hint, className, children, optional, action }: FormFieldProps) {
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
  const labelText = (
    <Label.Root htmlFor={(children.props.id as string | undefined) ?? id} className="min-w-0 text-[13px] font-medium text-fg">
      {label}
      {optional && <span className="ml-1 font-normal text-fg-subtle">(optional)</span>}
    </Label.Root>
  );
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      {action ? (
        // A long label wraps beside the action rather than running under it.
        <div className="flex items-start justify-between gap-2">
          {labelText}
          <div className="shrink-0">{action}</div>
        </div>
      ) : (
        labelText
      )}
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
