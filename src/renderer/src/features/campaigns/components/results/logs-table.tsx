import { useVirtualizer } from '@tanstack/react-virtual';
import { Download, ScrollText } from 'lucide-react';
import { useMemo, useRef } from 'react';
import type { CampaignOutcome } from '@shared/schemas/campaign-canvas';
import type { Campaign, CampaignLogEntry } from '@shared/schemas/entities';
import { Badge, type BadgeTone } from '../../../../components/ui/badge';
import { Button } from '../../../../components/ui/button';
import { Card, CardHeader } from '../../../../components/ui/card';
import { EmptyState, LoadErrorState } from '../../../../components/ui/empty-state';
import { NativeSelect } from '../../../../components/ui/input';
import { ListSkeleton } from '../../../../components/ui/skeleton';
import { Spinner } from '../../../../components/ui/spinner';
import { toastError } from '../../../../lib/api-client';
import { formatDateTime } from '../../../../lib/format';
import { useFetchNextPageNearEnd } from '../../../../lib/virtual-rows';
import { downloadCampaignLogs } from '../../api/export-campaign-logs';
import { useCampaignLogs } from '../../api/list-campaign-logs';
import { outcomeFilters } from './outcomes';

const ROW_HEIGHT = 44;
const stateTone: Record<CampaignLogEntry['deliveryState'], BadgeTone> = {
  pending: 'neutral',
  sent: 'neutral',
  delivered: 'blue',
  read: 'green',
  failed: 'red',
  unknown: 'amber',
  optedOut: 'amber',
  capped: 'amber',
};
const stateLabel: Record<CampaignLogEntry['deliveryState'], string> = {
  pending: 'Pending',
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
  failed: 'Failed',
  unknown: 'Unknown',
  optedOut: 'Opted out',
  capped: 'Capped by WhatsApp',
};
const columns = ['Phone number', 'Template', 'Status', 'Reason', 'Updated'];

/** The campaign's log lines: virtualised, a page at a time as the user scrolls, filtered by status, exportable. */
export function CampaignLogsTable({
  campaign,
  status,
  onStatus,
}: {
  campaign: Campaign;
  status: CampaignOutcome | undefined;
  onStatus: (s: CampaignOutcome | undefined) => void;
}) {
  const query = useCampaignLogs(campaign.id, status);
  const logs = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const parentRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: logs.length,
    getScrollElement: () => parentRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (i) => logs[i].id,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  useFetchNextPageNearEnd(query, items[items.length - 1]?.index ?? 0, logs.length, 30);
  const top = items[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);

  return (
    <Card>
      <CardHeader
        title="Logs"
        description="One line per recipient and send step, updated as WhatsApp reports delivery."
        actions={
          <>
            <NativeSelect aria-label="Filter logs by status" className="w-44" value={status ?? ''} onChange={(e) => onStatus((e.target.value || undefined) as CampaignOutcome | undefined)}>
              {outcomeFilters.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </NativeSelect>
            <Button
              variant="secondary"
              onClick={() => downloadCampaignLogs(campaign.id, status, `${campaign.name.replace(/[^\w.-]+/g, '-')}-logs${status ? `-${status}` : ''}.csv`).catch(toastError)}
            >
              <Download /> Export CSV
            </Button>
          </>
        }
      />
      {query.isPending ? (
        <ListSkeleton rows={6} label="Loading logs" />
      ) : query.isError ? (
        <LoadErrorState title="Logs could not be loaded" error={query.error} onRetry={() => void query.refetch()} />
      ) : logs.length === 0 ? (
        <EmptyState icon={ScrollText} title={status ? 'No log lines with this status' : 'No log lines yet'} description="Lines appear as messages are sent." />
      ) : (
        <div ref={parentRef} className="max-h-[480px] overflow-auto" data-testid="logs-scroller">
          <table className="w-full border-separate border-spacing-0 text-[13px]" aria-label="Campaign logs" aria-rowcount={logs.length + 1}>
            <thead className="sticky top-0 z-10 bg-surface">
              <tr>
                {columns.map((c) => (
                  <th key={c} scope="col" className="h-9 border-b border-border px-4 text-left text-[11px] font-medium tracking-wide text-fg-subtle uppercase">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {top > 0 && (
                <tr aria-hidden>
                  <td colSpan={columns.length} style={{ height: top, padding: 0 }} />
                </tr>
              )}
              {items.map((v) => {
                const l = logs[v.index];
                return (
                  <tr key={v.key} data-index={v.index} aria-rowindex={v.index + 2} style={{ height: ROW_HEIGHT }} className="hover:bg-subtle">
                    <td className="border-b border-border/70 px-4 font-mono text-[12.5px] whitespace-nowrap">{l.phoneNumber}</td>
                    <td className="border-b border-border/70 px-4">{l.templateName}</td>
                    <td className="border-b border-border/70 px-4">
                      <Badge tone={stateTone[l.deliveryState]}>{stateLabel[l.deliveryState]}</Badge>
                      {l.repliedAt && (
                        <Badge tone="green" className="ml-1">
                          Replied
                        </Badge>
                      )}
                    </td>
                    <td className="max-w-80 truncate border-b border-border/70 px-4 text-fg-muted" title={l.reason ?? undefined}>
                      {l.reason ? `${l.errorCode ? `${l.errorCode}: ` : ''}${l.reason}` : '—'}
                    </td>
                    <td className="border-b border-border/70 px-4 whitespace-nowrap text-fg-muted">{formatDateTime(l.updatedAt)}</td>
                  </tr>
                );
              })}
              {bottom > 0 && (
                <tr aria-hidden>
                  <td colSpan={columns.length} style={{ height: bottom, padding: 0 }} />
                </tr>
              )}
            </tbody>
          </table>
          {query.isFetchingNextPage && (
            <div className="flex justify-center py-3">
              <Spinner label="Loading more log lines" />
            </div>
          )}
        </div>
      )}
    </Card>
  );
}
