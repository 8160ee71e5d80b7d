/** The import wizard's steps: the file, the column mapping, the progress and the outcome. */
import { toast } from 'sonner';
import { AlertTriangle, CheckCircle2, Download, FileUp, XCircle } from 'lucide-react';
import { useId } from 'react';
import type { Attribute, ImportHistory } from '@shared/schemas/entities';
import { Select } from '../../../components/ui/select';
import { cn } from '../../../lib/cn';
import { plural } from '../../../lib/format';
import { mediaHref, openFile } from '../utils/links';
import { type ColumnMapping, SKIP, builtInTargets } from '../utils/column-mapping';
import type { CsvPreview } from '../utils/csv-preview';

/** Picks the CSV (the file input or a drop); `readError` says why the last one could not be read. */
export function ImportFileStep({ onPick, readError }: { onPick: (file: File | undefined) => void; readError: string | null }) {
  const inputId = useId();
  return (
    <div>
      {/* The hidden input keeps the keyboard focus; the drop zone (its peer) shows the focus ring. */}
      <input id={inputId} type="file" accept=".csv,text/csv" className="peer sr-only" aria-label="CSV file" onChange={(e) => onPick(e.target.files?.[0])} />
      <label
        htmlFor={inputId}
        className="flex cursor-pointer flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed border-border-strong bg-subtle/50 px-6 py-12 text-center hover:border-accent hover:bg-accent-soft/40 peer-focus-visible:border-accent peer-focus-visible:ring-2 peer-focus-visible:ring-accent/50 peer-focus-visible:ring-offset-2 peer-focus-visible:ring-offset-surface"
        onDragOver={(e) => e.preventDefault()}
        onDrop={(e) => {
          e.preventDefault();
          onPick(e.dataTransfer.files[0]);
        }}
      >
        <FileUp className="size-8 text-accent" aria-hidden />
        <span className="text-[14px] font-medium text-fg">Choose a CSV file or drop it here</span>
        <span className="text-[12px] text-fg-muted">Columns such as phone, user_id, username, name, email and your attributes</span>
      </label>
      {readError && (
        <p role="alert" className="mt-3 text-[13px] text-danger">
          {readError}
        </p>
      )}
    </div>
  );
}

/** The column mapping step: each column of the CSV to phoneNumber, a WhatsApp user id or username, name, email, an attribute, or skipped. */
export function ColumnMapper({
  preview,
  attributes,
  mapping,
  onChange,
}: {
  preview: CsvPreview;
  attributes: Attribute[];
  mapping: ColumnMapping;
  onChange: (m: ColumnMapping) => void;
}) {
  const options = [
    { value: 'skip', label: 'Don’t import' },
    ...builtInTargets.map((t) => ({ value: t.value, label: t.label })),
    ...attributes.map((a) => ({ value: `attr:${a.name}`, label: `Attribute: ${a.name}` })),
  ];
  const toOption = (target: string) => (!target ? 'skip' : builtInTargets.some((t) => t.value === target) ? target : `attr:${target}`);
  const fromOption = (v: string) => (v === 'skip' ? SKIP : v.startsWith('attr:') ? v.slice(5) : v);
  const many = preview.columns.length > 3;
  return (
    <div>
    {many && (
      <p className="mb-1.5 text-[12px] text-fg-muted" id="mapping-scroll-hint">
        {preview.columns.length} columns: scroll sideways to map each of them.
      </p>
    )}
    <div
      className="scroll-cue-x overflow-x-auto rounded-lg border border-border"
      role="region"
      aria-label="Column mapping"
      aria-describedby={many ? 'mapping-scroll-hint' : undefined}
      // Focusable so the keyboard can scroll the columns sideways.
      tabIndex={0}
    >
      <table className="w-full border-separate border-spacing-0 text-[13px]">
        <thead className="bg-subtle">
          <tr>
            {preview.columns.map((col) => (
              <th key={col} scope="col" className="min-w-44 border-b border-border px-3 py-2 text-left align-top">
                <div className="mb-1.5 truncate text-[12px] font-semibold text-fg" title={col}>
                  {col}
                </div>
                <Select
                  aria-label={`Map column ${col}`}
                  value={toOption(mapping[col] ?? SKIP)}
                  onValueChange={(v) => onChange({ ...mapping, [col]: fromOption(v) })}
                  options={options}
                  className="font-normal whitespace-nowrap [&>span]:truncate"
                />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {preview.rows.map((row, i) => (
            <tr key={i}>
              {preview.columns.map((col, j) => (
                <td key={col} className={cn('max-w-56 truncate border-b border-border/60 px-3 py-1.5', !mapping[col] && 'text-fg-subtle')}>
                  {row[j] ?? ''}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
    </div>
  );
}

/** How far the import is (rows of the total; an indeterminate bar until the total is known). */
export function ProgressBar({ value, total }: { value: number; total: number }) {
  const pct = total > 0 ? Math.min(100, Math.round((value / total) * 100)) : 0;
  return (
    <div>
      <div
        role="progressbar"
        aria-label="Import progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={total > 0 ? pct : undefined}
        aria-valuetext={total > 0 ? `${value.toLocaleString()} of ${plural(total, 'row')}` : 'Starting'}
        className="h-2 overflow-hidden rounded-full bg-muted"
      >
        <div className={cn('h-full rounded-full bg-accent transition-[width]', total === 0 && 'w-1/3 animate-pulse')} style={total ? { width: `${pct}%` } : undefined} />
      </div>
      <p className="mt-1.5 text-[12px] text-fg-muted">
        {total > 0 ? `${value.toLocaleString()} of ${plural(total, 'row')} (${pct}%)` : 'Starting…'}
      </p>
    </div>
  );
}

/** The outcome: failed or finished, the counts, and the rejected rows' report when there is one. */
export function ImportOutcome({ h }: { h: ImportHistory }) {
  return (
    <div className="flex flex-col gap-4 py-1">
      {h.status === 'failed' ? (
        <p className="flex items-start gap-2 text-[14px] text-danger" role="status">
          <XCircle className="mt-0.5 size-5 shrink-0" aria-hidden /> The import failed{h.failureReason ? `: ${h.failureReason}` : '.'}
        </p>
      ) : (
        <p className="flex items-center gap-2 text-[14px] font-medium text-accent-text" role="status">
          <CheckCircle2 className="size-5" aria-hidden /> Import finished
        </p>
      )}
      <dl className="grid grid-cols-3 gap-3">
        {(
          [
            ['Created', h.createdCount],
            ['Updated', h.updatedCount],
            ['Rejected', h.rejectedCount],
          ] as const
        ).map(([label, n]) => (
          <div key={label} className="rounded-lg border border-border px-4 py-3">
            <dt className="text-[12px] text-fg-muted">{label}</dt>
            <dd className={cn('text-xl font-semibold tabular-nums', label === 'Rejected' && n ? 'text-danger' : 'text-fg')}>{(n ?? 0).toLocaleString()}</dd>
          </div>
        ))}
      </dl>
      {h.errorReportUrl && (
        <p className="flex items-center gap-2 text-[13px]">
          <AlertTriangle className="size-4 text-warning-text" aria-hidden />
          Some rows were rejected.
          <a href={mediaHref(h.errorReportUrl)}
            onClick={(e) => {
              e.preventDefault();
              openFile(h.errorReportUrl!, `${h.fileName.replace(/\.csv$/i, '')}-errors.csv`).catch((err: Error) => toast.error(err.message));
            }} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 font-medium text-accent-text underline-offset-4 hover:underline">
            <Download className="size-3.5" aria-hidden /> Download the error report
          </a>
        </p>
      )}
    </div>
  );
}
