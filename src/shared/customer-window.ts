/**
 * WhatsApp's customer-service window: a business may send free-form messages only within 24 hours of the
 * customer's last inbound message; outside it (or before the customer ever wrote) only approved templates.
 * The server refuses a send outside it; the renderer shows whether it is open and when it closes.
 */

export const CUSTOMER_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface WindowState {
  open: boolean;
  /** When the window closes (open) or closed (null when the customer never wrote). */
  closesAt: Date | null;
}

/** The window after the customer's last inbound message (a Date, an ISO string, or none yet). */
export function customerWindow(lastInbound: Date | string | null | undefined, now: Date = new Date()): WindowState {
  if (!lastInbound) return { open: false, closesAt: null };
  const closesAt = new Date(new Date(lastInbound).getTime() + CUSTOMER_WINDOW_MS);
  return { open: closesAt.getTime() > now.getTime(), closesAt };
}
