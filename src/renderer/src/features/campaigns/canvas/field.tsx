import { type ReactElement, type ReactNode, cloneElement, useId } from 'react';

/** A compact labelled field for node cards: label, one control, an inline error in the spec's words. */
export function NodeField({ label, error, hint, children }: { label: string; error?: string | null; hint?: ReactNode; children: ReactElement<Record<string, unknown>> }) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-fg">
        {label}
      </label>
      {cloneElement(children, { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? errorId : undefined })}
      {error ? (
        <p id={errorId} className="text-[11px] text-danger">
          {error}
        </p>
      ) : (
        hint && <p className="text-[11px] text-fg-subtle">{hint}</p>
      )}
    </div>
  );
}
