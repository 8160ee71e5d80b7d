import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from '@tanstack/react-router';
import { Bot, Plus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { limits } from '@shared/limits';
import { messages } from '@shared/messages';
import { ListPage } from '../../../components/layout/list-page';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog, FormDialog } from '../../../components/ui/dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { TBody, TD, TH, THead, TR, Table } from '../../../components/ui/table';
import { formatDate, formatDateTime, plural } from '../../../lib/format';
import { useIsAdmin, useWorkspaceId } from '../../../lib/queries/session';
import { useWhatsappAccounts } from '../../../lib/queries/whatsapp-accounts';
import { useCreateBot } from '../api/create-bot';
import { useDeleteBot } from '../api/delete-bot';
import { useBots } from '../../../lib/queries/bots';

/** `/automation`: the workspace's bots. */
export function BotsPage() {
  const workspaceId = useWorkspaceId();
  const isAdmin = useIsAdmin();
  const bots = useBots(workspaceId);
  const accounts = useWhatsappAccounts(workspaceId);
  const remove = useDeleteBot(workspaceId);
  const [creating, setCreating] = useState(false);
  const phoneOf = (id: string | null) => (id ? (accounts.data?.find((a) => a.id === id)?.phoneNumber ?? '—') : 'Not connected');

  return (
    <>
      <ListPage
        title="Automation"
        description="Bots that answer customers on a WhatsApp number and hand over to your team."
        actions={
          isAdmin && (
            <Button onClick={() => setCreating(true)}>
              <Plus /> New bot
            </Button>
          )
        }
        query={bots}
        noun="bots"
        empty={
          <EmptyState
            icon={Bot}
            title="No bots yet"
            description="A bot greets customers, collects details and routes the conversation to the right person."
            action={isAdmin && <Button onClick={() => setCreating(true)}>New bot</Button>}
          />
        }
      >
        {(data) => (
          <Table aria-label="Bots">
            <THead>
              <tr>
                <TH>Bot</TH>
                <TH>Status</TH>
                <TH>Number</TH>
                <TH>Last deployed</TH>
                <TH>Created</TH>
                {isAdmin && <TH actions />}
              </tr>
            </THead>
            <TBody>
              {data.map((b) => (
                <TR key={b.id}>
                  <TD>
                    <Link to="/automation/$botId" params={{ botId: b.id }} className="font-medium hover:underline">
                      {b.title}
                    </Link>
                    <p className="text-xs text-fg-muted">{plural(b.rfInstance.nodes.length, 'step')}</p>
                  </TD>
                  <TD>{b.isActive ? <Badge tone="green">Active</Badge> : <Badge>Inactive</Badge>}</TD>
                  <TD className="text-fg-muted">{phoneOf(b.whatsappAccountId)}</TD>
                  <TD className="text-fg-muted">{formatDateTime(b.lastDeployedAt)}</TD>
                  <TD className="text-fg-muted">{formatDate(b.createdAt)}</TD>
                  {isAdmin && (
                    <TD actions>
                      <ConfirmDialog
                        title={`Delete ${b.title}?`}
                        description="Conversations it handles are left to your team."
                        onConfirm={() => remove.mutateAsync(b.id)}
                        deleteLabel={`Delete ${b.title}`}
                      />
                    </TD>
                  )}
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </ListPage>
      {creating && <CreateBotDialog workspaceId={workspaceId} onClose={() => setCreating(false)} />}
    </>
  );
}

const BotForm = z.object({ title: z.string().trim().min(1, { error: messages.fieldEmpty }).max(limits.text.title) });

function CreateBotDialog({ workspaceId, onClose }: { workspaceId: string; onClose: () => void }) {
  const create = useCreateBot(workspaceId);
  const navigate = useNavigate();
  const form = useForm<z.infer<typeof BotForm>>({ resolver: zodResolver(BotForm), defaultValues: { title: '' } });
  return (
    <FormDialog
      title="New bot"
      submitLabel="Create bot"
      pending={create.isPending}
      onClose={onClose}
      onSubmit={form.handleSubmit((v) =>
            create.mutate(
              { workspaceId, title: v.title },
              { onSuccess: (bot) => void navigate({ to: '/automation/$botId', params: { botId: bot.id } }) },
            ),
          )}
    >
      <FormField label="Name" error={form.formState.errors.title?.message}>
        <Input autoFocus placeholder="Order status helper" {...form.register('title')} />
      </FormField>
    </FormDialog>
  );
}
