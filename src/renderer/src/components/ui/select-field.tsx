import type { ReactNode } from 'react';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { FormField } from './form-field';
import { type SelectOption, Select } from './select';

/**
 * A Select bound to one field of a react-hook-form form, under its label, with the field's inline error.
 * `hint` may depend on the chosen value (e.g. what the chosen role may do).
 */
export function SelectField<T extends FieldValues, C, O>({
  control,
  name,
  label,
  options,
  hint,
  placeholder,
  className,
}: {
  control: Control<T, C, O>;
  name: FieldPath<T>;
  label: ReactNode;
  options: readonly SelectOption[];
  hint?: ReactNode | ((value: string) => ReactNode);
  placeholder?: string;
  className?: string;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <FormField
          label={label}
          error={fieldState.error?.message}
          hint={typeof hint === 'function' ? hint(field.value) : hint}
          className={className}
        >
          <Select value={field.value} onValueChange={field.onChange} placeholder={placeholder} options={options} />
        </FormField>
      )}
    />
  );
}
