import { toast } from 'sonner';
import { Download, FileSpreadsheet } from 'lucide-react';
import { useMemo } from 'react';
import type { ImportHistory } from '@shared/schemas/entities';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ListSkeleton } from '../../../components/ui/skeleton';
import { Table, TBody, TD, TH, THead, TR } from '../../../components/ui/table';
import { errorText } from '../../../lib/api-client';
import { useImportHistory } from '../api/import-history';
import { mediaHref, openFile } from '../utils/links';

const tones: Record<ImportHistory['status'], BadgeTone> = { pending: 'amber', completed: 'green', failed: 'red' };
const labels: Record<ImportHistory['status'], string> = { pending: 'Importing', completed: 'Completed', failed: 'Failed' };
const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Past and running imports with their outcome. */
export function ImportHistoryList({ workspaceId }: { workspaceId: string }) {
  const query = useImportHistory(workspaceId);
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  if (query.isPending) return <ListSkeleton rows={4} label="Loading imports" />;
  if (query.isError) return <EmptyState title="Imports could not be loaded" description={errorText(query.error)} />;
  if (!items.length) return <EmptyState icon={FileSpreadsheet} title="No imports yet" description="CSV imports and their results are listed here." />;
  return (
    <div className="min-h-0 flex-1 overflow-auto">
      <Table aria-label="Import history">
        <THead>
          <tr>
            <TH>File</TH>
            <TH>Status</TH>
            <TH className="text-right">Created</TH>
            <TH className="text-right">Updated</TH>
            <TH className="text-right">Rejected</TH>
            <TH>Started</TH>
            <TH>
              <span className="sr-only">Error report</span>
            </TH>
          </tr>
        </THead>
        <TBody>
          {items.map((h) => (
            <TR key={h.id}>
              <TD className="font-medium">
                <span className="inline-flex items-center gap-2">
                  <FileSpreadsheet className="size-4 text-fg-subtle" aria-hidden />
                  {h.fileName}
                </span>
              </TD>
              <TD>
                <Badge tone={tones[h.status]} title={h.failureReason ?? undefined}>
                  {labels[h.status]}
                </Badge>
                {h.status === 'failed' && h.failureReason && <span className="ml-2 text-[12px] text-fg-muted">{h.failureReason}</span>}
              </TD>
              <TD className="text-right tabular-nums">{h.createdCount?.toLocaleString() ?? '—'}</TD>
              <TD className="text-right tabular-nums">{h.updatedCount?.toLocaleString() ?? '—'}</TD>
              <TD className="text-right tabular-nums">{h.rejectedCount?.toLocaleString() ?? '—'}</TD>
              <TD className="whitespace-nowrap text-fg-muted">{when.format(new Date(h.createdAt))}</TD>
              <TD className="text-right">
                {h.errorReportUrl && (
                  <a
                    href={mediaHref(h.errorReportUrl)}
                  onClick={(e) => {
                    e.preventDefault();
                    openFile(h.errorReportUrl!, `${h.fileName.replace(/\.csv$/i, '')}-errors.csv`).catch((err: Error) => toast.error(err.message));
                  }}
                    target="_blank"
                    rel="noreferrer"
                    className="inline-flex items-center gap-1 text-[12px] font-medium text-accent-text hover:underline"
                  >
                    <Download className="size-3.5" aria-hidden /> Error report
                  </a>
                )}
              </TD>
            </TR>
          ))}
        </TBody>
      </Table>
      {query.hasNextPage && (
        <div className="flex justify-center py-3">
          <Button variant="secondary" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
            Load more
          </Button>
        </div>
      )}
    </div>
  );
}
