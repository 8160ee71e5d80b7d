import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import type { CampaignSettings } from '@shared/schemas/entities';
import { CampaignSettingsBody } from '@shared/schemas/requests';
import { FormField } from '../../../components/ui/form-field';
import { Input, Textarea } from '../../../components/ui/input';
import { Switch } from '../../../components/ui/switch';
import { QueryList } from '../../../components/ui/query-list';
import { errorText } from '../../../lib/api-client';
import { useIsAdmin, useWorkspaceId } from '../../../lib/queries/session';
import { useCampaignSettings } from '../api/get-campaign-settings';
import { useUpdateCampaignSettings } from '../api/update-campaign-settings';
import { SettingsFormCard } from './settings-form-card';
import { SettingsPage } from './settings-page';

/** The words everyone may use to opt out (the server always honours them; the workspace adds its own). */
const builtInKeywords = ['STOP', 'UNSUBSCRIBE'];

/** Keywords as typed: separated by commas or new lines. */
export const splitKeywords = (text: string) =>
  text
    .split(/[,\n]/)
    .map((k) => k.trim())
    .filter(Boolean);

const shared = CampaignSettingsBody.shape;
/** The form's fields as typed; each is checked by the shared request schema (the server's rules). */
const SettingsForm = z.object({
  optOutKeywords: z.string().superRefine((text, ctx) => {
    const words = splitKeywords(text);
    if (words.length > 20) ctx.addIssue({ code: 'custom', message: 'At most 20 keywords' });
    const long = words.find((w) => w.length > 64);
    if (long) ctx.addIssue({ code: 'custom', message: `A keyword has at most 64 characters: ${long.slice(0, 20)}…` });
    else if (!shared.optOutKeywords.safeParse(words).success) ctx.addIssue({ code: 'custom', message: 'Enter keywords separated by commas' });
  }),
  timeZone: z.string().trim().min(1, { error: 'Enter a time zone such as Europe/Paris' }).pipe(shared.timeZone.unwrap()),
  optOutConfirmation: z.string().max(1024, { error: 'At most 1,024 characters' }).pipe(shared.optOutConfirmation.unwrap()),
  skipUsMarketing: z.boolean(),
});
type FormValues = z.infer<typeof SettingsForm>;

const toForm = (s: CampaignSettings): FormValues => ({
  optOutKeywords: s.optOutKeywords.join(', '),
  timeZone: s.timeZone,
  optOutConfirmation: s.optOutConfirmation,
  skipUsMarketing: s.skipUsMarketing,
});

/** `/settings/campaigns`: the workspace's opt-out keywords, its time zone (send windows' fallback), the confirmation. */
export function CampaignSettingsPage() {
  const workspaceId = useWorkspaceId();
  const settings = useCampaignSettings(workspaceId);
  return (
    <SettingsPage title="Campaigns" description="How customers opt out of campaigns, and the time zone send windows fall back to.">
      <QueryList query={settings} noun="campaign settings" isEmpty={() => false}>
        {(data) => <SettingsCard workspaceId={workspaceId} settings={data} />}
      </QueryList>
    </SettingsPage>
  );
}

function SettingsCard({ workspaceId, settings }: { workspaceId: string; settings: CampaignSettings }) {
  const isAdmin = useIsAdmin();
  const save = useUpdateCampaignSettings(workspaceId);
  const zones = useMemo(() => (typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []), []);
  const form = useForm<FormValues>({ resolver: zodResolver(SettingsForm), values: toForm(settings), mode: 'onTouched' });
  const { errors, isDirty } = form.formState;
  const onSubmit = form.handleSubmit((v) =>
    save.mutate(
      { optOutKeywords: splitKeywords(v.optOutKeywords), timeZone: v.timeZone.trim(), optOutConfirmation: v.optOutConfirmation, skipUsMarketing: v.skipUsMarketing },
      {
        onSuccess: (saved) => {
          toast.success('Campaign settings saved');
          form.reset(toForm(saved));
        },
        onError: (err) => toast.error(`Campaign settings not saved: ${errorText(err)}`),
      },
    ),
  );

  return (
    <SettingsFormCard title="Opt-out, time zone and US marketing" onSubmit={onSubmit} isDirty={isDirty} saving={save.isPending}>
      <FormField
        label="Opt-out keywords"
        optional
        error={errors.optOutKeywords?.message}
        hint={`Separated by commas. A message that is only one of these (any case) opts the customer out of campaigns, as ${builtInKeywords.join(' and ')} always do; START opts back in.`}
        className="max-w-xl"
      >
        <Input placeholder="ARRET, BAJA" {...form.register('optOutKeywords')} />
      </FormField>
      <FormField
        label="Opt-out confirmation"
        optional
        error={errors.optOutConfirmation?.message}
        hint="Sent to a customer who just opted out. Leave empty to send nothing."
        className="max-w-xl"
      >
        <Textarea rows={3} placeholder="You will not receive campaigns from us any more. Reply START to subscribe again." {...form.register('optOutConfirmation')} />
      </FormField>
      <FormField
        label="Workspace time zone"
        error={errors.timeZone?.message}
        hint="Send windows use each customer's own time zone (a timeZone attribute, else the phone number's area); this one when neither tells."
        className="max-w-sm"
      >
        <Input list="campaign-time-zones" autoComplete="off" placeholder="Europe/Paris" {...form.register('timeZone')} />
      </FormField>
      <div className="flex max-w-xl items-start justify-between gap-4">
        <div>
          <label htmlFor="skip-us-marketing" className="text-[13px] font-medium text-fg">
            Skip marketing templates to US numbers
          </label>
          <p id="skip-us-marketing-hint" className="text-[12px] text-fg-muted">
            WhatsApp refuses every marketing template to a US number (error 131049). Skipped recipients are logged as capped, never sent. Turn off only if Meta lifts the rule.
          </p>
        </div>
        <Controller
          control={form.control}
          name="skipUsMarketing"
          render={({ field }) => (
            <Switch id="skip-us-marketing" aria-describedby="skip-us-marketing-hint" checked={field.value} onCheckedChange={field.onChange} onBlur={field.onBlur} disabled={!isAdmin} />
          )}
        />
      </div>
      <datalist id="campaign-time-zones">
        {zones.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
    </SettingsFormCard>
  );
}
