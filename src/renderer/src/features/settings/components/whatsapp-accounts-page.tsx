import { zodResolver } from '@hookform/resolvers/zod';
import { MessageCircle, Plus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { CreateWhatsappBody } from '@shared/schemas/requests';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog, Dialog, DialogContent } from '../../../components/ui/dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { QueryList } from '../../../components/ui/query-list';
import { TBody, TD, TH, THead, TR, Table } from '../../../components/ui/table';
import { useIsAdmin, useWorkspaceId } from '../../../lib/queries/session';
import { useWhatsappAccounts } from '../../../lib/queries/whatsapp-accounts';
import { useCreateWhatsappAccount } from '../api/create-whatsapp-account';
import { useDeleteWhatsappAccount } from '../api/delete-whatsapp-account';
import { SettingsPage } from './settings-page';
import { formatDate } from '../../../lib/format';

/** `/settings/whatsapp`: the workspace's WhatsApp numbers. */
export function WhatsappAccountsPage() {
  const workspaceId = useWorkspaceId();
  const isAdmin = useIsAdmin();
  const accounts = useWhatsappAccounts(workspaceId);
  const remove = useDeleteWhatsappAccount(workspaceId);
  const [open, setOpen] = useState(false);

  return (
    <SettingsPage
      title="WhatsApp accounts"
      description="The WhatsApp Business numbers your team chats and sends campaigns from."
      actions={
        isAdmin && (
          <Button onClick={() => setOpen(true)}>
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
                  <Button onClick={() => setOpen(true)}>
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
                  <TH title="WhatsApp Business Account ID">WABA ID</TH>
                  <TH>Phone number ID</TH>
                  <TH>App ID</TH>
                  <TH>Token</TH>
                  <TH>Connected</TH>
                  {isAdmin && <TH actions />}
                </tr>
              </THead>
              <TBody>
                {data.map((a) => (
                  <TR key={a.id}>
                    <TD className="font-medium">
                      <span className="flex items-center gap-2">
                        {a.phoneNumber}
                        <Badge tone="green">Connected</Badge>
                      </span>
                    </TD>
                    <TD className="font-mono text-xs text-fg-muted">{a.wabaAccountId}</TD>
                    <TD className="font-mono text-xs text-fg-muted">{a.phoneNumberId}</TD>
                    <TD className="font-mono text-xs text-fg-muted">{a.appId}</TD>
                    <TD className="font-mono text-xs text-fg-muted" aria-label="Token (masked)">
                      {a.token}
                    </TD>
                    <TD className="text-fg-muted">{formatDate(a.createdAt)}</TD>
                    {isAdmin && (
                      <TD actions>
                        <ConfirmDialog
                          title="Disconnect this number?"
                          description={`${a.phoneNumber} stops receiving and sending messages in Parley. Conversations stay.`}
                          confirmLabel="Disconnect"
                          onConfirm={() => remove.mutateAsync(a.id)}
                          deleteLabel={`Disconnect ${a.phoneNumber}`}
                        />
                      </TD>
                    )}
                  </TR>
                ))}
              </TBody>
            </Table>
          )}
        </QueryList>
      </Card>
      {isAdmin && <ConnectNumberDialog open={open} onOpenChange={setOpen} workspaceId={workspaceId} />}
    </SettingsPage>
  );
}

const AccountForm = CreateWhatsappBody.omit({ workspaceId: true });
type AccountForm = z.input<typeof AccountForm>;

export function ConnectNumberDialog({
  open,
  onOpenChange,
  workspaceId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  workspaceId: string;
}) {
  const create = useCreateWhatsappAccount(workspaceId);
  const form = useForm<AccountForm>({
    resolver: zodResolver(AccountForm),
    defaultValues: { phoneNumber: '', wabaAccountId: '', appId: '', phoneNumberId: '', token: '' },
  });
  const { errors } = form.formState;
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        onOpenChange(o);
        if (!o) form.reset();
      }}
    >
      <DialogContent
        title="Connect a WhatsApp number"
        description="From Meta's WhatsApp Manager: the number, its IDs and a system user permanent token."
        className="max-w-lg"
        footer={
          <>
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" form="connect-number" loading={create.isPending}>
              Connect number
            </Button>
          </>
        }
      >
        <form
          id="connect-number"
          noValidate
          className="grid grid-cols-2 gap-4"
          onSubmit={form.handleSubmit((values) =>
            create.mutate(
              { ...values, workspaceId },
              {
                onSuccess: () => {
                  onOpenChange(false);
                  form.reset();
                },
              },
            ),
          )}
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
        </form>
      </DialogContent>
    </Dialog>
  );
}
