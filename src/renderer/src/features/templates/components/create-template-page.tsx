import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { BackLinkTitle } from '../../../components/layout/detail-page';
import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { useIsAdmin, useWorkspaceId } from '../../../lib/queries/session';
import { useWhatsappAccounts } from '../../../lib/queries/whatsapp-accounts';
import { useCreateTemplate } from '../api/create-template';
import { TemplateBasicsCard } from './template-basics-card';
import { TemplateBodyCard } from './template-body-card';
import { TemplateButtonsCard } from './template-buttons-card';
import { TemplateForm, type TemplateFormValues, emptyTemplate, toComponents } from './template-form';
import { TemplateHeaderCard } from './template-header-card';
import { TemplatePreview } from './template-preview';

/** `/templates/create`: the editor with a live WhatsApp-style preview. */
export function CreateTemplatePage() {
  const workspaceId = useWorkspaceId();
  const isAdmin = useIsAdmin();
  const accounts = useWhatsappAccounts(workspaceId);
  const create = useCreateTemplate(workspaceId);
  const navigate = useNavigate();
  const [mediaPreview, setMediaPreview] = useState<string | null>(null);

  const form = useForm<TemplateFormValues>({ resolver: zodResolver(TemplateForm), defaultValues: emptyTemplate });
  const buttons = useFieldArray({ control: form.control, name: 'buttons' });
  const values = useWatch({ control: form.control }) as TemplateFormValues;

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
          <TemplateBasicsCard form={form} accounts={accounts} />

          <TemplateHeaderCard form={form} values={values} onMediaPreview={setMediaPreview} />

          <TemplateBodyCard form={form} values={values} />

          <TemplateButtonsCard form={form} values={values} buttons={buttons} />
        </form>
        <aside className="lg:sticky lg:top-6 lg:self-start">
          <p className="mb-2 text-[11px] font-medium tracking-wide text-fg-subtle uppercase">Preview</p>
          <TemplatePreview values={{ ...emptyTemplate, ...values }} mediaPreview={mediaPreview} />
        </aside>
      </div>
    </>
  );
}
