/** Campaigns: drafts, the engine's state changes, results and logs, retargeting, settings, the recurring trigger. */
import { HttpError } from '../errors';
import type { Handlers } from '../http/types';
import type { Services } from '../http/services';
import { createKeyRateLimiter } from '../campaigns/trigger-keys';
import { sendCsv } from './csv-reply';

export function campaignRoutes(s: Services, triggerCallsPer10s: number) {
  const triggerRateLimit = createKeyRateLimiter(triggerCallsPer10s);
  return {
    listCampaigns: ({ ctx, query }) => s.automation.listCampaigns(ctx, query),
    getCampaign: ({ ctx, params }) => s.automation.getCampaign(ctx, params.campaignId),
    createCampaign: ({ ctx, body }) => s.automation.createCampaign(ctx, body),
    patchCampaign: ({ ctx, params, body }) => s.campaigns.patch(ctx, params.campaignId, body),
    deleteCampaign: ({ ctx, params }) => s.campaigns.remove(ctx, params.campaignId),
    deployCampaign: ({ ctx, params, body }) => s.campaigns.deploy(ctx, params.campaignId, body),
    pauseCampaign: ({ ctx, params, body }) => s.campaigns.pause(ctx, params.campaignId, body),
    resumeCampaign: ({ ctx, params }) => s.campaigns.resume(ctx, params.campaignId),
    cancelCampaignSchedule: ({ ctx, params }) => s.campaigns.cancelSchedule(ctx, params.campaignId),
    rotateCampaignTriggerKey: ({ ctx, params }) => s.campaigns.rotateTriggerKey(ctx, params.campaignId),

    getCampaignResults: ({ ctx, params }) => s.campaignResults.results(ctx, params.campaignId),
    retargetCampaign: ({ ctx, params, body }) => s.campaignResults.retarget(ctx, params.campaignId, body),
    listCampaignLogs: ({ ctx, params, query }) => s.campaignLogs.logs(ctx, params.campaignId, query),
    exportCampaignLogs: async ({ ctx, params, query, reply }) => sendCsv(reply, await s.campaignLogs.exportCsv(ctx, params.campaignId, query.status)),
    getCampaignSettings: ({ ctx }) => s.campaignSettings.settings(ctx),
    patchCampaignSettings: ({ ctx, body }) => s.campaignSettings.patchSettings(ctx, body),

    triggerOutbound: async ({ ctx, params, body, reply }) => {
      // Calls with a trigger key are rate-limited per key (429 with Retry-After beyond the limit), counted at the
      // moment each call arrived, not when its key's look-up finished.
      const wait = ctx.triggerKeyHash ? triggerRateLimit(ctx.triggerKeyHash, Date.now() - reply.elapsedTime) : 0;
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        throw new HttpError(429, `Too many calls with this trigger key; try again in ${wait} s`);
      }
      return s.campaignTriggers.trigger(ctx, params.campaignId, body);
    },
  } satisfies Partial<Handlers>;
}
