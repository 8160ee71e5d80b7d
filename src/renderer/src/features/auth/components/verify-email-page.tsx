import { PageHeader } from '../../../components/ui/card';

export function VerifyEmailPage() {
  return <PageHeader title="Verify your email" />;
}
