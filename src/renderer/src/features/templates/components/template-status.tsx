import { Badge, type BadgeTone } from '../../../components/ui/badge';

const tones: Record<string, BadgeTone> = {
  APPROVED: 'green',
  PENDING: 'amber',
  IN_APPEAL: 'amber',
  REJECTED: 'red',
  DISABLED: 'red',
  PAUSED: 'blue',
};

/** Template review state as WhatsApp reports it (a free string: unknown ones show neutral). */
export function TemplateStatusBadge({ status }: { status: string }) {
  const label = status.charAt(0) + status.slice(1).toLowerCase().replace(/_/g, ' ');
  return <Badge tone={tones[status.toUpperCase()] ?? 'neutral'}>{label}</Badge>;
}
