import { PageHeader } from '../../../components/ui/card';

export function SegmentsPage() {
  return <PageHeader title="Segments" />;
}
