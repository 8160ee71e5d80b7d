import { PageHeader } from '../../../components/ui/card';

export function ForgotPasswordPage() {
  return <PageHeader title="Reset your password" />;
}
