import { zodResolver } from '@hookform/resolvers/zod';
import { Blocks, Pencil, Plus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import type { Attribute } from '@shared/schemas/entities';
import { AttributeFormat, AttributeName, AttributeType } from '@shared/schemas/entities';
import { limits } from '@shared/limits';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog, FormDialog } from '../../../components/ui/dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { FormField } from '../../../components/ui/form-field';
import { Input, Textarea } from '../../../components/ui/input';
import { SelectField } from '../../../components/ui/select-field';
import { QueryList } from '../../../components/ui/query-list';
import { TBody, TD, TH, THead, TR, Table } from '../../../components/ui/table';
import { isApiError } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { useAttributes } from '../../../lib/queries/attributes';
import { useIsAdmin, useWorkspaceId } from '../../../lib/queries/session';
import { useCreateAttribute } from '../api/create-attribute';
import { useDeleteAttribute } from '../api/delete-attribute';
import { useUpdateAttribute } from '../api/update-attribute';
import { SettingsPage } from './settings-page';

const formatTone = { text: 'neutral', number: 'blue', boolean: 'amber' } as const;

/** `/settings/attributes`: the free fields contacts (and conversations) carry. */
export function AttributesPage() {
  const workspaceId = useWorkspaceId();
  const isAdmin = useIsAdmin();
  const attributes = useAttributes(workspaceId);
  const remove = useDeleteAttribute(workspaceId);
  const [editing, setEditing] = useState<Attribute | 'new' | null>(null);

  return (
    <SettingsPage
      title="Attributes"
      description="Fields of your own that contacts carry: plan, order count, VIP... Segments and bots use them."
      actions={
        isAdmin && (
          <Button onClick={() => setEditing('new')}>
            <Plus /> New attribute
          </Button>
        )
      }
    >
      <Card>
        <QueryList
          query={attributes}
          noun="attributes"
          empty={
            <EmptyState
              icon={Blocks}
              title="No attributes yet"
              description="Create one to store what you know about your contacts."
              action={isAdmin && <Button onClick={() => setEditing('new')}>New attribute</Button>}
            />
          }
        >
          {(data) => (
            <Table aria-label="Attributes">
              <THead>
                <tr>
                  <TH>Name</TH>
                  <TH>Description</TH>
                  <TH>Format</TH>
                  <TH>Applies to</TH>
                  <TH>Created</TH>
                  {isAdmin && <TH actions />}
                </tr>
              </THead>
              <TBody>
                {data.map((a) => (
                  <TR key={a.id}>
                    <TD className="font-medium">{a.name}</TD>
                    <TD className="max-w-xs truncate text-fg-muted">{a.description || '—'}</TD>
                    <TD>
                      <Badge tone={formatTone[a.format]}>{a.format}</Badge>
                    </TD>
                    <TD className="text-fg-muted capitalize">{a.type}</TD>
                    <TD className="text-fg-muted">{formatDate(a.createdAt)}</TD>
                    {isAdmin && (
                      <TD actions>
                        <div className="flex justify-end gap-0.5">
                          <Button variant="ghost" size="icon-sm" aria-label={`Edit ${a.name}`} onClick={() => setEditing(a)}>
                            <Pencil />
                          </Button>
                          <ConfirmDialog
                            title={`Delete ${a.name}?`}
                            description="Contacts lose the values they hold for this attribute."
                            onConfirm={() => remove.mutateAsync(a.id)}
                            deleteLabel={`Delete ${a.name}`}
                          />
                        </div>
                      </TD>
                    )}
                  </TR>
                ))}
              </TBody>
            </Table>
          )}
        </QueryList>
      </Card>
      {isAdmin && editing && (
        <AttributeDialog
          key={editing === 'new' ? 'new' : editing.id}
          attribute={editing === 'new' ? null : editing}
          workspaceId={workspaceId}
          onClose={() => setEditing(null)}
        />
      )}
    </SettingsPage>
  );
}

const AttributeForm = z.object({
  name: AttributeName,
  description: z.string().max(limits.text.description),
  format: AttributeFormat,
  type: AttributeType,
});
type AttributeForm = z.infer<typeof AttributeForm>;

export function AttributeDialog({
  attribute,
  workspaceId,
  onClose,
}: {
  attribute: Attribute | null;
  workspaceId: string;
  onClose: () => void;
}) {
  const create = useCreateAttribute(workspaceId);
  const update = useUpdateAttribute(workspaceId);
  const form = useForm<AttributeForm>({
    resolver: zodResolver(AttributeForm),
    defaultValues: {
      name: attribute?.name ?? '',
      description: attribute?.description ?? '',
      format: attribute?.format ?? 'text',
      type: attribute?.type ?? 'contact',
    },
  });
  const { errors } = form.formState;
  const onError = (err: unknown) => {
    // The toast says it too (spec section 8); the name field shows why it was refused.
    if (isApiError(err, 409)) form.setError('name', { message: err.message });
  };
  const submit = form.handleSubmit((v) => {
    const body = { ...v, description: v.description.trim() || null };
    if (attribute) update.mutate({ attributeId: attribute.id, body }, { onSuccess: onClose, onError });
    else create.mutate({ ...body, workspaceId }, { onSuccess: onClose, onError });
  });
  return (
    <FormDialog
      title={attribute ? `Edit ${attribute.name}` : 'New attribute'}
      submitLabel={attribute ? 'Save changes' : 'Create attribute'}
      pending={create.isPending || update.isPending}
      onClose={onClose}
      onSubmit={submit}
    >
      <FormField label="Name" error={errors.name?.message}>
        <Input autoFocus placeholder="plan" {...form.register('name')} />
      </FormField>
      <FormField label="Description" optional error={errors.description?.message}>
        <Textarea rows={2} {...form.register('description')} />
      </FormField>
      <div className="grid grid-cols-2 gap-4">
        <SelectField
          control={form.control}
          name="format"
          label="Format"
          options={[
            { value: 'text', label: 'Text' },
            { value: 'number', label: 'Number' },
            { value: 'boolean', label: 'Yes / no' },
          ]}
        />
        <SelectField
          control={form.control}
          name="type"
          label="Applies to"
          options={[
            { value: 'contact', label: 'Contact' },
            { value: 'conversation', label: 'Conversation' },
          ]}
        />
      </div>
    </FormDialog>
  );
}
