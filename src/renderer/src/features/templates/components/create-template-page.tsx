import { PageHeader } from '../../../components/ui/card';

export function CreateTemplatePage() {
  return <PageHeader title="New template" />;
}
