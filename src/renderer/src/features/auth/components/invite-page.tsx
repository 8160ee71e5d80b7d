import { PageHeader } from '../../../components/ui/card';

export function InvitePage() {
  return <PageHeader title="Invitation" />;
}
