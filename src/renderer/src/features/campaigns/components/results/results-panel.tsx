import { useNavigate } from '@tanstack/react-router';
import { Crosshair } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { CampaignOutcome } from '@shared/schemas/campaign-canvas';
import type { Campaign, CampaignCounts } from '@shared/schemas/entities';
import { Button } from '../../../../components/ui/button';
import { Card, CardHeader } from '../../../../components/ui/card';
import { LoadErrorState } from '../../../../components/ui/empty-state';
import { Skeleton } from '../../../../components/ui/skeleton';
import { cn } from '../../../../lib/cn';
import { useIsAdmin } from '../../../../lib/queries/session';
import { useCampaignResults } from '../../api/get-campaign-results';
import { BillableCard } from './billable-card';
import { CampaignLogsTable } from './logs-table';
import { countTiles } from './outcomes';
import { RetargetDialog } from './retarget-dialog';

/** New counts (an event or a poll) mean changed log lines: the loaded log pages are read again. */
function useLogsFollowCounts(campaignId: string, counts: CampaignCounts | undefined) {
  const qc = useQueryClient();
  const key = counts ? JSON.stringify(counts) : '';
  const last = useRef(key);
  useEffect(() => {
    if (!key || key === last.current) return;
    const first = !last.current;
    last.current = key;
    if (!first) void qc.invalidateQueries({ queryKey: ['campaign', campaignId, 'logs'] });
  }, [key, campaignId, qc]);
}

const ResultsChart = lazy(() => import('./results-chart'));
const number = new Intl.NumberFormat();

/** A campaign's results: its counts (each filters the logs and can be retargeted), the chart and the logs. */
export function CampaignResultsPanel({ campaign }: { campaign: Campaign }) {
  const running = campaign.status === 'inProgress' || campaign.status === 'active';
  const results = useCampaignResults(campaign.id, running);
  useLogsFollowCounts(campaign.id, results.data?.counts);
  const [status, setStatus] = useState<CampaignOutcome | undefined>(undefined);
  const [retarget, setRetarget] = useState<CampaignOutcome | null>(null);
  const isAdmin = useIsAdmin();
  const navigate = useNavigate();

  if (results.isError) return <LoadErrorState title="Results could not be loaded" error={results.error} onRetry={() => void results.refetch()} />;
  return (
    <div className="flex flex-col gap-4">
      <CountTiles
        counts={results.data?.counts}
        active={status}
        onFilter={(o) => setStatus((cur) => (cur === o ? undefined : o))}
        onRetarget={isAdmin ? setRetarget : undefined}
      />
      <Card>
        <CardHeader title="Messages over time" description="Sent, delivered, read and failed, as status updates arrive." />
        <div className="h-64 p-4" data-testid="results-chart">
          {results.data ? (
            results.data.timeline.length ? (
              <Suspense fallback={<Skeleton className="h-full w-full" />}>
                <ResultsChart timeline={results.data.timeline} />
              </Suspense>
            ) : (
              <p className="flex h-full items-center justify-center text-[13px] text-fg-muted">Nothing sent yet.</p>
            )
          ) : (
            <Skeleton className="h-full w-full" />
          )}
        </div>
      </Card>
      <BillableCard billable={results.data?.billable} />
      <CampaignLogsTable campaign={campaign} status={status} onStatus={setStatus} />
      {retarget && (
        <RetargetDialog
          campaign={campaign}
          outcome={retarget}
          onClose={() => setRetarget(null)}
          onCreated={(c) => {
            toast.success(`${c.name} is ready: finish its steps and deploy`);
            void navigate({ to: '/campaigns/$campaignId', params: { campaignId: c.id } });
          }}
        />
      )}
    </div>
  );
}

function CountTiles({
  counts,
  active,
  onFilter,
  onRetarget,
}: {
  counts: CampaignCounts | undefined;
  active: CampaignOutcome | undefined;
  onFilter: (o: CampaignOutcome) => void;
  onRetarget?: (o: CampaignOutcome) => void;
}) {
  return (
    <ul className="grid grid-cols-4 gap-2 xl:grid-cols-8" aria-label="Campaign counts">
      {countTiles.map((t) => {
        const value = counts?.[t.key];
        return (
          <li key={t.key} className={cn('rounded-xl border bg-surface p-3 shadow-xs', active && active === t.outcome ? 'border-accent' : 'border-border')}>
            <div className="text-[11px] font-medium tracking-wide text-fg-subtle uppercase" title={t.hint}>
              {t.label}
            </div>
            {t.outcome ? (
              <button
                type="button"
                className="mt-0.5 rounded text-xl font-semibold tabular-nums hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent/50"
                aria-label={`${t.label}: ${value ?? 0}. Show these logs`}
                aria-pressed={active === t.outcome}
                onClick={() => onFilter(t.outcome!)}
                data-testid={`count-${t.key}`}
              >
                {value === undefined ? '–' : number.format(value)}
              </button>
            ) : (
              <div className="mt-0.5 text-xl font-semibold tabular-nums" data-testid={`count-${t.key}`}>
                {value === undefined ? '–' : number.format(value)}
              </div>
            )}
            {onRetarget && t.outcome && !!value && (
              <Button variant="link" size="sm" className="mt-0.5 text-[11px]" onClick={() => onRetarget(t.outcome!)} aria-label={`Retarget ${t.label.toLowerCase()}`}>
                <Crosshair className="h-3 w-3" /> Retarget
              </Button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
