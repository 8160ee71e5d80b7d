/** What messages cost: the workspace's rate card and a campaign's estimate before deploy. */
import type { Handlers } from '../http/types';
import type { Services } from '../http/services';

export function pricingRoutes(s: Services) {
  return {
    getRateCard: ({ ctx }) => s.rateCards.get(ctx),
    uploadRateCard: ({ ctx, body }) => s.rateCards.upload(ctx, body),
    getCampaignEstimate: ({ ctx, params }) => s.campaignEstimates.estimate(ctx, params.campaignId),
  } satisfies Partial<Handlers>;
}
