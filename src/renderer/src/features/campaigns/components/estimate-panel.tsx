import { AlertTriangle } from 'lucide-react';
import { Skeleton } from '../../../components/ui/skeleton';
import { errorText } from '../../../lib/api-client';
import { useCampaignEstimate } from '../api/get-campaign-estimate';

const number = new Intl.NumberFormat();
const money = (amount: number, currency: string) =>
  new Intl.NumberFormat(undefined, { style: 'currency', currency, maximumFractionDigits: 4 }).format(amount);
const regionName = new Intl.DisplayNames(undefined, { type: 'region' });
const countryName = (code: string | null) => (code ? (regionName.of(code) ?? code) : 'Unknown country');

/** Before deploy: what the campaign will cost by its recipients' countries, and what the admin should know. */
export function EstimatePanel({ campaignId }: { campaignId: string }) {
  const estimate = useCampaignEstimate(campaignId);
  if (estimate.isError) return <p className="text-[13px] text-fg-muted">The estimate could not be read: {errorText(estimate.error)}</p>;
  const e = estimate.data;
  if (!e) return <Skeleton className="h-16 w-full" />;
  return (
    <section aria-label="Estimated cost" className="flex flex-col gap-2 text-[13px]" data-testid="campaign-estimate">
      {e.warnings.length > 0 && (
        // The live region wraps the list: a role on the <ul> itself would take away its list semantics.
        <div role="status" className="rounded-md bg-warning-soft p-3 text-warning-text">
          <ul className="flex flex-col gap-1">
            {e.warnings.map((w) => (
              <li key={w} className="flex gap-1.5">
                <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
                {w}
              </li>
            ))}
          </ul>
        </div>
      )}
      {e.recipients !== null && (
        <p>
          <span className="font-medium">Estimated cost: </span>
          {e.costs.length ? e.costs.map((c) => money(c.amount, c.currency)).join(' + ') : '–'}
          {' · '}
          {number.format(e.recipients)} recipients
          {e.unpriced > 0 && `, ${number.format(e.unpriced)} without a price`}
        </p>
      )}
      {e.byCountry.length > 0 && e.rateCard && (
        <table className="w-full">
          <thead className="text-fg-subtle">
            <tr>
              <th className="text-left font-normal">Country</th>
              <th className="text-left font-normal">Rate card market</th>
              <th className="text-right font-normal">Recipients</th>
              <th className="text-right font-normal">Cost</th>
            </tr>
          </thead>
          <tbody>
            {e.byCountry.slice(0, 8).map((c) => (
              <tr key={c.country ?? '?'}>
                <td>{countryName(c.country)}</td>
                <td>{c.market ?? '–'}</td>
                <td className="text-right tabular-nums">{number.format(c.recipients)}</td>
                <td className="text-right tabular-nums">{c.cost === null || !c.currency ? 'no price' : money(c.cost, c.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
