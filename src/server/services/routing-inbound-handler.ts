/**
 * Auto-assignment's handler of the inbound pipeline (registered at the composition root): the messages this run
 * stored go to routing-service.ts.
 */
import type { InboundHandler } from '../whatsapp/inbound-pipeline';

export function routingInboundHandler(routing: { afterInbound(workspaceId: string, wamids: string[]): Promise<unknown> }): InboundHandler {
  return {
    failureMessage: 'auto-assignment failed',
    async onMessagesStored(workspaceId, { stored }) {
      if (stored.size > 0) await routing.afterInbound(workspaceId, [...stored]);
    },
  };
}
