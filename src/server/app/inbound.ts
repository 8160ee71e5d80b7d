/**
 * The inbound pipeline's registrations: one handler per webhook field, and the handlers of the messages field's
 * batches. A new webhook field is one handler module and one line in `fields` below.
 */
import type { ServiceDeps } from '../services/context';
import { routingInboundHandler } from '../services/routing-inbound-handler';
import { campaignsInboundHandler } from '../campaigns/inbound-handler';
import { botsInboundHandler } from '../bots/inbound-handler';
import { createInboundPipeline, type FieldHandler, type InboundHandler, type InboundPipeline } from '../whatsapp/inbound-pipeline';
import { type MediaDownloader, messageContents } from '../whatsapp/inbound-contents';
import { inboundMessages } from '../whatsapp/inbound-messages';
import { messagePricingHandler } from '../whatsapp/message-pricing';
import { type TemplateReviewsDeps, templateReviews } from '../whatsapp/template-reviews';
import { type NumberQualityDeps, numberQuality } from '../whatsapp/number-quality';
import { templateCategoryUpdates, templateQualityUpdates } from '../whatsapp/template-changes';
import { marketingRefusals, userPreferences } from '../whatsapp/user-preferences';
import { systemMessages } from '../whatsapp/system-messages';
import { userIdUpdates } from '../whatsapp/user-id-updates';
import { messageEchoes } from '../whatsapp/message-echoes';

/** The services' deps, the Graph media downloader, and the services the handlers report to. */
export type InboundDeps = ServiceDeps & {
  media?: MediaDownloader;
  /** Auto-assignment of the messages a run stored (services/routing-service.ts). */
  afterInbound?: (workspaceId: string, wamids: string[]) => Promise<unknown>;
  afterUnknownTemplate?: TemplateReviewsDeps['afterUnknownTemplate'];
  afterQualityUpdate?: NumberQualityDeps['afterQualityUpdate'];
};

export function buildInboundPipeline(d: InboundDeps): InboundPipeline {
  // After a workspace's messages commit, in this order: campaigns (replies, opt-out), bots, auto-assignment.
  // Inside the statuses' transaction: Meta's marketing stops (131050), then the campaign log lines.
  const messageHandlers: InboundHandler[] = [
    marketingRefusals(),
    campaignsInboundHandler(d),
    botsInboundHandler(d),
    ...(d.afterInbound ? [routingInboundHandler({ afterInbound: d.afterInbound })] : []),
    messagePricingHandler(),
  ];
  // Run in this order; messages first, since a status may be about a message of the same batch.
  const fields: FieldHandler[] = [
    inboundMessages({ db: d.db, log: d.log, contents: messageContents(d), system: systemMessages(d), metrics: d.metrics }, messageHandlers),
    templateReviews(d),
    numberQuality(d),
    templateCategoryUpdates(d),
    templateQualityUpdates(d),
    userPreferences(d),
    userIdUpdates(d),
    messageEchoes({ db: d.db, log: d.log, contents: messageContents(d) }),
  ];
  // A delivery whose status overtook its send waits for it as a job of its own, on its own schedule.
  const requeue = (delivery: { payload: unknown; receivedAt: number; waits: number }, afterSeconds: number) =>
    d.jobs.send('whatsapp.webhook', delivery, { startAfter: afterSeconds });
  return createInboundPipeline({ log: d.log, requeue }, fields);
}
