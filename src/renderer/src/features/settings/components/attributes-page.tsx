import { PageHeader } from '../../../components/ui/card';

export function AttributesPage() {
  return <PageHeader title="Attributes" />;
}
