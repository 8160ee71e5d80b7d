import { PageHeader } from '../../../components/ui/card';

export function CampaignsPage() {
  return <PageHeader title="Campaigns" />;
}
