/**
 * WhatsApp's customer-service window: a business may send free-form messages only within 24 hours of the
 * customer's last inbound message; outside it (or before the customer ever wrote) only approved templates.
 */
import type { Message } from '../../../../../shared/schemas/entities';

export const CUSTOMER_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The newest message the customer sent, from a list in chronological order. */
export function lastInboundAt(messages: readonly Pick<Message, 'creator' | 'createdAt'>[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].creator === 'user') return messages[i].createdAt;
  }
  return null;
}

export interface WindowState {
  open: boolean;
  /** When the window closes (open) or closed (null when the customer never wrote). */
  closesAt: Date | null;
}

export function customerWindow(lastInbound: string | null, now: Date = new Date()): WindowState {
  if (!lastInbound) return { open: false, closesAt: null };
  const closesAt = new Date(Date.parse(lastInbound) + CUSTOMER_WINDOW_MS);
  return { open: closesAt.getTime() > now.getTime(), closesAt };
}
