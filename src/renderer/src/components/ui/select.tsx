import { Select as S } from 'radix-ui';
import { Check, ChevronDown } from 'lucide-react';
import { forwardRef } from 'react';
import { cn } from '../../lib/cn';

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface SelectProps {
  value?: string;
  onValueChange?: (value: string) => void;
  options: readonly SelectOption[];
  placeholder?: string;
  id?: string;
  name?: string;
  disabled?: boolean;
  className?: string;
  'aria-label'?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  onBlur?: () => void;
}

/** A listbox on Radix Select (keyboard, typeahead, screen readers). */
export const Select = forwardRef<HTMLButtonElement, SelectProps>(function Select(
  { value, onValueChange, options, placeholder = 'Select...', className, disabled, name, onBlur, ...aria },
  ref,
) {
  return (
    <S.Root value={value || undefined} onValueChange={onValueChange} disabled={disabled} name={name}>
      <S.Trigger
        ref={ref}
        onBlur={onBlur}
        className={cn(
          'flex h-8 w-full items-center justify-between gap-2 rounded-md border border-border-strong bg-surface px-2.5 text-left text-[13px] text-fg shadow-xs',
          'focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-accent/50 focus-visible:outline-none',
          'disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-danger data-[placeholder]:text-fg-subtle',
          className,
        )}
        {...aria}
      >
        <S.Value placeholder={placeholder} />
        <S.Icon>
          <ChevronDown className="size-4 text-fg-subtle" aria-hidden />
        </S.Icon>
      </S.Trigger>
      <S.Portal>
        <S.Content
          position="popper"
          sideOffset={4}
          className="z-50 max-h-72 min-w-(--radix-select-trigger-width) overflow-hidden rounded-lg border border-border bg-surface p-1 text-[13px] text-fg shadow-lg"
        >
          <S.Viewport>
            {options.map((o) => (
              <S.Item
                key={o.value}
                value={o.value}
                disabled={o.disabled}
                className="relative flex h-8 cursor-default items-center rounded-md pr-2 pl-7 outline-none select-none data-[disabled]:opacity-50 data-[highlighted]:bg-muted"
              >
                <S.ItemIndicator className="absolute left-2 flex items-center">
                  <Check className="size-3.5 text-accent" aria-hidden />
                </S.ItemIndicator>
                <S.ItemText>{o.label}</S.ItemText>
              </S.Item>
            ))}
          </S.Viewport>
        </S.Content>
      </S.Portal>
    </S.Root>
  );
});
