import { zodResolver } from '@hookform/resolvers/zod';
import { MessageSquareText, Pencil, Plus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { cannedReplyVariables } from '@shared/canned-replies';
import { type CannedReply, CreateCannedReplyBody } from '@shared/schemas/agent-tools';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog, FormDialog } from '../../../components/ui/dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { FormField } from '../../../components/ui/form-field';
import { Input, Textarea } from '../../../components/ui/input';
import { QueryList } from '../../../components/ui/query-list';
import { TBody, TD, TH, THead, TR, Table } from '../../../components/ui/table';
import { useMember, useRole, useWorkspaceId } from '../../../lib/queries/session';
import { useCannedReplies, useDeleteCannedReply, useSaveCannedReply } from '../api/canned-replies';

const Form = CreateCannedReplyBody.omit({ workspaceId: true });
type FormIn = z.input<typeof Form>;
type FormOut = z.output<typeof Form>;

/**
 * `/settings/canned-replies`: the workspace's replies (admins add, change and delete them) and the
 * member's own. In the composer, `/` and the shortcut insert one, with `{{name}}` and attributes filled in.
 */
export function CannedRepliesPage() {
  const workspaceId = useWorkspaceId();
  const admin = useRole() === 'admin';
  const me = useMember();
  const replies = useCannedReplies(workspaceId);
  const remove = useDeleteCannedReply(workspaceId);
  const [editing, setEditing] = useState<CannedReply | 'new' | null>(null);
  const mayEdit = (r: CannedReply) => (r.scope === 'workspace' ? admin : r.memberId === me.id);

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-5 p-6">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-xl font-semibold text-fg">Canned replies</h1>
          <p className="mt-1 max-w-2xl text-[13px] text-fg-muted">
            Saved answers: type <kbd className="rounded bg-subtle px-1">/</kbd> and the shortcut in a reply. <code>{'{{name}}'}</code> and any
            attribute, such as <code>{'{{city}}'}</code>, are filled from the contact. {admin ? 'Workspace replies are for everyone; personal ones only for you.' : 'Admins manage the workspace replies; yours are personal.'}
          </p>
        </div>
        <Button onClick={() => setEditing('new')}>
          <Plus /> New canned reply
        </Button>
      </header>
      <Card>
        <QueryList
          query={replies}
          noun="canned replies"
          empty={
            <EmptyState
              icon={MessageSquareText}
              title="No canned replies yet"
              description="Save the answers you give every day, e.g. /shipping: Hi {{name}}, your order ships within 24 hours."
              action={<Button onClick={() => setEditing('new')}>New canned reply</Button>}
            />
          }
        >
          {(data) => (
            <Table aria-label="Canned replies">
              <THead>
                <tr>
                  <TH>Shortcut</TH>
                  <TH>Text</TH>
                  <TH>For</TH>
                  <TH actions />
                </tr>
              </THead>
              <TBody>
                {data.map((r) => (
                  <TR key={r.id}>
                    <TD className="font-medium whitespace-nowrap">/{r.shortcut}</TD>
                    <TD className="max-w-md truncate text-fg-muted" title={r.text}>
                      {r.text}
                    </TD>
                    <TD>
                      <Badge tone={r.scope === 'workspace' ? 'green' : 'neutral'}>{r.scope === 'workspace' ? 'Workspace' : 'Only me'}</Badge>
                    </TD>
                    <TD actions>
                      {mayEdit(r) && (
                        <div className="flex justify-end gap-1">
                          <Button variant="ghost" size="icon-sm" aria-label={`Edit /${r.shortcut}`} onClick={() => setEditing(r)}>
                            <Pencil />
                          </Button>
                          <ConfirmDialog
                            title={`Delete /${r.shortcut}?`}
                            description={r.scope === 'workspace' ? 'Nobody in the workspace will have it any more.' : 'It is gone for you.'}
                            onConfirm={() => remove.mutateAsync(r.id)}
                            deleteLabel={`Delete /${r.shortcut}`}
                          />
                        </div>
                      )}
                    </TD>
                  </TR>
                ))}
              </TBody>
            </Table>
          )}
        </QueryList>
      </Card>
      {editing && <CannedReplyDialog workspaceId={workspaceId} admin={admin} reply={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </div>
  );
}

function CannedReplyDialog({ workspaceId, admin, reply, onClose }: { workspaceId: string; admin: boolean; reply: CannedReply | null; onClose: () => void }) {
  const save = useSaveCannedReply(workspaceId);
  const form = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(Form),
    defaultValues: { scope: reply?.scope ?? (admin ? 'workspace' : 'personal'), shortcut: reply?.shortcut ?? '', text: reply?.text ?? '' },
  });
  const { errors } = form.formState;
  const variables = cannedReplyVariables(form.watch('text') ?? '');
  return (
    <FormDialog
      title={reply ? `Edit /${reply.shortcut}` : 'New canned reply'}
      submitLabel="Save"
      pending={save.isPending}
      onClose={onClose}
      onSubmit={form.handleSubmit((body) => save.mutate({ id: reply?.id, body }, { onSuccess: onClose }))}
    >
      <FormField label="Shortcut" error={errors.shortcut?.message} hint="Typed after / in the composer: letters, digits, - and _">
        <Input {...form.register('shortcut')} placeholder="shipping" autoComplete="off" />
      </FormField>
      <FormField
        label="Text"
        error={errors.text?.message}
        hint={variables.length > 0 ? `Filled from the contact: ${variables.map((v) => `{{${v}}}`).join(', ')}` : 'Use {{name}} or any attribute, e.g. {{city}}'}
      >
        <Textarea {...form.register('text')} rows={5} placeholder="Hi {{name}}, your order ships within 24 hours." />
      </FormField>
      {!reply && (
        <fieldset className="flex flex-col gap-1.5">
          <legend className="mb-1 text-[13px] font-medium text-fg">For</legend>
          <label className="flex items-center gap-2 text-[13px] text-fg">
            <input type="radio" value="workspace" disabled={!admin} {...form.register('scope')} /> Everyone in the workspace{!admin && ' (admins only)'}
          </label>
          <label className="flex items-center gap-2 text-[13px] text-fg">
            <input type="radio" value="personal" {...form.register('scope')} /> Only me
          </label>
        </fieldset>
      )}
    </FormDialog>
  );
}
