// A campaign, its log lines and results, and the answers of its actions (its canvas schemas are in
// ../campaign-canvas.ts).
import * as z from '../../zod';
import { CampaignDraftRfInstance } from '../campaign-canvas';
import { BillableByCategory } from './pricing';
import { Id, Timestamp } from '../common';

/** `scheduled` is an addition: a one-time campaign deployed for a later start (cancelable until then). */
export const CampaignStatus = z.enum(['draft', 'scheduled', 'active', 'paused', 'inProgress', 'completed']);
export type CampaignStatus = z.infer<typeof CampaignStatus>;
export const CampaignType = z.enum(['oneTime', 'recurring']);
/**
 * Addition: where a log line's message stands. `unknown`: the send may or may not have reached WhatsApp (a
 * timeout or a crash mid-call); it is never resent, and a later status webhook for its wamid settles it.
 * `optedOut`: skipped because the contact opted out (of Parley's campaigns, or of marketing in WhatsApp);
 * `capped`: WhatsApp's per-user marketing limit (131049) or a marketing template to a US number, never a
 * failure of the campaign; `pending`: not sent yet (paused, waiting for its window).
 */
export const CampaignDeliveryState = z.enum(['pending', 'sent', 'delivered', 'read', 'failed', 'unknown', 'optedOut', 'capped']);
export type CampaignDeliveryState = z.infer<typeof CampaignDeliveryState>;
export const CampaignLog = z.object({
  id: Id,
  createdAt: Timestamp,
  phoneNumber: z.string(),
  templateName: z.string(),
  messageStatus: z.enum(['success', 'failed']),
  reason: z.string().nullable(),
  campaignId: Id,
});
/** A log line with the additions the results page shows (GET /campaign/{id}/logs). */
export const CampaignLogEntry = CampaignLog.extend({
  /** Additions. */
  contactId: Id.nullable(),
  stepId: z.string().nullable(),
  wamid: z.string().nullable(),
  deliveryState: CampaignDeliveryState,
  /** Meta's error code of a failure (131049, 131026 ...). */
  errorCode: z.number().int().nullable(),
  updatedAt: Timestamp,
  /** When the contact first wrote back within 72 hours of this send. */
  repliedAt: Timestamp.nullable(),
});
export type CampaignLogEntry = z.infer<typeof CampaignLogEntry>;
export const Campaign = z.object({
  id: Id,
  name: z.string(),
  resumeAt: Timestamp.nullable(),
  /** Saved as a draft: nodes may be unfinished (validateCampaign checks completeness). */
  rfInstance: CampaignDraftRfInstance,
  status: CampaignStatus,
  createdAt: Timestamp,
  memberId: Id,
  workspaceId: Id,
  type: CampaignType,
  /** Addition: when a scheduled campaign starts. */
  scheduledAt: Timestamp.nullable(),
  /** Addition: last deploy. */
  deployedAt: Timestamp.nullable(),
  /** Addition: the last four characters of the recurring trigger key (the key itself is shown once). */
  triggerKeyHint: z.string().nullable(),
  /**
   * Addition: paused by an account-level refusal of WhatsApp (a paused template, a restricted number, an
   * expired token ...): Meta's code and words. The recipients not sent yet stay pending; resume sends them.
   */
  halt: z.object({ code: z.number().int(), reason: z.string(), at: Timestamp }).nullable().optional(),
  /**
   * Addition: some recipients wait for room in the business portfolio's messaging limit (unique customers in a
   * moving 24 hours, shared by its numbers): why, and when the next room opens. Not a failure: they go then.
   */
  hold: z.object({ reason: z.string(), until: Timestamp }).nullable().optional(),
});
export type Campaign = z.infer<typeof Campaign>;
/** How many of a campaign's log rows succeeded and how many failed. */
export const CampaignLogCounts = z.object({ success: z.number().int(), failed: z.number().int() });
/**
 * Addition: a campaign's results, counted over every run in one aggregate. `recipients` are the contacts it
 * targeted; the others count log lines by where their message stands (a read message counts as sent, delivered
 * and read); `replied`: the contact wrote back within 72 hours of a send.
 */
export const CampaignCounts = z.object({
  recipients: z.number().int(),
  pending: z.number().int(),
  sent: z.number().int(),
  delivered: z.number().int(),
  read: z.number().int(),
  replied: z.number().int(),
  failed: z.number().int(),
  unknown: z.number().int(),
  optedOut: z.number().int(),
  /** Addition: held back by WhatsApp's marketing limits (131049, US numbers); not failures. */
  capped: z.number().int().optional(),
});
export type CampaignCounts = z.infer<typeof CampaignCounts>;
/**
 * A campaign list entry: the campaign with its newest CampaignLogs (at most `limits.campaignListLogs` of them).
 * Addition: `logCounts` counts every log row of the campaign, so the list's Sent and Failed figures stay right
 * past that bound; `counts` are its results (CampaignCounts).
 */
export const CampaignListEntry = Campaign.extend({ CampaignLogs: z.array(CampaignLog), logCounts: CampaignLogCounts, counts: CampaignCounts });
export type CampaignListEntry = z.infer<typeof CampaignListEntry>;
/** Addition: one point of the results chart (messages by state, per time bucket). */
export const CampaignTimelinePoint = z.object({
  at: Timestamp,
  sent: z.number().int(),
  delivered: z.number().int(),
  read: z.number().int(),
  failed: z.number().int(),
});
/** `billable`: the campaign's messages Meta bills, by pricing category (from their status webhooks). */
export const CampaignResults = z.object({ counts: CampaignCounts, timeline: z.array(CampaignTimelinePoint), billable: z.array(BillableByCategory) });
export type CampaignResults = z.infer<typeof CampaignResults>;
/** Addition: deploy's answer; a recurring campaign's first deploy carries its trigger key (shown once). */
export const DeployCampaignResult = z.object({
  success: z.literal(true),
  status: CampaignStatus,
  triggerKey: z.string().optional(),
  /** A one-time campaign's recipients as snapshotted so far (the snapshot goes on while sending starts). */
  recipients: z.number().int().optional(),
});
/** Addition: a new trigger key (the old one stops working at once). Shown once; stored as a hash. */
export const CampaignTriggerKey = z.object({ triggerKey: z.string(), triggerKeyHint: z.string() });
/** Addition: what POST /outbound/{campaignId} did with each record (a bad phone rejects that record only). */
export const OutboundRecordResult = z.object({
  index: z.number().int(),
  status: z.enum(['queued', 'rejected']),
  contactId: Id.nullable(),
  reason: z.string().nullable(),
});
export const OutboundResult = z.object({
  success: z.literal(true),
  queued: z.number().int(),
  rejected: z.number().int(),
  results: z.array(OutboundRecordResult),
});
export type OutboundResult = z.infer<typeof OutboundResult>;
/** Addition: a workspace's campaign settings. */
export const CampaignSettings = z.object({
  optOutKeywords: z.array(z.string()),
  timeZone: z.string(),
  optOutConfirmation: z.string(),
  /** Marketing templates to US numbers are skipped before sending (WhatsApp refuses them with 131049). */
  skipUsMarketing: z.boolean(),
});
export type CampaignSettings = z.infer<typeof CampaignSettings>;
