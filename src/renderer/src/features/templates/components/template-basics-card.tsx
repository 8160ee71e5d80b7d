/** The template editor's Basics: name, category, language and the WhatsApp number it belongs to. */
import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { WhatsappAccount } from '@shared/schemas/entities';
import { Card, CardHeader } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { SelectField } from '../../../components/ui/select-field';
import { templateLanguages } from './languages';
import type { TemplateCardProps } from './template-card-props';

export function TemplateBasicsCard({ form, accounts }: Pick<TemplateCardProps, 'form'> & { accounts: UseQueryResult<WhatsappAccount[]> }) {
  const { errors } = form.formState;
  return (
    <Card>
      <CardHeader title="Basics" />
      <div className="grid grid-cols-2 gap-4 p-5">
        <FormField label="Name" error={errors.name?.message} hint="Lower case letters, numbers and underscores." className="col-span-2">
          <Input autoFocus placeholder="order_update" {...form.register('name')} />
        </FormField>
        <SelectField
          control={form.control}
          name="category"
          label="Category"
          options={[
            { value: 'MARKETING', label: 'Marketing' },
            { value: 'UTILITY', label: 'Utility' },
            { value: 'AUTHENTICATION', label: 'Authentication' },
          ]}
        />
        <SelectField control={form.control} name="language" label="Language" options={templateLanguages} />
        <SelectField
          control={form.control}
          name="whatsappAccountId"
          label="WhatsApp number"
          className="col-span-2"
          hint={
            accounts.data?.length === 0 ? (
              <>
                No number connected yet:{' '}
                <Link to="/settings/whatsapp" className="font-medium text-accent-text hover:underline">
                  connect one
                </Link>
                .
              </>
            ) : undefined
          }
          placeholder={accounts.isPending ? 'Loading...' : 'Select a number'}
          options={(accounts.data ?? []).map((a) => ({ value: a.id, label: a.phoneNumber }))}
        />
      </div>
    </Card>
  );
}
