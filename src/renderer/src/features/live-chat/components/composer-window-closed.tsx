/** Outside the 24-hour window WhatsApp accepts only an approved template: the composer says why and offers one. */
import { Clock } from 'lucide-react';
import { formatFull } from '../utils/format';
import type { WindowState } from '../utils/window';
import { TemplateSender } from './template-sender';

interface WindowClosedProps {
  conversationId: string;
  workspaceId: string;
  closesAt: WindowState['closesAt'];
  offline: string | null;
  onSent?: () => void;
}

export function WindowClosed({ conversationId, workspaceId, closesAt, offline, onSent }: WindowClosedProps) {
  if (offline) {
    return (
      <p role="status" className="px-4 py-3 text-[13px] text-fg-muted">
        {offline}. Templates can be sent once you are back online.
      </p>
    );
  }
  return (
    <div data-template-sender>
      <div role="status" className="mt-2 flex items-start gap-2.5 border-y border-border bg-warning-soft px-4 py-2.5 text-[13px] text-warning-text">
        <Clock className="mt-0.5 size-4 shrink-0" aria-hidden />
        <p>
          {closesAt ? (
            <>The 24-hour window closed on {formatFull(closesAt.toISOString())}: the customer last wrote more than 24 hours ago.</>
          ) : (
            <>This customer has not written to you yet, so no 24-hour window is open.</>
          )}{' '}
          WhatsApp only allows an approved template until they reply.
        </p>
      </div>
      <TemplateSender conversationId={conversationId} workspaceId={workspaceId} onSent={onSent} />
    </div>
  );
}
