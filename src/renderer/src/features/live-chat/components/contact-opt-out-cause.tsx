/** How and when a contact opted out of Parley's campaigns, shown under the opt-out badge of the contact panel. */
import type { Contact } from '@shared/schemas/entities';
import { formatDate } from '../../../lib/format';
import { useMemberDirectory } from '../../../lib/queries/session';

const sourceLabels = {
  keyword: 'Sent an opt-out keyword',
  template_button: "Tapped the template's opt-out button",
  member: 'Opted out by hand',
} as const;

export function ContactOptOutCause({ optOut }: { optOut: NonNullable<Contact['optOut']> }) {
  const { byId } = useMemberDirectory();
  const member = optOut.memberId ? byId.get(optOut.memberId) : undefined;
  const who = member ? ` by ${member.displayName ?? member.email ?? 'a team member'}` : '';
  return (
    <p className="mt-1 text-[12px] text-fg-muted">
      {sourceLabels[optOut.source]}
      {optOut.source === 'member' ? who : ''} · {formatDate(optOut.at)}
    </p>
  );
}
