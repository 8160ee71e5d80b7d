/** The 24-hour customer-service window (rules in src/shared/customer-window.ts) from a conversation's messages. */
import type { Message } from '@shared/schemas/entities';

export { type WindowState, customerWindow } from '@shared/customer-window';

/** The newest message the customer sent, from a list in chronological order. */
export function lastInboundAt(messages: readonly Pick<Message, 'creator' | 'createdAt'>[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].creator === 'user') return messages[i].createdAt;
  }
  return null;
}
