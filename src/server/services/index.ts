import type { ServiceDeps } from './context';
import { authService } from './auth-service';
import { workspaceService } from './workspace-service';
import { automationService } from './automation-service';
import { audienceService } from './audience-service';
import { contactExport } from './contact-export';
import { contactService } from './contact-service';
import { teamService } from './team-service';
import { conversationService } from './conversation-service';
import { createGraphClient } from '../whatsapp/graph-client';
import { createChannel } from '../whatsapp/channel';
import { whatsappAccountService } from './whatsapp-account-service';
import { messageService } from './message-service';
import { templateService } from './template-service';
import { templateSync } from './template-sync';
import { numberHealth } from './number-health';
import { flowService } from './flow-service';
import { importService } from '../imports/import-service';
import { createOutbound } from '../messaging/outbound';
import { cannedReplyService } from './canned-reply-service';
import { mentionService } from './mention-service';
import { messageSearchService } from './message-search-service';
import { presenceService } from './presence-service';
import { webhookSetupService } from './webhook-setup-service';
import { routingService } from './routing-service';
import { botSessionRuntime } from '../bots/session-runtime';
import { createCampaignRunner } from '../campaigns/runner';
import { createProgress } from '../campaigns/events';
import { campaignService } from '../campaigns/campaign-service';
import { campaignResultsService } from '../campaigns/campaign-results-service';
import { campaignLogsService } from '../campaigns/campaign-logs-service';
import { campaignTriggerService } from '../campaigns/campaign-trigger-service';
import { campaignOptOutService } from '../campaigns/campaign-opt-out-service';
import { campaignSettingsService } from '../campaigns/campaign-settings-service';
import { uploadService } from './uploads';

export function buildServices(deps: ServiceDeps) {
  // The WhatsApp channel: one Graph client (GRAPH_API_URL) and the channel's shared parts (tokens, webhook job).
  const graph = createGraphClient({ baseUrl: deps.config.graphApiUrl, log: deps.log });
  // Issue 19 part B: committed inbound messages go to auto-assignment (routing, built below).
  // Issue 19 items 8 and 9: review webhooks of unknown templates sync them; quality webhooks refresh a number's health.
  const channel = createChannel(
    {
      ...deps,
      afterInbound: (ws, wamids) => routing.afterInbound(ws, wamids),
      afterUnknownTemplate: (accounts) => templatesSync.afterUnknownTemplate(accounts),
      afterQualityUpdate: (account, value) => health.afterQualityUpdate(account, value),
    },
    graph,
  );
  const templatesSync = templateSync(deps, channel, graph);
  const health = numberHealth(deps, channel, graph);
  // Every message Parley sends goes through this one path (src/server/messaging/outbound.ts).
  // Campaigns (issue 17): a send claimed longer than the lease without an outcome counts as unknown.
  const leaseMs = (deps.config.campaigns?.leaseSeconds ?? 300) * 1000;
  const outbound = createOutbound(deps, channel, graph, { inFlightMs: leaseMs });
  const conversations = conversationService(deps);
  const routing = routingService(deps, (ws, id, memberId) =>
    conversations.change(ws, { type: 'system' }, id, { assigneeMemberId: memberId, assigneeBotId: null }),
  );
  const campaignRunner = createCampaignRunner(deps, outbound, createProgress(deps), { leaseMs });
  return {
    channel,
    routing,
    outbound,
    whatsappAccounts: whatsappAccountService(deps, channel, graph, { templatesSync, health }),
    numberHealth: health,
    messages: messageService(deps, channel, outbound),
    templates: templateService(deps, channel, graph, templatesSync),
    flows: flowService(deps, channel, graph),
    deps,
    auth: authService(deps),
    workspaces: workspaceService(deps),
    automation: automationService(deps),
    audience: audienceService(deps),
    contactExport: contactExport(deps),
    contacts: contactService(deps),
    imports: importService(deps),
    team: teamService(deps),
    conversations,
    // issue 19 part A
    cannedReplies: cannedReplyService(deps),
    mentions: mentionService(deps),
    messageSearch: messageSearchService(deps),
    // issue 19 part B
    presence: presenceService(deps, channel),
    webhookSetup: webhookSetupService(deps),
    campaignRunner,
    // Issue 18: live bot sessions (src/server/bots/session-runtime.ts).
    bots: botSessionRuntime(deps, outbound),
    campaigns: campaignService(deps, campaignRunner),
    campaignResults: campaignResultsService(deps),
    campaignLogs: campaignLogsService(deps),
    campaignTriggers: campaignTriggerService(deps, campaignRunner),
    campaignOptOut: campaignOptOutService(deps),
    campaignSettings: campaignSettingsService(deps),
    uploads: uploadService(deps),
  };
}
export type Services = ReturnType<typeof buildServices>;
