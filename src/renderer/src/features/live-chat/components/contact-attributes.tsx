/** The contact's attributes in the contact panel, each edited by its format; Save sends only what changed. */
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { Attribute, Contact } from '@shared/schemas/entities';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Skeleton } from '../../../components/ui/skeleton';
import { Switch } from '../../../components/ui/switch';
import { errorText } from '../../../lib/api-client';
import { useAttributes } from '../../../lib/queries/attributes';
import type { usePatchContact } from '../../../lib/queries/contacts';

type Values = Record<string, string | boolean>;

function toFormValue(a: Attribute, v: Contact['attributes'][string] | undefined): string | boolean {
  if (a.format === 'boolean') return v === true || v === 'true';
  return v === null || v === undefined ? '' : String(v);
}

function fromFormValue(a: Attribute, v: string | boolean): string | number | boolean | null {
  if (a.format === 'boolean') return !!v;
  const s = String(v).trim();
  if (s === '') return null;
  if (a.format === 'number') return Number(s);
  return s;
}

interface ContactAttributesProps {
  contact: Contact;
  workspaceId: string;
  /** The panel's one contact mutation: opting out and saving attributes wait for each other. */
  patch: ReturnType<typeof usePatchContact>;
  offline: string | null;
}

export function ContactAttributes({ contact, workspaceId, patch, offline }: ContactAttributesProps) {
  const attributes = useAttributes(workspaceId);
  const contactAttributes = (attributes.data ?? []).filter((a) => a.type === 'contact');

  const defaults = (): Values => Object.fromEntries(contactAttributes.map((a) => [a.name, toFormValue(a, contact.attributes[a.name])]));
  const form = useForm<Values>({ defaultValues: defaults() });
  const defaultsKey = JSON.stringify(defaults());
  useEffect(() => {
    // New data from the server (a save, another agent, the event stream) replaces untouched fields.
    form.reset(JSON.parse(defaultsKey) as Values, { keepDirtyValues: true });
  }, [defaultsKey, form]);

  const save = form.handleSubmit(async (values) => {
    const changed = contactAttributes.filter((a) => form.formState.dirtyFields[a.name]);
    if (!changed.length) return;
    try {
      await patch.mutateAsync({ contactId: contact.id, body: { attributes: Object.fromEntries(changed.map((a) => [a.name, fromFormValue(a, values[a.name])])) } });
      form.reset(values);
    } catch {
      // Toasted (`status: message`); the edits stay for another try.
    }
  });

  return (
    <form onSubmit={save} className="border-t border-border px-4 py-3" aria-label="Attributes">
      <h3 className="mb-2 text-[12px] font-semibold tracking-wide text-fg-subtle uppercase">Attributes</h3>
      {attributes.isPending ? (
        <div className="flex flex-col gap-2">
          <Skeleton className="h-8" />
          <Skeleton className="h-8" />
        </div>
      ) : attributes.isError ? (
        <p className="text-[13px] text-danger">{errorText(attributes.error)}</p>
      ) : contactAttributes.length === 0 ? (
        <p className="text-[13px] text-fg-muted">No contact attributes yet. Admins add them under Settings → Attributes.</p>
      ) : (
        <div className="flex flex-col gap-2.5">
          {contactAttributes.map((a) => {
            const id = `attr-${a.id}`;
            return (
              <div key={a.id} className="flex items-center gap-2">
                <label htmlFor={id} className="w-28 shrink-0 truncate text-[13px] text-fg-muted" title={a.description ?? a.name}>
                  {a.name}
                </label>
                {a.format === 'boolean' ? (
                  <Controller
                    control={form.control}
                    name={a.name}
                    render={({ field }) => (
                      <Switch id={id} checked={!!field.value} onCheckedChange={(v) => field.onChange(v)} aria-label={a.name} />
                    )}
                  />
                ) : (
                  <Input
                    id={id}
                    type={a.format === 'number' ? 'number' : 'text'}
                    step={a.format === 'number' ? 'any' : undefined}
                    placeholder="Empty"
                    {...form.register(a.name)}
                  />
                )}
              </div>
            );
          })}
          {form.formState.isDirty && (
            <div className="flex justify-end gap-2 pt-1">
              <Button variant="ghost" size="sm" onClick={() => form.reset(defaults())}>
                Cancel
              </Button>
              <Button type="submit" size="sm" loading={patch.isPending} disabled={!!offline} title={offline ?? undefined}>
                Save
              </Button>
            </div>
          )}
        </div>
      )}
    </form>
  );
}
