import { PageHeader } from '../../../components/ui/card';

export function CampaignPage() {
  return <PageHeader title="Campaign" />;
}
