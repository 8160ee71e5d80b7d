import { zodResolver } from '@hookform/resolvers/zod';
import { MessageCircle, Pencil, Plus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import type { WhatsappAccount } from '@shared/schemas/entities';
import { AccessToken, CreateWhatsappBody, ThroughputPerSecond } from '@shared/schemas/requests';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog, FormDialog } from '../../../components/ui/dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { QueryList } from '../../../components/ui/query-list';
import { TBody, TD, TH, THead, TR, Table } from '../../../components/ui/table';
import { useIsAdmin, useWorkspaceId } from '../../../lib/queries/session';
import { useWhatsappAccounts } from '../../../lib/queries/whatsapp-accounts';
import { useCreateWhatsappAccount } from '../api/create-whatsapp-account';
import { useDeleteWhatsappAccount } from '../api/delete-whatsapp-account';
import { useUpdateWhatsappAccount } from '../api/update-whatsapp-account';
import { useWebhookSetup } from '../api/get-webhook-setup';
import { SettingsPage } from './settings-page';
import { WebhookSetupCard } from './webhook-setup-card';
import { NumberHealth } from './number-health';
import { formatDate } from '../../../lib/format';

/** `/settings/whatsapp`: the workspace's WhatsApp numbers. */
export function WhatsappAccountsPage() {
  const workspaceId = useWorkspaceId();
  const isAdmin = useIsAdmin();
  const accounts = useWhatsappAccounts(workspaceId);
  const remove = useDeleteWhatsappAccount(workspaceId);
  const [connecting, setConnecting] = useState(false);
  const [editing, setEditing] = useState<WhatsappAccount | null>(null);
  // Only admins may read the server's WhatsApp setup; it says whether numbers are the sandbox's.
  const sandbox = useWebhookSetup(workspaceId, isAdmin).data?.graphApi.sandbox ?? false;

  return (
    <SettingsPage
      title="WhatsApp accounts"
      description="The WhatsApp Business numbers your team chats and sends campaigns from."
      actions={
        isAdmin && (
          <Button onClick={() => setConnecting(true)}>
            <Plus /> Connect number
          </Button>
        )
      }
    >
      <Card>
        <QueryList
          query={accounts}
          noun="WhatsApp accounts"
          rows={2}
          empty={
            <EmptyState
              icon={MessageCircle}
              title="No WhatsApp number connected"
              description="Connect a number of your WhatsApp Business account to start chatting with customers."
              action={
                isAdmin && (
                  <Button onClick={() => setConnecting(true)}>
                    <Plus /> Connect number
                  </Button>
                )
              }
            />
          }
        >
          {(data) => (
            <Table aria-label="WhatsApp accounts">
              <THead>
                <tr>
                  <TH>Phone number</TH>
                  <TH title="WhatsApp Business Account ID and App ID">WABA and app</TH>
                  <TH title="Quality rating, messaging limit and throughput, as Meta reports them">Health</TH>
                  <TH title="Messages per second Parley sends from this number">Send rate</TH>
                  <TH>Token</TH>
                  <TH>Connected</TH>
                  {isAdmin && <TH actions />}
                </tr>
              </THead>
              <TBody>
                {data.map((a) => (
                  <TR key={a.id}>
                    <TD>
                      <p className="font-medium">{a.phoneNumber}</p>
                      <p className="font-mono text-xs text-fg-muted" title="Phone number ID">
                        {a.phoneNumberId}
                      </p>
                    </TD>
                    <TD className="font-mono text-xs text-fg-muted">
                      <p title="WhatsApp Business Account ID">WABA {a.wabaAccountId}</p>
                      <p title="App ID">App {a.appId}</p>
                    </TD>
                    <TD className="max-w-64 min-w-44">
                      <NumberHealth account={a} workspaceId={workspaceId} canRefresh={isAdmin} sandbox={sandbox} />
                    </TD>
                    <TD className="text-fg-muted tabular-nums">{a.throughputPerSecond}/s</TD>
                    <TD className="font-mono text-xs text-fg-muted" aria-label="Token (masked)">
                      {/* The answer masks all but the last four characters; four dots say as much in less room. */}
                      {a.token.replace(/^•+/, '••••')}
                    </TD>
                    <TD className="text-fg-muted">{formatDate(a.createdAt)}</TD>
                    {isAdmin && (
                      <TD actions>
                        <div className="flex justify-end gap-0.5">
                          <Button variant="ghost" size="icon-sm" aria-label={`Edit ${a.phoneNumber}`} onClick={() => setEditing(a)}>
                            <Pencil />
                          </Button>
                          <ConfirmDialog
                            title="Disconnect this number?"
                            description={`${a.phoneNumber} stops receiving and sending messages in Parley. Conversations stay.`}
                            confirmLabel="Disconnect"
                            onConfirm={() => remove.mutateAsync(a.id)}
                            deleteLabel={`Disconnect ${a.phoneNumber}`}
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
      {isAdmin && <WebhookSetupCard workspaceId={workspaceId} />}
      {isAdmin && connecting && <ConnectNumberDialog workspaceId={workspaceId} onClose={() => setConnecting(false)} />}
      {isAdmin && editing && <EditNumberDialog key={editing.id} workspaceId={workspaceId} account={editing} onClose={() => setEditing(null)} />}
    </SettingsPage>
  );
}

const AccountForm = CreateWhatsappBody.omit({ workspaceId: true });
type AccountForm = z.input<typeof AccountForm>;

export function ConnectNumberDialog({ workspaceId, onClose }: { workspaceId: string; onClose: () => void }) {
  const create = useCreateWhatsappAccount(workspaceId);
  const form = useForm<AccountForm>({
    resolver: zodResolver(AccountForm),
    defaultValues: { phoneNumber: '', wabaAccountId: '', appId: '', phoneNumberId: '', token: '' },
  });
  const { errors } = form.formState;
  return (
    <FormDialog
      title="Connect a WhatsApp number"
      description="From Meta's WhatsApp Manager: the number, its IDs and a system user permanent token."
      className="max-w-lg"
      formClassName="grid grid-cols-2"
      submitLabel="Connect number"
      pending={create.isPending}
      onClose={onClose}
      onSubmit={form.handleSubmit((values) => create.mutate({ ...values, workspaceId }, { onSuccess: onClose }))}
    >
      <FormField label="Phone number" error={errors.phoneNumber?.message} hint="With country code, e.g. +1 650 555 0100" className="col-span-2">
        <Input autoFocus inputMode="tel" placeholder="+1 650 555 0100" {...form.register('phoneNumber')} />
      </FormField>
      <FormField label="WhatsApp Business Account ID" error={errors.wabaAccountId?.message}>
        <Input {...form.register('wabaAccountId')} />
      </FormField>
      <FormField label="Phone Number ID" error={errors.phoneNumberId?.message}>
        <Input {...form.register('phoneNumberId')} />
      </FormField>
      <FormField label="App ID" error={errors.appId?.message} className="col-span-2">
        <Input {...form.register('appId')} />
      </FormField>
      <FormField label="System user permanent token" error={errors.token?.message} className="col-span-2">
        <Input type="password" autoComplete="off" {...form.register('token')} />
      </FormField>
    </FormDialog>
  );
}

/** The edit form: a blank token keeps the stored one; the rate is Meta's throughput tier of the number. */
const EditForm = z.object({
  token: z
    .string()
    .transform((v) => v.trim() || undefined)
    .pipe(AccessToken.optional()),
  throughputPerSecond: ThroughputPerSecond,
});
type EditFormInput = z.input<typeof EditForm>;
type EditFormOutput = z.output<typeof EditForm>;

export function EditNumberDialog({ workspaceId, account, onClose }: { workspaceId: string; account: WhatsappAccount; onClose: () => void }) {
  const update = useUpdateWhatsappAccount(workspaceId);
  const form = useForm<EditFormInput, unknown, EditFormOutput>({
    resolver: zodResolver(EditForm),
    defaultValues: { token: '', throughputPerSecond: account.throughputPerSecond },
  });
  const { errors } = form.formState;
  return (
    <FormDialog
      title={`Edit ${account.phoneNumber}`}
      description="Replace the token when Meta rotates it, or set how fast Parley sends from this number."
      className="max-w-lg"
      submitLabel="Save changes"
      pending={update.isPending}
      onClose={onClose}
      onSubmit={form.handleSubmit((values) => update.mutate({ id: account.id, body: values }, { onSuccess: onClose }))}
    >
      <FormField
        label="Messages per second"
        error={errors.throughputPerSecond?.message}
        hint="Meta's throughput tier for the number: 80 by default, up to 1,000 once Meta raises it."
      >
        <Input autoFocus type="number" min={1} max={1000} step={1} {...form.register('throughputPerSecond', { valueAsNumber: true })} />
      </FormField>
      <FormField label="New system user permanent token" error={errors.token?.message} hint={`Leave blank to keep the token ending in ${account.token.slice(-4)}.`}>
        <Input type="password" autoComplete="off" {...form.register('token')} />
      </FormField>
    </FormDialog>
  );
}
