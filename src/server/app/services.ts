/**
 * Builds every service and engine, each handed what it uses: the WhatsApp channel and its Graph client, the one
 * outbound path, the inbound pipeline with its handlers, the services the routes call, campaigns and bots.
 */
import type { Services } from '../http/services';
import type { ServiceDeps } from '../services/context';
import { authService } from '../services/auth-service';
import { workspaceService } from '../services/workspace-service';
import { automationService } from '../automation/automation-service';
import { audienceService } from '../services/audience-service';
import { contactExport } from '../services/contact-export';
import { contactService } from '../services/contact-service';
import { teamService } from '../services/team-service';
import { conversationService } from '../services/conversation-service';
import { whatsappAccountService } from '../services/whatsapp-account-service';
import { messageService } from '../services/message-service';
import { templateService } from '../services/template-service';
import { templateSync } from '../services/template-sync';
import { numberHealth } from '../services/number-health';
import { flowService } from '../services/flow-service';
import { cannedReplyService } from '../services/canned-reply-service';
import { mentionService } from '../services/mention-service';
import { messageSearchService } from '../services/message-search-service';
import { presenceService } from '../services/presence-service';
import { webhookSetupService } from '../services/webhook-setup-service';
import { routingService } from '../services/routing-service';
import { createGraphClient } from '../whatsapp/graph-client';
import { createChannel } from '../whatsapp/channel';
import { createOutbound } from '../messaging/outbound';
import { importService } from '../imports/import-service';
import { botSessionRuntime } from '../bots/session-runtime';
import { botSettingsService } from '../bots/bot-settings';
import { createCampaignRunner } from '../campaigns/runner';
import { createProgress } from '../campaigns/events';
import { campaignService } from '../campaigns/campaign-service';
import { buildInboundPipeline } from './inbound';
import { campaignResultsService } from '../campaigns/campaign-results-service';
import { campaignLogsService } from '../campaigns/campaign-logs-service';
import { campaignEstimateService } from '../campaigns/campaign-estimate-service';
import { rateCardService } from '../services/rate-card-service';
import { campaignTriggerService } from '../campaigns/campaign-trigger-service';
import { campaignOptOutService } from '../campaigns/campaign-opt-out-service';
import { campaignSettingsService } from '../campaigns/campaign-settings-service';
import { uploadService } from '../services/uploads';

export function buildServices(deps: ServiceDeps): Services {
  // The WhatsApp channel: one Graph client (GRAPH_API_URL) and the channel's shared parts (tokens, webhook job).
  const graph = createGraphClient({ baseUrl: deps.config.graphApiUrl, log: deps.log, metrics: deps.metrics });
  const channel = createChannel(deps, graph);
  const templatesSync = templateSync(deps, channel, graph);
  const health = numberHealth(deps, channel, graph);
  // Every message Parley sends goes through this one path (src/server/messaging/outbound.ts).
  // A campaign send claimed longer than the lease without an outcome counts as unknown.
  const leaseMs = (deps.config.campaigns?.leaseSeconds ?? 20) * 1000;
  const outbound = createOutbound(deps, channel, graph, { inFlightMs: leaseMs });
  const conversations = conversationService(deps);
  const routing = routingService(deps, (ws, id, memberId) =>
    conversations.change(ws, { type: 'system' }, id, { assigneeMemberId: memberId, assigneeBotId: null }),
  );
  // Committed inbound messages go to auto-assignment; review webhooks of unknown templates sync them; quality
  // webhooks refresh a number's health.
  const inbound = buildInboundPipeline({
    ...deps,
    media: channel.media,
    afterInbound: (ws, wamids) => routing.afterInbound(ws, wamids),
    afterUnknownTemplate: (accounts) => templatesSync.afterUnknownTemplate(accounts),
    afterQualityUpdate: (account, value) => health.afterQualityUpdate(account, value),
  });
  const campaignRunner = createCampaignRunner(deps, outbound, createProgress(deps), { leaseMs });
  return {
    deps,
    channel,
    inbound,
    routing,
    outbound,
    whatsappAccounts: whatsappAccountService(deps, channel, graph, { templatesSync, health }),
    numberHealth: health,
    messages: messageService(deps, channel, outbound),
    templates: templateService(deps, channel, graph, templatesSync),
    flows: flowService(deps, channel, graph),
    auth: authService(deps),
    workspaces: workspaceService(deps),
    automation: automationService(deps),
    audience: audienceService(deps),
    contactExport: contactExport(deps),
    contacts: contactService(deps),
    imports: importService(deps),
    team: teamService(deps),
    conversations,
    cannedReplies: cannedReplyService(deps),
    mentions: mentionService(deps),
    messageSearch: messageSearchService(deps),
    presence: presenceService(deps, channel),
    webhookSetup: webhookSetupService(deps),
    campaignRunner,
    // Live bot sessions (src/server/bots/session-runtime.ts).
    bots: botSessionRuntime(deps, outbound),
    botSettings: botSettingsService(deps),
    campaigns: campaignService(deps, campaignRunner),
    campaignResults: campaignResultsService(deps),
    campaignLogs: campaignLogsService(deps),
    campaignTriggers: campaignTriggerService(deps, campaignRunner),
    campaignOptOut: campaignOptOutService(deps),
    campaignSettings: campaignSettingsService(deps),
    uploads: uploadService(deps),
    rateCards: rateCardService(deps),
    campaignEstimates: campaignEstimateService(deps),
  };
}
