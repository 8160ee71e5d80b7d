import { PageHeader } from '../../../components/ui/card';

export function LoginPage() {
  return <PageHeader title="Sign in" />;
}
