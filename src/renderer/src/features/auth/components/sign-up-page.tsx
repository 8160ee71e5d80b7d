import { PageHeader } from '../../../components/ui/card';

export function SignUpPage() {
  return <PageHeader title="Create your account" />;
}
