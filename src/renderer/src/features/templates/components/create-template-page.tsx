import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from '@tanstack/react-router';
import { Plus, Upload, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { BackLinkTitle } from '../../../components/layout/detail-page';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader, PageHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { FormField } from '../../../components/ui/form-field';
import { Input, NativeSelect, Textarea } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { SelectField } from '../../../components/ui/select-field';
import { useIsAdmin, useWorkspaceId } from '../../../lib/queries/session';
import { useWhatsappAccounts } from '../../../lib/queries/whatsapp-accounts';
import { useCreateTemplate } from '../api/create-template';
import { useUploadTemplateMedia } from '../api/upload-template-media';
import { templateLanguages } from './languages';
import { TemplateForm, type TemplateFormValues, buttonTypes, emptyTemplate, toComponents, variablesOf } from './template-form';
import { TemplatePreview } from './template-preview';

const headerOptions = [
  { value: 'NONE', label: 'None' },
  { value: 'TEXT', label: 'Text' },
  { value: 'IMAGE', label: 'Image' },
  { value: 'VIDEO', label: 'Video' },
  { value: 'DOCUMENT', label: 'Document' },
];
const accept: Record<string, string> = { IMAGE: 'image/jpeg,image/png', VIDEO: 'video/mp4', DOCUMENT: 'application/pdf' };
const buttonLabels = { QUICK_REPLY: 'Quick reply', URL: 'Visit website', PHONE_NUMBER: 'Call phone number' } as const;

/** `/templates/create`: the editor with a live WhatsApp-style preview. */
export function CreateTemplatePage() {
  const workspaceId = useWorkspaceId();
  const isAdmin = useIsAdmin();
  const accounts = useWhatsappAccounts(workspaceId);
  const create = useCreateTemplate(workspaceId);
  const upload = useUploadTemplateMedia();
  const navigate = useNavigate();
  const [mediaPreview, setMediaPreview] = useState<string | null>(null);

  const form = useForm<TemplateFormValues>({ resolver: zodResolver(TemplateForm), defaultValues: emptyTemplate });
  const buttons = useFieldArray({ control: form.control, name: 'buttons' });
  const values = useWatch({ control: form.control }) as TemplateFormValues;
  const { errors } = form.formState;
  const bodyVars = variablesOf(values.body ?? '');

  // The first account is the natural choice when there is one.
  useEffect(() => {
    if (!form.getValues('whatsappAccountId') && accounts.data?.[0]) form.setValue('whatsappAccountId', accounts.data[0].id);
  }, [accounts.data, form]);
  useEffect(() => () => void (mediaPreview && URL.revokeObjectURL(mediaPreview)), [mediaPreview]);

  if (!isAdmin) {
    return (
      <>
        <PageHeader title="New template" />
        <EmptyState title="Only admins create templates" description="Ask an admin of this workspace to create it." />
      </>
    );
  }

  const submit = form.handleSubmit((v) =>
    create.mutate(
      {
        name: v.name,
        language: v.language,
        category: v.category,
        components: toComponents(v),
        mediaUrl: v.mediaUrl || null,
        whatsappAccountId: v.whatsappAccountId,
        workspaceId,
      },
      {
        onSuccess: (t) => {
          toast.success(`${t.name} was submitted for review`);
          void navigate({ to: '/templates' });
        },
      },
    ),
  );

  return (
    <>
      <PageHeader
        title={
          <BackLinkTitle to="/templates" label="Back to templates">
            New template
          </BackLinkTitle>
        }
        description="WhatsApp reviews every template before it can be sent; this usually takes minutes."
        actions={
          <Button type="submit" form="template-form" loading={create.isPending}>
            Submit for review
          </Button>
        }
      />
      <div className="grid gap-6 p-6 lg:grid-cols-[minmax(0,1fr)_360px]">
        <form id="template-form" noValidate onSubmit={submit} className="flex flex-col gap-5">
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

          <Card>
            <CardHeader title="Header" description="Optional: a title line or a picture, video or document." />
            <div className="flex flex-col gap-4 p-5">
              <Controller
                control={form.control}
                name="headerFormat"
                render={({ field }) => (
                  <FormField label="Header type" className="max-w-xs">
                    <Select
                      value={field.value}
                      onValueChange={(v) => {
                        field.onChange(v);
                        form.setValue('headerHandle', '');
                        form.setValue('mediaUrl', '');
                        form.setValue('mediaName', '');
                        setMediaPreview(null);
                      }}
                      options={headerOptions}
                    />
                  </FormField>
                )}
              />
              {values.headerFormat === 'TEXT' && (
                <div className="grid grid-cols-2 gap-4">
                  <FormField label="Header text" error={errors.headerText?.message} hint="Up to 60 characters; one {{1}} allowed.">
                    <Input {...form.register('headerText')} />
                  </FormField>
                  {variablesOf(values.headerText ?? '').length > 0 && (
                    <FormField label="Example for {{1}}" error={errors.headerExample?.message}>
                      <Input {...form.register('headerExample')} />
                    </FormField>
                  )}
                </div>
              )}
              {['IMAGE', 'VIDEO', 'DOCUMENT'].includes(values.headerFormat) && (
                <FormField label="Sample file" error={errors.headerHandle?.message} hint="WhatsApp reviews the template with this sample.">
                  <label className="flex h-16 cursor-pointer items-center justify-center gap-2 rounded-lg border border-dashed border-border-strong bg-subtle text-[13px] text-fg-muted hover:bg-muted">
                    <Upload className="size-4" aria-hidden />
                    {upload.isPending ? 'Uploading...' : values.mediaName ? `${values.mediaName} (change)` : 'Choose a file'}
                    <input
                      type="file"
                      className="sr-only"
                      accept={accept[values.headerFormat]}
                      aria-label="Header sample file"
                      onChange={(e) => {
                        const file = e.target.files?.[0];
                        e.target.value = '';
                        if (!file) return;
                        upload.mutate(file, {
                          onSuccess: ({ assetUrl, FBhandle }) => {
                            form.setValue('headerHandle', FBhandle, { shouldValidate: true });
                            form.setValue('mediaUrl', assetUrl);
                            form.setValue('mediaName', file.name);
                            setMediaPreview(file.type.startsWith('image/') ? URL.createObjectURL(file) : null);
                          },
                        });
                      }}
                    />
                  </label>
                </FormField>
              )}
            </div>
          </Card>

          <Card>
            <CardHeader title="Body" description="Use {{1}}, {{2}} ... for values that change per message." />
            <div className="flex flex-col gap-4 p-5">
              <FormField label="Message" error={errors.body?.message} hint={`${(values.body ?? '').length} / 1024`}>
                <Textarea rows={5} placeholder="Hi {{1}}, your order {{2}} is on its way." {...form.register('body')} />
              </FormField>
              {bodyVars.length > 0 && (
                <div className="grid grid-cols-2 gap-4">
                  {bodyVars.map((n, i) => (
                    <FormField key={n} label={`Example for {{${n}}}`} error={errors.bodyExamples?.[i]?.message}>
                      <Input {...form.register(`bodyExamples.${i}`)} />
                    </FormField>
                  ))}
                </div>
              )}
              <FormField label="Footer" optional error={errors.footer?.message}>
                <Input placeholder="Reply STOP to opt out" {...form.register('footer')} />
              </FormField>
            </div>
          </Card>

          <Card>
            <CardHeader title="Buttons" description="Up to 10: quick replies, a website link or a phone number." />
            <div className="flex flex-col gap-3 p-5">
              <div className="flex flex-wrap gap-2">
                {buttonTypes.map((t) => (
                  <Button
                    key={t}
                    variant="secondary"
                    size="sm"
                    disabled={buttons.fields.length >= 10}
                    onClick={() => buttons.append({ type: t, text: '', url: '', phone_number: '' })}
                  >
                    <Plus /> {buttonLabels[t]}
                  </Button>
                ))}
              </div>
              {buttons.fields.map((f, i) => {
                const type = values.buttons?.[i]?.type;
                return (
                  <div key={f.id} className="flex items-start gap-2" role="group" aria-label={`Button ${i + 1}`}>
                    <NativeSelect aria-label={`Button ${i + 1} type`} className="w-44" {...form.register(`buttons.${i}.type`)}>
                      {buttonTypes.map((t) => (
                        <option key={t} value={t}>
                          {buttonLabels[t]}
                        </option>
                      ))}
                    </NativeSelect>
                    <div className="flex-1">
                      <Input aria-label={`Button ${i + 1} text`} placeholder="Button text" {...form.register(`buttons.${i}.text`)} aria-invalid={!!errors.buttons?.[i]?.text} />
                      {errors.buttons?.[i]?.text && <p role="alert" className="mt-1 text-xs text-danger">{errors.buttons[i]?.text?.message}</p>}
                    </div>
                    {type === 'URL' && (
                      <div className="flex-1">
                        <Input aria-label={`Button ${i + 1} URL`} placeholder="https://example.com" {...form.register(`buttons.${i}.url`)} aria-invalid={!!errors.buttons?.[i]?.url} />
                        {errors.buttons?.[i]?.url && <p role="alert" className="mt-1 text-xs text-danger">{errors.buttons[i]?.url?.message}</p>}
                      </div>
                    )}
                    {type === 'PHONE_NUMBER' && (
                      <div className="flex-1">
                        <Input aria-label={`Button ${i + 1} phone number`} placeholder="+1 650 555 0100" {...form.register(`buttons.${i}.phone_number`)} aria-invalid={!!errors.buttons?.[i]?.phone_number} />
                        {errors.buttons?.[i]?.phone_number && (
                          <p role="alert" className="mt-1 text-xs text-danger">{errors.buttons[i]?.phone_number?.message}</p>
                        )}
                      </div>
                    )}
                    <Button variant="ghost" size="icon" aria-label={`Remove button ${i + 1}`} onClick={() => buttons.remove(i)}>
                      <X />
                    </Button>
                  </div>
                );
              })}
            </div>
          </Card>
        </form>
        <aside className="lg:sticky lg:top-6 lg:self-start">
          <p className="mb-2 text-[11px] font-medium tracking-wide text-fg-subtle uppercase">Preview</p>
          <TemplatePreview values={{ ...emptyTemplate, ...values }} mediaPreview={mediaPreview} />
        </aside>
      </div>
    </>
  );
}
