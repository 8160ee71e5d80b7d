import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import type { Attribute, Contact } from '@shared/schemas/entities';
import { PatchContactBody } from '@shared/schemas/requests';
import { Trash2 } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog, FormDialog } from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Switch } from '../../../components/ui/switch';
import { useOfflineReason } from '../../../lib/connectivity';
import { usePatchContact } from '../../../lib/queries/contacts';
import { useDeleteContact } from '../api/delete-contact';
import { contactLabel } from '@shared/contact-label';
import { ContactPhone } from '../../../components/ui/contact-phone';

const Form = z.object({
  name: z.string().trim().max(200),
  email: z.union([z.literal(''), PatchContactBody.shape.email.unwrap().unwrap()]),
  country: z.string().trim().max(100),
  attributes: z.record(z.string(), z.union([z.string(), z.boolean()])),
});
type Form = z.infer<typeof Form>;

const emptyToNull = (s: string) => (s.trim() === '' ? null : s.trim());

function toValue(a: Attribute, v: string | boolean | undefined): string | number | boolean | null {
  if (a.format === 'boolean') return !!v;
  const s = String(v ?? '').trim();
  if (!s) return null;
  return a.format === 'number' ? Number(s) : s;
}

/** Edits a contact: name, e-mail, country and its attribute values, each by its format. */
export function ContactDialog({
  contact,
  attributes,
  workspaceId,
  canDelete = false,
  onStartConversation,
  onClose,
}: {
  contact: Contact;
  attributes: Attribute[];
  workspaceId: string;
  /** Admins may delete the contact, after a confirmation naming what goes with it. */
  canDelete?: boolean;
  /** Opens the dialog that starts a conversation with an approved template. */
  onStartConversation?: () => void;
  onClose: () => void;
}) {
  const patch = usePatchContact(workspaceId);
  const remove = useDeleteContact(workspaceId);
  const offline = useOfflineReason();
  const form = useForm<Form>({
    resolver: zodResolver(Form),
    defaultValues: {
      name: contact.name ?? '',
      email: contact.email ?? '',
      country: contact.country ?? '',
      attributes: Object.fromEntries(
        attributes.map((a) => {
          const v = contact.attributes[a.name];
          return [a.name, a.format === 'boolean' ? v === true || v === 'true' : v === null || v === undefined ? '' : String(v)];
        }),
      ),
    },
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    const attrs: Record<string, string | number | boolean | null> = {};
    for (const a of attributes) {
      if (form.getFieldState(`attributes.${a.name}`).isDirty) attrs[a.name] = toValue(a, values.attributes[a.name]);
    }
    for (const a of attributes) {
      if (a.format === 'number' && typeof attrs[a.name] === 'number' && Number.isNaN(attrs[a.name])) {
        form.setError(`attributes.${a.name}`, { message: 'Enter a number' });
        return;
      }
    }
    try {
      await patch.mutateAsync({
        contactId: contact.id,
        body: {
          name: emptyToNull(values.name),
          email: emptyToNull(values.email),
          country: emptyToNull(values.country),
          ...(Object.keys(attrs).length ? { attributes: attrs } : {}),
        },
      });
      onClose();
    } catch {
      // Toasted (`status: message`); the dialog stays open with the edits.
    }
  });

  return (
    <FormDialog
      title={`Edit ${contactLabel(contact)}`}
      description={<ContactPhone contact={contact} />}
      className="max-w-lg"
      submitLabel="Save changes"
      pending={patch.isPending}
      onClose={onClose}
      onSubmit={submit}
      submitDisabledReason={offline}
      formClassName="flex flex-col gap-3.5"
      footerStart={
        onStartConversation && (
          <Button type="button" variant="secondary" size="sm" onClick={onStartConversation}>
            Start conversation
          </Button>
        )
      }
    >
      <FormField label="Name" error={errors.name?.message}>
        <Input autoFocus {...form.register('name')} />
      </FormField>
      <FormField label="E-mail" error={errors.email?.message} optional>
        <Input type="email" {...form.register('email')} />
      </FormField>
      <FormField label="Country" optional>
        <Input {...form.register('country')} placeholder="e.g. GB" />
      </FormField>
      {attributes.length > 0 && (
        <fieldset className="mt-1 flex flex-col gap-3 border-t border-border pt-3.5">
          <legend className="sr-only">Attributes</legend>
          <p className="text-[12px] font-semibold tracking-wide text-fg-subtle uppercase" aria-hidden>
            Attributes
          </p>
          {attributes.map((a) =>
            a.format === 'boolean' ? (
              <div key={a.id} className="flex items-center justify-between">
                <label htmlFor={`edit-${a.id}`} className="text-[13px] font-medium text-fg">
                  {a.name}
                </label>
                <Controller
                  control={form.control}
                  name={`attributes.${a.name}`}
                  render={({ field }) => <Switch id={`edit-${a.id}`} checked={!!field.value} onCheckedChange={field.onChange} />}
                />
              </div>
            ) : (
              <FormField key={a.id} label={a.name} hint={a.description ?? undefined} error={errors.attributes?.[a.name]?.message}>
                <Input type={a.format === 'number' ? 'number' : 'text'} step={a.format === 'number' ? 'any' : undefined} {...form.register(`attributes.${a.name}`)} />
              </FormField>
            ),
          )}
        </fieldset>
      )}
      {canDelete && (
        <div className="mt-1 border-t border-border pt-3.5">
          <ConfirmDialog
            trigger={
              <Button type="button" variant="danger" size="sm">
                <Trash2 aria-hidden /> Delete contact
              </Button>
            }
            title={`Delete ${contactLabel(contact)}?`}
            description="The contact, their conversations and messages are deleted for the whole workspace. This cannot be undone."
            onConfirm={async () => {
              await remove.mutateAsync(contact.id);
              onClose();
            }}
          />
        </div>
      )}
    </FormDialog>
  );
}
