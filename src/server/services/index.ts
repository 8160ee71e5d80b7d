import type { ServiceDeps } from './context';
import { authService } from './auth-service';
import { workspaceService } from './workspace-service';
import { automationService } from './automation-service';
import { audienceService } from './audience-service';
import { teamService } from './team-service';
import { conversationService } from './conversation-service';
import { createGraphClient } from '../whatsapp/graph-client';
import { createChannel } from '../whatsapp/channel';
import { whatsappAccountService } from './whatsapp-account-service';
import { messageService } from './message-service';
import { templateService } from './template-service';
import { flowService } from './flow-service';
import { importService } from '../imports/import-service';
import { createOutbound } from '../messaging/outbound';
import { botSessionRuntime } from '../bots/session-runtime';
import { createCampaignRunner } from '../campaigns/runner';
import { createProgress } from '../campaigns/events';
import { campaignService } from '../campaigns/campaign-service';
import { campaignDataService } from '../campaigns/campaign-data-service';

export function buildServices(deps: ServiceDeps) {
  // The WhatsApp channel: one Graph client (GRAPH_API_URL) and the channel's shared parts (tokens, webhook job).
  const graph = createGraphClient({ baseUrl: deps.config.graphApiUrl, log: deps.log });
  const channel = createChannel(deps, graph);
  // Every message Parley sends goes through this one path (src/server/messaging/outbound.ts).
  // Campaigns (issue 17): a send claimed longer than the lease without an outcome counts as unknown.
  const leaseMs = (deps.config.campaigns?.leaseSeconds ?? 300) * 1000;
  const outbound = createOutbound(deps, channel, graph, { inFlightMs: leaseMs });
  const campaignRunner = createCampaignRunner(deps, outbound, createProgress(deps), { leaseMs });
  return {
    channel,
    outbound,
    whatsappAccounts: whatsappAccountService(deps, channel, graph),
    messages: messageService(deps, channel, outbound),
    templates: templateService(deps, channel, graph),
    flows: flowService(deps, channel, graph),
    deps,
    auth: authService(deps),
    workspaces: workspaceService(deps),
    automation: automationService(deps),
    audience: audienceService(deps),
    imports: importService(deps),
    team: teamService(deps),
    conversations: conversationService(deps),
    campaignRunner,
    // Issue 18: live bot sessions (src/server/bots/session-runtime.ts).
    bots: botSessionRuntime(deps, outbound),
    campaigns: campaignService(deps, campaignRunner),
    campaignData: campaignDataService(deps, campaignRunner),
  };
}
export type Services = ReturnType<typeof buildServices>;
