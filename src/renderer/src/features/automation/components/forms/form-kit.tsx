/**
 * Shared parts of the node forms: a react-hook-form bound to the kind's shared zod schema that writes every
 * change into the canvas store (drafts keep unfinished nodes; the form shows what is still missing), text
 * fields with a `{{attribute}}` picker, attribute and member pickers. Inputs carry `nodrag` so typing or
 * selecting text never drags the canvas.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Braces } from 'lucide-react';
import { type ReactNode, useEffect, useRef } from 'react';
import {
  type Control,
  Controller,
  type FieldPath,
  type FieldValues,
  type UseFormReturn,
  get,
  useForm,
} from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '../../../../components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuTrigger } from '../../../../components/ui/dropdown-menu';
import { FormField } from '../../../../components/ui/form-field';
import { Input, NativeSelect, Textarea } from '../../../../components/ui/input';
import { memberName, useBotEditor } from '../../canvas/editor-context';

export const nodrag = 'nodrag nopan nowheel';

/**
 * A form over one node's data. Every edit is patched into the store at once (top-level keys only, so the
 * store's undo coalesces typing per field); a change made elsewhere (undo, redo) resets the form.
 */
export function useNodeForm<T extends FieldValues>(schema: z.ZodType<T>, data: T, onPatch: (patch: Partial<T>) => void): UseFormReturn<T> {
  const form = useForm<T>({
    // The shared schema of the kind: its limits and messages are the server's.
    resolver: zodResolver(schema as never) as never,
    mode: 'all',
    defaultValues: data as never,
  });
  const lastWritten = useRef(JSON.stringify(data));
  useEffect(() => {
    void form.trigger();
  }, [form]);
  useEffect(() => {
    const sub = form.watch((values, { name }) => {
      if (!name) return;
      const key = name.split('.')[0] as keyof T;
      const patch = { [key]: (values as T)[key] } as Partial<T>;
      lastWritten.current = JSON.stringify({ ...JSON.parse(lastWritten.current), ...patch });
      onPatch(patch);
    });
    return () => sub.unsubscribe();
  }, [form, onPatch]);
  useEffect(() => {
    const incoming = JSON.stringify(data);
    if (incoming !== lastWritten.current) {
      lastWritten.current = incoming;
      form.reset(data as never);
      void form.trigger();
    }
  }, [data, form]);
  return form;
}

export function errorOf(form: UseFormReturn<FieldValues>, name: string): string | undefined {
  return (get(form.formState.errors, name) as { message?: string } | undefined)?.message;
}

/** A text field (input or textarea) with a picker that inserts `{{attribute}}` where the cursor is. */
export function VariableTextField<T extends FieldValues>({
  control,
  name,
  label,
  multiline,
  optional,
  hint,
  placeholder,
}: {
  control: Control<T>;
  name: FieldPath<T>;
  label: ReactNode;
  multiline?: boolean;
  optional?: boolean;
  hint?: ReactNode;
  placeholder?: string;
}) {
  const ref = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const { attributes } = useBotEditor();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const value = (field.value as string | undefined) ?? '';
        const insert = (attributeName: string) => {
          const el = ref.current;
          const at = el?.selectionStart ?? value.length;
          const end = el?.selectionEnd ?? at;
          const token = `{{${attributeName}}}`;
          field.onChange(value.slice(0, at) + token + value.slice(end));
          requestAnimationFrame(() => {
            el?.focus();
            el?.setSelectionRange(at + token.length, at + token.length);
          });
        };
        const Control = multiline ? Textarea : Input;
        const picker = (
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button type="button" variant="ghost" size="sm" className="h-5 px-1.5 text-[11px]" aria-label={`Insert a variable into ${typeof label === 'string' ? label : name}`}>
                <Braces className="size-3" /> Variable
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end" className="max-h-72 overflow-y-auto">
              <DropdownMenuLabel>Insert attribute</DropdownMenuLabel>
              {attributes.length === 0 && <p className="px-2 py-1.5 text-xs text-fg-muted">No attributes yet (Settings, Attributes)</p>}
              {attributes.map((a) => (
                <DropdownMenuItem key={a.id} onSelect={() => insert(a.name)}>
                  {a.name}
                  <span className="ml-auto text-[11px] text-fg-subtle">{a.type === 'conversation' ? 'conversation' : a.format}</span>
                </DropdownMenuItem>
              ))}
            </DropdownMenuContent>
          </DropdownMenu>
        );
        return (
          // The picker sits on the label's line, beside it: a long label wraps instead of running under it.
          <FormField label={label} error={fieldState.error?.message} optional={optional} hint={hint} action={picker}>
            <Control
              ref={(el: HTMLInputElement & HTMLTextAreaElement) => {
                ref.current = el;
                field.ref(el);
              }}
              className={nodrag}
              name={field.name}
              value={value}
              placeholder={placeholder}
              onChange={(e) => field.onChange(e.target.value)}
              onBlur={field.onBlur}
            />
          </FormField>
        );
      }}
    />
  );
}

/** A plain text input of the form, registered, with its inline error. */
export function TextField<T extends FieldValues>({
  form,
  name,
  label,
  optional,
  hint,
  placeholder,
  type,
}: {
  form: UseFormReturn<T>;
  name: FieldPath<T>;
  label: ReactNode;
  optional?: boolean;
  hint?: ReactNode;
  placeholder?: string;
  type?: 'text' | 'url' | 'email';
}) {
  return (
    <FormField label={label} error={errorOf(form as never, name)} optional={optional} hint={hint}>
      <Input className={nodrag} type={type ?? 'text'} placeholder={placeholder} {...form.register(name)} />
    </FormField>
  );
}

/** A whole-number input whose empty value is "not set" (the schema's optional number). */
export function NumberField<T extends FieldValues>({
  form,
  name,
  label,
  hint,
}: {
  form: UseFormReturn<T>;
  name: FieldPath<T>;
  label: ReactNode;
  hint?: ReactNode;
}) {
  return (
    <FormField label={label} error={errorOf(form as never, name)} optional hint={hint}>
      <Input
        className={nodrag}
        type="number"
        inputMode="numeric"
        {...form.register(name, { setValueAs: (v: unknown) => (v === '' || v === null || v === undefined ? undefined : Number(v)) })}
      />
    </FormField>
  );
}

/** A picker of the workspace's attributes (by id), from the workspace record. */
export function AttributeSelect<T extends FieldValues>({
  form,
  name,
  label,
  optional,
  hint,
}: {
  form: UseFormReturn<T>;
  name: FieldPath<T>;
  label: ReactNode;
  optional?: boolean;
  hint?: ReactNode;
}) {
  const { attributes } = useBotEditor();
  return (
    <FormField label={label} error={errorOf(form as never, name)} optional={optional} hint={hint}>
      <NativeSelect className={nodrag} {...form.register(name, { setValueAs: (v: string) => (optional && v === '' ? undefined : v) })}>
        <option value="">{optional ? 'None' : 'Choose an attribute'}</option>
        {attributes.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name} ({a.type === 'conversation' ? 'conversation' : 'contact'}, {a.format})
          </option>
        ))}
      </NativeSelect>
    </FormField>
  );
}

/** A picker of the workspace's members (by member id). */
export function MemberSelect<T extends FieldValues>({ form, name, label }: { form: UseFormReturn<T>; name: FieldPath<T>; label: ReactNode }) {
  const { members } = useBotEditor();
  return (
    <FormField label={label} error={errorOf(form as never, name)}>
      <NativeSelect className={nodrag} {...form.register(name)}>
        <option value="">Choose a member</option>
        {members.map((m) => (
          <option key={m.id} value={m.id}>
            {memberName(m)} ({m.role})
          </option>
        ))}
      </NativeSelect>
    </FormField>
  );
}

export function FormSection({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <section className="flex flex-col gap-3 border-t border-border pt-3">
      <div className="flex items-center justify-between">
        <h3 className="text-xs font-semibold tracking-wide text-fg-subtle uppercase">{title}</h3>
        {action}
      </div>
      {children}
    </section>
  );
}

export function newKey() {
  return globalThis.crypto.randomUUID();
}
