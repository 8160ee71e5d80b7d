import { PageHeader } from '../../../components/ui/card';

export function WhatsappAccountsPage() {
  return <PageHeader title="WhatsApp accounts" />;
}
