import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { CreateContactBody } from '@shared/schemas/requests';
import { FormDialog } from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { useCreateContact } from '../api/create-contact';

const Form = CreateContactBody.omit({ workspaceId: true });
type Form = z.input<typeof Form>;

/** Adds one contact by hand: a phone number (national numbers read in the workspace's country), a name, an e-mail. */
export function AddContactDialog({ workspaceId, onClose }: { workspaceId: string; onClose: () => void }) {
  const create = useCreateContact(workspaceId);
  const form = useForm<Form>({ resolver: zodResolver(Form), defaultValues: { phoneNumber: '', name: '', email: '' } });
  const { errors } = form.formState;
  return (
    <FormDialog
      title="Add a contact"
      description="They appear in the audience at once; you can start a conversation with an approved template."
      className="max-w-md"
      submitLabel="Add contact"
      pending={create.isPending}
      onClose={onClose}
      onSubmit={form.handleSubmit((values) => create.mutate({ ...values, workspaceId }, { onSuccess: onClose }))}
    >
      <FormField label="Phone number" error={errors.phoneNumber?.message} hint="With country code, e.g. +44 7911 123456">
        <Input autoFocus inputMode="tel" {...form.register('phoneNumber')} />
      </FormField>
      <FormField label="Name" error={errors.name?.message}>
        <Input {...form.register('name')} />
      </FormField>
      <FormField label="E-mail" error={errors.email?.message}>
        <Input type="email" {...form.register('email')} />
      </FormField>
    </FormDialog>
  );
}
