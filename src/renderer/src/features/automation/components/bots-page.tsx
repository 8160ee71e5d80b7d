import { PageHeader } from '../../../components/ui/card';

export function BotsPage() {
  return <PageHeader title="Automation" />;
}
