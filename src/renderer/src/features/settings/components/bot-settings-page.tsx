import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { type BotSettings, BotSettingsBody } from '@shared/schemas/bot-canvas';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { QueryList } from '../../../components/ui/query-list';
import { errorText } from '../../../lib/api-client';
import { useWorkspaceId } from '../../../lib/queries/session';
import { useBotSettings } from '../api/get-bot-settings';
import { useUpdateBotSettings } from '../api/update-bot-settings';
import { SettingsFormCard } from './settings-form-card';
import { SettingsPage } from './settings-page';

/** The field as typed: empty means the server's default sender; anything else is checked by the shared schema. */
const SettingsForm = z.object({
  emailFrom: z.string().superRefine((text, ctx) => {
    if (!text.trim()) return;
    const checked = BotSettingsBody.shape.emailFrom.safeParse(text);
    if (!checked.success) ctx.addIssue({ code: 'custom', message: checked.error.issues[0]?.message ?? 'Enter an address such as bots@bakery.com' });
  }),
});
type FormValues = z.infer<typeof SettingsForm>;
const toForm = (s: BotSettings): FormValues => ({ emailFrom: s.emailFrom ?? '' });

/** `/settings/bots`: the sender of the e-mails bots send (a mail relay refuses a From it does not recognise). */
export function BotSettingsPage() {
  const workspaceId = useWorkspaceId();
  const settings = useBotSettings(workspaceId);
  return (
    <SettingsPage title="Bots" description="What the workspace's bots use when they send e-mail.">
      <QueryList query={settings} noun="bot settings" isEmpty={() => false}>
        {(data) => <SettingsCard workspaceId={workspaceId} settings={data} />}
      </QueryList>
    </SettingsPage>
  );
}

function SettingsCard({ workspaceId, settings }: { workspaceId: string; settings: BotSettings }) {
  const save = useUpdateBotSettings(workspaceId);
  const form = useForm<FormValues>({ resolver: zodResolver(SettingsForm), values: toForm(settings), mode: 'onTouched' });
  const { errors, isDirty } = form.formState;
  const onSubmit = form.handleSubmit((v) =>
    save.mutate(
      { emailFrom: v.emailFrom.trim() || null },
      {
        onSuccess: (saved) => {
          toast.success('Bot settings saved');
          form.reset(toForm(saved));
        },
        onError: (err) => toast.error(`Bot settings not saved: ${errorText(err)}`),
      },
    ),
  );
  return (
    <SettingsFormCard title="E-mail sender" onSubmit={onSubmit} isDirty={isDirty} saving={save.isPending}>
      <FormField
        label="From address of bot e-mails"
        optional
        error={errors.emailFrom?.message}
        hint="Use an address your mail relay accepts for this server. Leave empty to use the server's default sender (SMTP_FROM)."
        className="max-w-xl"
      >
        <Input type="text" autoComplete="off" placeholder="Bakery <bots@bakery.com>" {...form.register('emailFrom')} />
      </FormField>
    </SettingsFormCard>
  );
}
