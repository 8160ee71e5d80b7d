import { zodResolver } from '@hookform/resolvers/zod';
import { Copy, MailPlus, Users } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { Email, type MemberProfile } from '@shared/schemas/auth';
import { Role } from '@shared/schemas/common';
import { Avatar } from '../../../components/ui/avatar';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ConfirmDialog, FormDialog } from '../../../components/ui/dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { SelectField } from '../../../components/ui/select-field';
import { QueryList } from '../../../components/ui/query-list';
import { TBody, TD, TH, THead, TR, Table } from '../../../components/ui/table';
import { formatDate } from '../../../lib/format';
import { useIsAdmin, useMember, useWorkspaceId } from '../../../lib/queries/session';
import { useCreateInvitee } from '../api/create-invitee';
import { useDeleteInvitee } from '../api/delete-invitee';
import { useInvitees } from '../api/get-invitees';
import { useMembers } from '../api/get-members';
import { SettingsPage } from './settings-page';
import { useMemberRouting, usePatchMemberRouting } from '../api/member-routing';
import { Switch } from '../../../components/ui/switch';
import { MemberRoleSelect, RemoveMemberButton } from './member-admin-controls';

/** `/settings/members`: who is in the workspace, and (admins) open invitations. */
export function MembersPage() {
  const workspaceId = useWorkspaceId();
  const me = useMember();
  const isAdmin = useIsAdmin();
  const members = useMembers(workspaceId);
  const invitees = useInvitees(workspaceId, isAdmin);
  const revoke = useDeleteInvitee(workspaceId);
  const [inviting, setInviting] = useState(false);

  return (
    <SettingsPage
      title="Members"
      description="Admins manage settings, templates, campaigns, bots and members; agents work the inbox and the audience."
      actions={
        isAdmin && (
          <Button onClick={() => setInviting(true)}>
            <MailPlus /> Invite member
          </Button>
        )
      }
    >
      <Card>
        <QueryList query={members} noun="members">
          {(data) => <MembersTable members={data} workspaceId={workspaceId} myMemberId={me.id} isAdmin={isAdmin} />}
        </QueryList>
      </Card>

      {isAdmin && (
        <Card className="mt-6">
          <CardHeader title="Open invitations" description="Invitations not yet accepted. Revoking one makes its link stop working." />
          <QueryList
            query={invitees}
            noun="invitations"
            rows={2}
            isEmpty={(data) => data.filter((i) => !i.used).length === 0}
            empty={
              <EmptyState icon={Users} title="No open invitations" description="Invite teammates by email; they get a link to join." />
            }
          >
            {(data) => (
              <Table aria-label="Open invitations">
                <THead>
                  <tr>
                    <TH>Email</TH>
                    <TH>Role</TH>
                    <TH>Invited</TH>
                    <TH actions />
                  </tr>
                </THead>
                <TBody>
                  {data
                    .filter((i) => !i.used)
                    .map((i) => (
                      <TR key={i.id}>
                        <TD className="font-medium">{i.email}</TD>
                        <TD>
                          <Badge tone={i.role === 'admin' ? 'blue' : 'neutral'} className="capitalize">
                            {i.role}
                          </Badge>
                        </TD>
                        <TD className="text-fg-muted">{formatDate(i.createdAt)}</TD>
                        <TD actions>
                          <div className="flex justify-end gap-0.5">
                            <Button
                              variant="ghost"
                              size="icon-sm"
                              aria-label={`Copy invitation link for ${i.email}`}
                              onClick={async () => {
                                await navigator.clipboard?.writeText(`${window.location.origin}/invite/${i.id}`);
                                toast.success('Invitation link copied');
                              }}
                            >
                              <Copy />
                            </Button>
                            <ConfirmDialog
                              title="Revoke this invitation?"
                              description={`${i.email} will no longer be able to join with the link they received.`}
                              confirmLabel="Revoke"
                              onConfirm={() => revoke.mutateAsync(i.id)}
                              deleteLabel={`Revoke invitation for ${i.email}`}
                            />
                          </div>
                        </TD>
                      </TR>
                    ))}
                </TBody>
              </Table>
            )}
          </QueryList>
        </Card>
      )}
      {isAdmin && inviting && <InviteDialog workspaceId={workspaceId} onClose={() => setInviting(false)} />}
    </SettingsPage>
  );
}

/**
 * The members with their role and auto-assignment availability; admins also change roles and remove members
 * (the only admin's controls are disabled: a workspace keeps at least one admin).
 */
function MembersTable({ members, workspaceId, myMemberId, isAdmin }: { members: MemberProfile[]; workspaceId: string; myMemberId: string; isAdmin: boolean }) {
  const routing = useMemberRouting(workspaceId);
  const patchRouting = usePatchMemberRouting(workspaceId);
  const routingOf = (id: string) => routing.data?.find((r) => r.memberId === id);
  const adminCount = members.filter((m) => m.role === 'admin').length;
  return (
    <Table aria-label="Members">
      <THead>
        <tr>
          <TH>Member</TH>
          <TH>Role</TH>
          {/* Below 1280 px the join date gives way: the role, last sign-in and availability are what an admin acts on. */}
          <TH className="hidden xl:table-cell">Joined</TH>
          <TH>Last sign-in</TH>
          <TH title="Takes automatically assigned conversations, round-robin, up to the capacity">Available</TH>
          {isAdmin && <TH actions />}
        </tr>
      </THead>
      <TBody>
        {members.map((m) => {
          const lastAdmin = m.role === 'admin' && adminCount === 1;
          return (
            <TR key={m.id}>
              <TD>
                <div className="flex items-center gap-3">
                  <Avatar name={m.displayName || m.email} src={m.photoURL} className="size-8" />
                  <div className="max-w-52 min-w-0 xl:max-w-72">
                    <p className="truncate font-medium">
                      {m.displayName || m.email}
                      {m.id === myMemberId && <span className="ml-2 text-xs font-normal text-fg-subtle">(you)</span>}
                    </p>
                    {m.displayName && <p className="truncate text-xs text-fg-muted" title={m.email ?? undefined}>{m.email}</p>}
                  </div>
                </div>
              </TD>
              <TD>
                {isAdmin ? (
                  <MemberRoleSelect member={m} workspaceId={workspaceId} myMemberId={myMemberId} lastAdmin={lastAdmin} />
                ) : (
                  <Badge tone={m.role === 'admin' ? 'blue' : 'neutral'} className="capitalize">
                    {m.role}
                  </Badge>
                )}
              </TD>
              <TD className="hidden text-fg-muted xl:table-cell">{formatDate(m.createdAt)}</TD>
              <TD className="text-fg-muted">{formatDate(m.metadata.lastSignInTime)}</TD>
              <TD>
                <div className="flex items-center gap-2">
                  <Switch
                    aria-label={`${m.displayName || m.email} takes new conversations`}
                    checked={routingOf(m.id)?.available ?? false}
                    disabled={!routing.data || (m.id !== myMemberId && !isAdmin)}
                    onCheckedChange={(on) => patchRouting.mutate({ memberId: m.id, available: on })}
                  />
                  {routingOf(m.id) && <span className="text-xs text-fg-muted tabular-nums">up to {routingOf(m.id)!.chatCapacity}</span>}
                </div>
              </TD>
              {isAdmin && (
                <TD actions>
                  <div className="flex justify-end">
                    {/* Leaving is not removing someone: no Remove on one's own row. */}
                    {m.id !== myMemberId && <RemoveMemberButton member={m} workspaceId={workspaceId} lastAdmin={lastAdmin} />}
                  </div>
                </TD>
              )}
            </TR>
          );
        })}
      </TBody>
    </Table>
  );
}

const InviteForm = z.object({ email: Email, role: Role });
type InviteForm = z.infer<typeof InviteForm>;

export function InviteDialog({ workspaceId, onClose }: { workspaceId: string; onClose: () => void }) {
  const invite = useCreateInvitee(workspaceId);
  const form = useForm<InviteForm>({ resolver: zodResolver(InviteForm), defaultValues: { email: '', role: 'agent' } });
  const { errors } = form.formState;
  return (
    <FormDialog
      title="Invite a member"
      description="They receive an email with a link to join this workspace."
      submitLabel="Send invitation"
      pending={invite.isPending}
      onClose={onClose}
      onSubmit={form.handleSubmit((v) =>
            invite.mutate(
              { ...v, workspaceId },
              {
                onSuccess: () => {
                  toast.success(`Invitation sent to ${v.email}`);
                  onClose();
                },
              },
            ),
          )}
    >
      <FormField label="Email" error={errors.email?.message}>
        <Input type="email" autoFocus placeholder="teammate@company.com" {...form.register('email')} />
      </FormField>
      <SelectField
        control={form.control}
        name="role"
        label="Role"
        hint={(role) => (role === 'admin' ? 'Can change settings, templates, campaigns and bots.' : 'Works the inbox and the audience.')}
        options={[
          { value: 'agent', label: 'Agent' },
          { value: 'admin', label: 'Admin' },
        ]}
      />
    </FormDialog>
  );
}
