import { Badge, type BadgeTone } from '../../../components/ui/badge';

const tone: Record<string, BadgeTone> = { draft: 'neutral', scheduled: 'blue', active: 'green', inProgress: 'blue', paused: 'amber', completed: 'green' };
const label: Record<string, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  active: 'Active',
  inProgress: 'In progress',
  paused: 'Paused',
  completed: 'Completed',
};

export function CampaignStatusBadge({ status }: { status: string }) {
  return <Badge tone={tone[status] ?? 'neutral'}>{label[status] ?? status}</Badge>;
}
