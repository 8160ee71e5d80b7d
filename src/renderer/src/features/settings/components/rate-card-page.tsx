import { useRef } from 'react';
import { toast } from 'sonner';
import type { RateCard } from '@shared/schemas/entities';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { QueryList } from '../../../components/ui/query-list';
import { errorText } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useIsAdmin, useWorkspaceId } from '../../../lib/queries/session';
import { useRateCard, useUploadRateCard } from '../api/rate-card';
import { SettingsPage } from './settings-page';

const price = (n: number | null) => (n === null ? '–' : String(n));

/** `/settings/pricing`: the rate card campaigns are estimated with, and its upload (admins). */
export function RateCardPage() {
  const workspaceId = useWorkspaceId();
  const card = useRateCard(workspaceId);
  return (
    <SettingsPage
      title="Pricing"
      description="Meta's rate card: what a template message costs per market and category. Campaigns show their estimated cost from it before deploy."
    >
      <QueryList query={card} noun="rate card" isEmpty={() => false}>
        {(data) => <RateCardCard workspaceId={workspaceId} rateCard={data.rateCard} />}
      </QueryList>
    </SettingsPage>
  );
}

function RateCardCard({ workspaceId, rateCard }: { workspaceId: string; rateCard: RateCard | null }) {
  const isAdmin = useIsAdmin();
  const upload = useUploadRateCard(workspaceId);
  const input = useRef<HTMLInputElement>(null);
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    upload.mutate(
      { fileName: file.name, content: await file.text() },
      {
        onSuccess: (saved) => toast.success(`Rate card ${saved.fileName} uploaded: ${saved.rates.length} markets`),
        onError: (err) => toast.error(`Rate card not uploaded: ${errorText(err)}`),
      },
    );
    if (input.current) input.current.value = '';
  };
  return (
    <Card>
      <CardHeader
        title={rateCard ? rateCard.fileName : 'No rate card yet'}
        description={
          rateCard
            ? `Uploaded ${formatDateTime(rateCard.uploadedAt)}. A CSV with the columns market, currency, marketing, utility, authentication; "Other" prices every country without a row.`
            : 'Upload the CSV Meta publishes (columns market, currency, marketing, utility, authentication).'
        }
      />
      <div className="flex flex-col gap-3 p-4 text-[13px]">
        {isAdmin && (
          <div>
            <input ref={input} type="file" accept=".csv,text/csv" className="sr-only" aria-label="Rate card CSV file" onChange={(e) => void onFile(e.target.files?.[0])} />
            <Button loading={upload.isPending} onClick={() => input.current?.click()}>
              {rateCard ? 'Replace rate card' : 'Upload rate card'}
            </Button>
          </div>
        )}
        {rateCard && rateCard.ignoredMarkets.length > 0 && (
          <p className="text-fg-muted" role="note">
            Markets that name no country, ignored (their countries take the "Other" row): {rateCard.ignoredMarkets.join(', ')}
          </p>
        )}
        {rateCard && (
          <table className="w-full" aria-label="Rates">
            <thead className="text-fg-subtle">
              <tr>
                <th className="text-left font-normal">Market</th>
                <th className="text-left font-normal">Currency</th>
                <th className="text-right font-normal">Marketing</th>
                <th className="text-right font-normal">Utility</th>
                <th className="text-right font-normal">Authentication</th>
              </tr>
            </thead>
            <tbody>
              {rateCard.rates.map((r) => (
                <tr key={r.market}>
                  <td>{r.market}</td>
                  <td>{r.currency}</td>
                  <td className="text-right tabular-nums">{price(r.marketing)}</td>
                  <td className="text-right tabular-nums">{price(r.utility)}</td>
                  <td className="text-right tabular-nums">{price(r.authentication)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </Card>
  );
}
