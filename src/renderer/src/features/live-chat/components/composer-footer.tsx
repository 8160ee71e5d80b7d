/** Under the composer's text: unfilled canned-reply variables, the hint (or the error) and the length counter. */
import { TriangleAlert } from 'lucide-react';
import { limits } from '@shared/limits';
import { cn } from '../../../lib/cn';
import type { WindowState } from '../utils/window';

/** The counter shows once a message gets this close to WhatsApp's limit. */
export const COUNTER_FROM = limits.whatsappTextMax - 500;

function relative(closesAt: Date, now = new Date()): string {
  const mins = Math.round((closesAt.getTime() - now.getTime()) / 60_000);
  if (mins < 60) return `${mins} min`;
  return `${Math.floor(mins / 60)} h ${mins % 60} min`;
}

interface FooterProps {
  note: boolean;
  length: number;
  unfilled: string[];
  error?: string;
  offline: string | null;
  closesAt: WindowState['closesAt'];
}

export function ComposerFooter({ note, length, unfilled, error, offline, closesAt }: FooterProps) {
  const over = length > limits.whatsappTextMax;
  return (
    <>
      {unfilled.length > 0 && (
        <p role="status" className="mt-1.5 flex items-center gap-1.5 text-[12px] text-warning-text" data-testid="canned-missing">
          <TriangleAlert className="size-3.5 shrink-0" aria-hidden />
          This contact has no value for {unfilled.map((v) => `{{${v}}}`).join(', ')}: replace it before sending.
        </p>
      )}
      <div className="mt-1.5 flex items-start gap-3">
        <p id="composer-hint" className="min-w-0 flex-1 text-[11px] text-fg-subtle">
          {error ? (
            <span role="alert" className="text-danger">
              {error}
            </span>
          ) : offline ? (
            <span data-testid="composer-offline">{offline}. What you type is kept as a draft.</span>
          ) : note ? (
            <>Only your team sees notes · Enter to add, Shift+Enter for a new line</>
          ) : (
            <>
              Enter to send, Shift+Enter for a new line · / for canned replies · window open for {closesAt ? relative(closesAt) : ''}
            </>
          )}
        </p>
        {length >= COUNTER_FROM && (
          <p id="composer-count" className={cn('shrink-0 text-[11px] tabular-nums', over ? 'font-medium text-danger' : 'text-fg-muted')}>
            {length.toLocaleString('en-US')} / {limits.whatsappTextMax.toLocaleString('en-US')}
            <span className="sr-only"> characters</span>
          </p>
        )}
      </div>
    </>
  );
}
