import { PageHeader } from '../../../components/ui/card';

export function SettingsIndexPage() {
  return <PageHeader title="Settings" />;
}
