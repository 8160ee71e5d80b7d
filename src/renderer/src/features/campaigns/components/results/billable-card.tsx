import type { CampaignResults } from '@shared/schemas/entities';
import { Card, CardHeader } from '../../../../components/ui/card';
import { Skeleton } from '../../../../components/ui/skeleton';

const number = new Intl.NumberFormat();

/** Meta's pricing categories as a team reads them. */
const categoryLabels: Record<string, string> = {
  marketing: 'Marketing',
  marketing_lite: 'Marketing (Marketing Messages API)',
  utility: 'Utility',
  authentication: 'Authentication',
  'authentication-international': 'Authentication (international)',
  service: 'Service',
  referral_conversion: 'Referral conversion',
};

/** The campaign's messages Meta bills, by pricing category, as their status webhooks said. */
export function BillableCard({ billable }: { billable: CampaignResults['billable'] | undefined }) {
  const total = billable?.reduce((n, b) => n + b.messages, 0) ?? 0;
  return (
    <Card>
      <CardHeader title="Billable messages" description="What Meta bills for, by pricing category, from the status updates of each message." />
      <div className="p-4 text-[13px]" data-testid="billable-messages">
        {!billable ? (
          <Skeleton className="h-6 w-48" />
        ) : billable.length === 0 ? (
          <p className="text-fg-muted">No billable message yet.</p>
        ) : (
          <table className="w-full max-w-md">
            <tbody>
              {billable.map((b) => (
                <tr key={b.category}>
                  <th scope="row" className="py-1 text-left font-normal">
                    {categoryLabels[b.category] ?? b.category}
                  </th>
                  <td className="py-1 text-right tabular-nums">{number.format(b.messages)}</td>
                </tr>
              ))}
              <tr className="border-t border-border font-medium">
                <th scope="row" className="py-1 text-left">
                  Total
                </th>
                <td className="py-1 text-right tabular-nums">{number.format(total)}</td>
              </tr>
            </tbody>
          </table>
        )}
      </div>
    </Card>
  );
}
