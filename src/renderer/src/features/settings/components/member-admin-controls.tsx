import { UserMinus } from 'lucide-react';
import type { MemberProfile } from '@shared/schemas/auth';
import { Role } from '@shared/schemas/common';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { Select } from '../../../components/ui/select';
import { useRemoveMember } from '../api/remove-member';
import { useUpdateMemberRole } from '../api/update-member-role';

const roleOptions = [
  { value: 'agent', label: 'Agent' },
  { value: 'admin', label: 'Admin' },
] as const;

const nameOf = (m: MemberProfile) => m.displayName || m.email || 'This member';

/** Why the only admin's controls are disabled (the server refuses with 409 too). */
export const lastAdminExplanation = 'The only admin: make another member admin first.';
const explanationId = (m: MemberProfile) => `last-admin-${m.id}`;

/**
 * An admin's role select for one member. The only admin's is disabled, with the reason under it (a disabled
 * control gets no hover or focus, so a tooltip would never show).
 */
export function MemberRoleSelect({ member, workspaceId, myMemberId, lastAdmin }: { member: MemberProfile; workspaceId: string; myMemberId: string; lastAdmin: boolean }) {
  const update = useUpdateMemberRole(workspaceId, myMemberId);
  return (
    <div className="flex w-40 flex-col gap-1 py-1.5">
      <Select
        aria-label={`Role of ${nameOf(member)}`}
        aria-describedby={lastAdmin ? explanationId(member) : undefined}
        className="w-28"
        value={member.role}
        options={roleOptions}
        disabled={lastAdmin || update.isPending}
        onValueChange={(value) => {
          const role = Role.parse(value);
          if (role === member.role) return;
          update.mutate({ memberId: member.id, role }, { onSuccess: () => toast.success(`${nameOf(member)} is now ${role === 'admin' ? 'an admin' : 'an agent'}`) });
        }}
      />
      {lastAdmin && (
        <p id={explanationId(member)} className="text-xs leading-snug whitespace-normal text-fg-muted">
          {lastAdminExplanation}
        </p>
      )}
    </div>
  );
}

/** Remove from the workspace, after a confirmation that says what happens to the member's conversations. */
export function RemoveMemberButton({ member, workspaceId, lastAdmin }: { member: MemberProfile; workspaceId: string; lastAdmin: boolean }) {
  const remove = useRemoveMember(workspaceId);
  const label = `Remove ${nameOf(member)}`;
  if (lastAdmin) {
    return (
      <Button variant="ghost" size="icon-sm" aria-label={label} aria-describedby={explanationId(member)} disabled>
        <UserMinus />
      </Button>
    );
  }
  return (
    <ConfirmDialog
      title={`Remove ${nameOf(member)}?`}
      description={`${nameOf(member)} loses access to this workspace at once. Their open conversations go back to the queue, unassigned. You can invite them again later.`}
      confirmLabel="Remove member"
      trigger={
        <Button variant="ghost" size="icon-sm" aria-label={label}>
          <UserMinus />
        </Button>
      }
      onConfirm={() => remove.mutateAsync(member.id).then(() => toast.success(`${nameOf(member)} was removed from the workspace`))}
    />
  );
}
