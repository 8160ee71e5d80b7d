import { AlertCircle, Check, CheckCheck, Clock } from 'lucide-react';
import type { Message } from '@shared/schemas/entities';
import { cn } from '../../../lib/cn';

const labels: Record<Message['status'], string> = {
  pending: 'Sending',
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
  failed: 'Not delivered',
  received: 'Received',
};

/** WhatsApp-style delivery state of an outbound message: ✓ sent, ✓✓ delivered, blue ✓✓ read, failed with reason. */
export function DeliveryTicks({ status, failureReason, className }: Pick<Message, 'status' | 'failureReason'> & { className?: string }) {
  if (status === 'received') return null;
  const label = status === 'failed' && failureReason ? `${labels.failed}: ${failureReason}` : labels[status];
  const common = cn('inline-block size-3.5 shrink-0', className);
  return (
    <span role="img" aria-label={label} title={label} data-status={status} className="inline-flex items-center">
      {status === 'pending' && <Clock className={cn(common, 'size-3 text-fg-subtle')} aria-hidden />}
      {status === 'sent' && <Check className={cn(common, 'text-fg-subtle')} aria-hidden />}
      {status === 'delivered' && <CheckCheck className={cn(common, 'text-fg-subtle')} aria-hidden />}
      {status === 'read' && <CheckCheck className={cn(common, 'text-sky-500 dark:text-sky-400')} aria-hidden />}
      {status === 'failed' && <AlertCircle className={cn(common, 'text-danger')} aria-hidden />}
    </span>
  );
}
