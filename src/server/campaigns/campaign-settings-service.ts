/** The workspace's campaign settings: time zone (send windows), opt-out keywords and the confirmation sent. */
import type { z } from 'zod';
import type { CampaignSettings } from '../../shared/schemas/entities';
import type { CampaignSettingsBody } from '../../shared/schemas/requests';
import { campaignSettingsOf, setCampaignSettings } from '../repositories/campaign-settings';
import type { WorkspaceContext } from '../services/caller';
import type { ServiceDeps } from '../services/context';

export function campaignSettingsService(d: Pick<ServiceDeps, 'db'>) {
  const ex = () => d.db.db;
  return {
    async settings(ctx: WorkspaceContext): Promise<CampaignSettings> {
      return campaignSettingsOf(ex(), ctx.workspaceId);
    },
    async patchSettings(ctx: WorkspaceContext, body: z.output<typeof CampaignSettingsBody>): Promise<CampaignSettings> {
      await setCampaignSettings(ex(), ctx.workspaceId, {
        ...(body.optOutKeywords && { optOutKeywords: [...new Set(body.optOutKeywords.map((k) => k.toUpperCase()))] }),
        ...(body.timeZone && { timeZone: body.timeZone }),
        ...(body.optOutConfirmation !== undefined && { optOutConfirmation: body.optOutConfirmation }),
        ...(body.skipUsMarketing !== undefined && { skipUsMarketing: body.skipUsMarketing }),
      });
      return campaignSettingsOf(ex(), ctx.workspaceId);
    },
  };
}
