/**
 * Campaigns' handler of the inbound pipeline (registered at the composition root): replies and opt-out after
 * inbound messages commit, and the campaign log lines following their messages' statuses inside the statuses'
 * transaction (inbound-hooks.ts).
 */
import type { ServiceDeps } from '../services/context';
import type { InboundHandler } from '../whatsapp/inbound-pipeline';
import { campaignInboundCommitted, campaignStatusesApplied } from './inbound-hooks';

export function campaignsInboundHandler(d: Pick<ServiceDeps, 'db' | 'jobs' | 'log'>): InboundHandler {
  return {
    failureMessage: 'campaign opt-out and reply handling of inbound messages failed',
    onMessagesStored: (workspaceId, { items }) => campaignInboundCommitted(d, workspaceId, items),
    // The whole batch in one call: one statement per round of statuses, not one per status.
    onStatuses: (tx, workspaceId, statuses) => campaignStatusesApplied(tx, workspaceId, statuses),
  };
}
