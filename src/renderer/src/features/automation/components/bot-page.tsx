import { PageHeader } from '../../../components/ui/card';

export function BotPage() {
  return <PageHeader title="Bot" />;
}
