/**
 * What the HTTP layer is handed: every service and engine the composition root (src/server/app/services.ts)
 * builds. Types only, so routes depend on what they call, never on the place that builds it.
 */
import type { ServiceDeps } from '../services/context';
import type { Channel } from '../whatsapp/channel';
import type { InboundPipeline } from '../whatsapp/inbound-pipeline';
import type { Outbound } from '../messaging/outbound';
import type { authService } from '../services/auth-service';
import type { workspaceService } from '../services/workspace-service';
import type { automationService } from '../automation/automation-service';
import type { botSettingsService } from '../bots/bot-settings';
import type { audienceService } from '../services/audience-service';
import type { contactExport } from '../services/contact-export';
import type { contactService } from '../services/contact-service';
import type { teamService } from '../services/team-service';
import type { conversationService } from '../services/conversation-service';
import type { whatsappAccountService } from '../services/whatsapp-account-service';
import type { messageService } from '../services/message-service';
import type { templateService } from '../services/template-service';
import type { NumberHealth } from '../services/number-health';
import type { flowService } from '../services/flow-service';
import type { cannedReplyService } from '../services/canned-reply-service';
import type { mentionService } from '../services/mention-service';
import type { messageSearchService } from '../services/message-search-service';
import type { presenceService } from '../services/presence-service';
import type { webhookSetupService } from '../services/webhook-setup-service';
import type { routingService } from '../services/routing-service';
import type { importService } from '../imports/import-service';
import type { BotSessionRuntime } from '../bots/session-runtime';
import type { CampaignRunner } from '../campaigns/runner';
import type { CampaignService } from '../campaigns/campaign-service';
import type { campaignResultsService } from '../campaigns/campaign-results-service';
import type { campaignLogsService } from '../campaigns/campaign-logs-service';
import type { campaignTriggerService } from '../campaigns/campaign-trigger-service';
import type { campaignOptOutService } from '../campaigns/campaign-opt-out-service';
import type { campaignSettingsService } from '../campaigns/campaign-settings-service';
import type { uploadService } from '../services/uploads';
import type { rateCardService } from '../services/rate-card-service';
import type { campaignEstimateService } from '../campaigns/campaign-estimate-service';

type Of<F extends (...args: never[]) => unknown> = ReturnType<F>;

export interface Services {
  deps: ServiceDeps;
  channel: Channel;
  /** Webhook deliveries, verified and queued, through their handlers (the `whatsapp.webhook` job). */
  inbound: InboundPipeline;
  outbound: Outbound;
  routing: Of<typeof routingService>;
  whatsappAccounts: Of<typeof whatsappAccountService>;
  numberHealth: NumberHealth;
  messages: Of<typeof messageService>;
  templates: Of<typeof templateService>;
  flows: Of<typeof flowService>;
  auth: Of<typeof authService>;
  workspaces: Of<typeof workspaceService>;
  automation: Of<typeof automationService>;
  audience: Of<typeof audienceService>;
  contactExport: Of<typeof contactExport>;
  contacts: Of<typeof contactService>;
  imports: Of<typeof importService>;
  team: Of<typeof teamService>;
  conversations: Of<typeof conversationService>;
  cannedReplies: Of<typeof cannedReplyService>;
  mentions: Of<typeof mentionService>;
  messageSearch: Of<typeof messageSearchService>;
  presence: Of<typeof presenceService>;
  webhookSetup: Of<typeof webhookSetupService>;
  campaignRunner: CampaignRunner;
  bots: BotSessionRuntime;
  botSettings: Of<typeof botSettingsService>;
  campaigns: CampaignService;
  campaignResults: Of<typeof campaignResultsService>;
  campaignLogs: Of<typeof campaignLogsService>;
  campaignTriggers: Of<typeof campaignTriggerService>;
  campaignOptOut: Of<typeof campaignOptOutService>;
  campaignSettings: Of<typeof campaignSettingsService>;
  uploads: Of<typeof uploadService>;
  rateCards: Of<typeof rateCardService>;
  campaignEstimates: Of<typeof campaignEstimateService>;
}
