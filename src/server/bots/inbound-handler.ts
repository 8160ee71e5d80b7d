/** Bots' handler of the inbound pipeline (registered at the composition root): inbound-hook.ts after a commit. */
import type { ServiceDeps } from '../services/context';
import type { InboundHandler } from '../whatsapp/inbound-pipeline';
import { botsInboundCommitted } from './inbound-hook';

export function botsInboundHandler(d: ServiceDeps): InboundHandler {
  return {
    failureMessage: 'bot handling of inbound messages failed',
    onMessagesStored: (workspaceId, { items }) => botsInboundCommitted(d, workspaceId, items),
  };
}
