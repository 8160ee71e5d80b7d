import { PageHeader } from '../../../components/ui/card';

export function MembersPage() {
  return <PageHeader title="Members" />;
}
