/**
 * What each message costs: the `pricing` object of its status webhooks (`billable`, `pricing_model`,
 * `category`, `type`) is stored on the message, inside the statuses' transaction. It is stored whatever the
 * status does: a `sent` arriving after `read` moves no status but still brings the price.
 */
import type { StoredPricing } from '../db/schema';
import { storePricing } from '../repositories/message-pricing';
import type { AppliedStatus, InboundHandler } from './inbound-pipeline';

/** Of one message's statuses with pricing in a batch, the latest (a later one in the list wins a tie). */
function latestPricing(statuses: AppliedStatus[]): { wamid: string; pricing: StoredPricing }[] {
  const byWamid = new Map<string, StoredPricing>();
  for (const s of statuses) {
    if (!s.pricing) continue;
    const p = s.pricing.value;
    const stored: StoredPricing = {
      billable: p.billable ?? null,
      pricingModel: p.pricing_model ?? null,
      category: p.category ?? null,
      type: p.type ?? null,
      at: s.pricing.at,
    };
    const seen = byWamid.get(s.wamid);
    if (!seen || seen.at <= stored.at) byWamid.set(s.wamid, stored);
  }
  return [...byWamid].map(([wamid, pricing]) => ({ wamid, pricing }));
}

export function messagePricingHandler(): InboundHandler {
  return {
    failureMessage: 'storing the pricing of statuses failed',
    onStatuses: (tx, workspaceId, statuses) => storePricing(tx, workspaceId, latestPricing(statuses)),
  };
}
