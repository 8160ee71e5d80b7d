import { PageHeader } from '../../../components/ui/card';

export function TemplatesPage() {
  return <PageHeader title="Templates" />;
}
