import { PageHeader } from '../../../components/ui/card';

export function ProfilePage() {
  return <PageHeader title="Profile" />;
}
