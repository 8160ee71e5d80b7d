import * as z from '../zod';
import { limits } from '../limits';
import { messages, productMessages } from '../messages';
import { Channel, Id, Json, Role, Timestamp } from './common';
import { Email, Member, MemberProfile } from './auth';
import { BotDraftRfInstance } from './bot-canvas';
import { CampaignDraftRfInstance } from './campaign-canvas';

// ---------- Workspace ----------
export const WorkspaceName = z
  .string({ error: productMessages.workspaceName })
  .trim()
  .min(limits.workspaceName.min, { error: productMessages.workspaceName })
  .max(limits.workspaceName.max, { error: productMessages.workspaceName });

export const Workspace = z.object({ id: Id, createdAt: Timestamp, name: z.string(), memberIds: z.array(Id) });
export type Workspace = z.infer<typeof Workspace>;

export const AuthMe = Member.extend({ Workspaces: z.array(Workspace) });
export type AuthMe = z.infer<typeof AuthMe>;

// ---------- Attribute ----------
export const AttributeType = z.enum(['contact', 'conversation']);
export const AttributeFormat = z.enum(['text', 'number', 'boolean']);
export const AttributeName = z
  .string()
  .trim()
  .min(1, { error: messages.fieldEmpty })
  .max(64)
  .regex(/^[A-Za-z][A-Za-z0-9_ -]*$/, { error: 'Attribute names start with a letter and use letters, digits, spaces, - and _' });
export const Attribute = z.object({
  id: Id,
  name: z.string(),
  createdAt: Timestamp,
  description: z.string().nullable(),
  type: AttributeType,
  format: AttributeFormat,
  workspaceId: Id,
  memberId: Id,
});
export type Attribute = z.infer<typeof Attribute>;

export const WorkspaceDetail = Workspace.extend({ Attribute: z.array(Attribute), Member: z.array(MemberProfile) });
export type WorkspaceDetail = z.infer<typeof WorkspaceDetail>;

// ---------- Bot ----------
export const Bot = z.object({
  id: Id,
  title: z.string(),
  createdAt: Timestamp,
  lastDeployedAt: Timestamp.nullable(),
  isActive: z.boolean(),
  channel: Channel,
  /** The draft canvas (unfinished nodes allowed); sessions run on the published version. */
  rfInstance: BotDraftRfInstance,
  memberId: Id,
  workspaceId: Id,
  whatsappAccountId: Id.nullable(),
  /** Addition: the version new sessions start on (null until the first deploy). */
  publishedVersionId: Id.nullable(),
  /** Addition: the draft differs from the published version (or nothing is published yet). */
  hasUnpublishedChanges: z.boolean(),
});
export type Bot = z.infer<typeof Bot>;

// ---------- Campaign ----------
/** `scheduled` is an addition: a one-time campaign deployed for a later start (cancelable until then). */
export const CampaignStatus = z.enum(['draft', 'scheduled', 'active', 'paused', 'inProgress', 'completed']);
export type CampaignStatus = z.infer<typeof CampaignStatus>;
export const CampaignType = z.enum(['oneTime', 'recurring']);
/**
 * Addition: where a log line's message stands. `unknown`: the send may or may not have reached WhatsApp (a
 * timeout or a crash mid-call); it is never resent, and a later status webhook for its wamid settles it.
 * `optedOut`: skipped because the contact opted out; `pending`: not sent yet (paused, waiting for its window).
 */
export const CampaignDeliveryState = z.enum(['pending', 'sent', 'delivered', 'read', 'failed', 'unknown', 'optedOut']);
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
export const CampaignResults = z.object({ counts: CampaignCounts, timeline: z.array(CampaignTimelinePoint) });
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
});
export type CampaignSettings = z.infer<typeof CampaignSettings>;

// ---------- Contact ----------
export const AttributeValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
/** An attribute value as a request sets it: text bounded like a description. */
export const AttributeValueInput = z.union([z.string().max(limits.text.description), z.number(), z.boolean(), z.null()]);
export const Contact = z.object({
  id: Id,
  createdAt: Timestamp,
  workspaceId: Id,
  name: z.string().nullable(),
  attributes: z.record(z.string(), AttributeValue),
  channel: Channel,
  phoneNumber: z.string(),
  email: z.string().nullable(),
  tags: z.array(z.string()),
  country: z.string().nullable(),
  city: z.string().nullable(),
  meta_source_id: z.string().nullable(),
  meta_source_type: z.string().nullable(),
  meta_ctwa_clid: z.string().nullable(),
  /**
   * Addition: opted out of campaigns (STOP, a workspace keyword or the template's opt-out button); live chat
   * still works. The server always sends it; optional so that contacts cached before it existed still parse.
   */
  optedOut: z.boolean().optional(),
});
export type Contact = z.infer<typeof Contact>;

// ---------- Messages and conversations ----------
/** Additions (issue 19): `audio` (an agent's audio file) and `note` (an internal note: never sent to WhatsApp). */
export const MessageType = z.enum(['text', 'reply', 'image', 'document', 'video', 'list', 'template', 'flow', 'audio', 'note']);
export const MessageCreator = z.enum(['user', 'agent', 'bot']);
/** Addition: delivery state of an outbound message (WhatsApp statuses), `received` for inbound ones. */
export const DeliveryStatus = z.enum(['pending', 'sent', 'delivered', 'read', 'failed', 'received']);
export const Message = z.object({
  id: Id,
  type: MessageType,
  header: Json.nullable(),
  text: z.string().nullable(),
  mediaUrl: z.string().nullable(),
  footer: z.string().nullable(),
  action: Json.nullable(),
  templateComponents: Json.nullable(),
  createdAt: Timestamp,
  creator: MessageCreator,
  conversationId: Id,
  memberId: Id.nullable(),
  /** Addition. */
  status: DeliveryStatus,
  /** Addition: why a send failed, in words a user understands. */
  failureReason: z.string().nullable(),
});
export type Message = z.infer<typeof Message>;

export const AssignedByType = z.enum(['system', 'bot', 'member']);
export const ConversationAssignedData = z.object({
  type: z.literal('CONVERSATION_ASSIGNED'),
  assignedByType: AssignedByType,
  assignedById: Id.nullable(),
  assigneeType: z.enum(['bot', 'member']),
  assigneeBotId: Id.nullable(),
  assigneeMemberId: Id.nullable(),
});
export const ConversationClosedData = z.object({
  type: z.literal('CONVERSATION_CLOSED'),
  closedBy: z.enum(['system', 'bot', 'user']),
  userId: Id.nullable(),
});
/** Addition: a closed conversation opened again (the customer wrote, or a member, a bot or the system reopened it). */
export const ConversationReopenedData = z.object({
  type: z.literal('CONVERSATION_REOPENED'),
  reopenedBy: z.enum(['contact', 'member', 'bot', 'system']),
  memberId: Id.nullable(),
});
export const ConversationEventData = z.discriminatedUnion('type', [
  ConversationAssignedData,
  ConversationClosedData,
  ConversationReopenedData,
]);
export const ConversationEvent = z.object({
  id: Id,
  createdAt: Timestamp,
  conversationId: Id,
  /** Addition: the same as `data.type`, for convenience. */
  type: z.enum(['CONVERSATION_ASSIGNED', 'CONVERSATION_CLOSED', 'CONVERSATION_REOPENED']),
  data: ConversationEventData,
});
export type ConversationEvent = z.infer<typeof ConversationEvent>;

export const Conversation = z.object({
  id: Id,
  createdAt: Timestamp,
  isActive: z.boolean(),
  channel: Channel,
  contactId: Id,
  workspaceId: Id,
  whatsappAccountId: Id.nullable(),
  /** Additions: who works the conversation, and when it last saw a message. */
  assigneeMemberId: Id.nullable(),
  assigneeBotId: Id.nullable(),
  lastMessageAt: Timestamp.nullable(),
});
export type Conversation = z.infer<typeof Conversation>;
export const ConversationDetail = Conversation.extend({
  ConversationEvent: z.array(ConversationEvent),
  Contact: Contact,
  Message: z.array(Message),
  /**
   * Addition (issue 19): when the caller last read the conversation (null: never); customer messages received
   * after it are unread, and the client puts the "New messages" divider above the first of them.
   */
  readAt: Timestamp.nullable().optional(),
});
export type ConversationDetail = z.infer<typeof ConversationDetail>;
export const ConversationListEntry = Conversation.extend({
  Contact: Contact,
  lastMessage: Message.nullable(),
  /** Addition: the customer wrote since the caller last opened the conversation. */
  unread: z.boolean().optional(),
  /** Addition (issue 19): when the customer's unanswered message came (their last message is the last one), else null. */
  waitingSince: Timestamp.nullable().optional(),
});
export type ConversationListEntry = z.infer<typeof ConversationListEntry>;
/** A figure per live-chat tab. */
export const TabCounts = z.object({
  me: z.number().int(),
  assigned: z.number().int(),
  open: z.number().int(),
  closed: z.number().int(),
});
export type TabCounts = z.infer<typeof TabCounts>;
/** Addition: how many conversations each live-chat tab holds, and how many of them are unread for the caller. */
export const ConversationCounts = TabCounts.extend({ unread: TabCounts });
export type ConversationCounts = z.infer<typeof ConversationCounts>;

// ---------- Import history ----------
export const ImportStatus = z.enum(['pending', 'completed', 'failed']);
export const ImportHistory = z.object({
  id: Id,
  fileName: z.string(),
  fileUrl: z.string(),
  workspaceId: Id,
  status: ImportStatus,
  createdAt: Timestamp,
  memberId: Id,
  /** Additions: the outcome. Counts grow while the import runs; processedRows counts data rows done. */
  createdCount: z.number().int().optional(),
  updatedCount: z.number().int().optional(),
  rejectedCount: z.number().int().optional(),
  processedRows: z.number().int().optional(),
  /** Why a failed import failed, in words a user understands. */
  failureReason: z.string().nullable().optional(),
  /** CSV of the rejected rows (row, value, reason), once the import has ended with rejections. */
  errorReportUrl: z.string().nullable().optional(),
  finishedAt: Timestamp.nullable().optional(),
});
export type ImportHistory = z.infer<typeof ImportHistory>;

// ---------- Invitee ----------
export const Invitee = z.object({
  id: Id,
  email: z.string(),
  used: z.boolean(),
  role: Role,
  token: z.string(),
  createdAt: Timestamp,
  memberId: Id,
  workspaceId: Id,
});
export type Invitee = z.infer<typeof Invitee>;
/**
 * What POST /invitee/validate answers: only what the invitation page shows (issue 9.7), not the token, the
 * inviting member or the invitee's identity uid, so the answer is worth nothing beyond the link itself.
 */
export const InviteValidation = z.object({
  email: z.string(),
  role: Role,
  /** Addition: the inviting workspace's name, to greet the invitee. */
  workspaceName: z.string(),
  /** Addition (replaces the spec's `uid`): an identity with this e-mail exists, so the invitee signs in instead. */
  hasAccount: z.boolean(),
});

// ---------- Segment ----------
export const SegmentOperator = z.enum([
  'IS',
  'IS_NOT',
  'STARTS_WITH',
  'END_WITH',
  'CONTAINS',
  'DOES_NOT_CONTAINS',
  'IS_EMPTY',
  'IS_NOT_EMPTY',
]);
export const Conjuction = z.enum(['AND', 'OR']);
export const SegmentFilter = z.strictObject({
  column: z.string().min(1, { error: messages.fieldEmpty }).max(64),
  value: z.string().max(512).default(''),
  operator: SegmentOperator,
  /** Spelled so in the product contract. */
  conjuction: Conjuction.default('AND'),
});
export type SegmentFilter = z.infer<typeof SegmentFilter>;
export const Segment = z.object({
  id: Id,
  name: z.string(),
  filters: z.array(SegmentFilter),
  createdAt: Timestamp,
  workspaceId: Id,
  memberId: Id,
});
export type Segment = z.infer<typeof Segment>;
/** Addition: what a segment's filters select, before saving it. */
export const SegmentPreview = z.object({ count: z.number().int(), items: z.array(Contact) });
export type SegmentPreview = z.infer<typeof SegmentPreview>;

// ---------- WhatsApp account ----------
export const WhatsappAccount = z.object({
  id: Id,
  phoneNumber: z.string(),
  wabaAccountId: z.string(),
  appId: z.string(),
  phoneNumberId: z.string(),
  /** Never the token itself: its last four characters behind a mask. */
  token: z.string(),
  workspaceId: Id,
  createdAt: Timestamp,
  /** Addition: messages per second Parley sends from this number (Meta's throughput tier; 80 by default). */
  throughputPerSecond: z.number().int(),
  /** Addition (issue 19 item 8): the number's health as Meta last told it; null until first read. */
  health: z
    .object({
      /** GREEN, YELLOW, RED or UNKNOWN. */
      qualityRating: z.string().nullable(),
      /** TIER_250, TIER_2K, TIER_10K, TIER_100K, TIER_UNLIMITED... */
      messagingLimitTier: z.string().nullable(),
      /** STANDARD (80 messages per second), HIGH (1,000) or NOT_APPLICABLE. */
      throughputLevel: z.string().nullable(),
      /** The last phone_number_quality_update event (FLAGGED, UNFLAGGED, UPGRADE, DOWNGRADE, THROUGHPUT_UPGRADE...). */
      lastEvent: z.string().nullable(),
      updatedAt: Timestamp,
    })
    .nullable()
    .optional(),
});
export type WhatsappAccount = z.infer<typeof WhatsappAccount>;

// ---------- WhatsApp template ----------
export const TemplateCategory = z.enum(['AUTHENTICATION', 'UTILITY', 'MARKETING']);
export const TemplateName = z
  .string()
  .min(limits.templateName.min, { error: messages.templateName })
  .max(limits.templateName.max)
  .regex(/^[a-z0-9_]+$/, { error: messages.templateName });
const TemplateButton = z.strictObject({
  type: z.enum(['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'COPY_CODE', 'FLOW']),
  text: z.string().min(1).max(25),
  url: z.string().max(2000).optional(),
  phone_number: z.string().max(20).optional(),
  example: z.array(z.string().max(2000)).max(limits.request.templateExamples).optional(),
  flow_id: z.string().max(limits.request.key).optional(),
  flow_action: z.string().max(limits.request.key).optional(),
  navigate_screen: z.string().max(limits.request.key).optional(),
});
export const TemplateComponent = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('HEADER'),
    format: z.enum(['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION']),
    text: z.string().max(60).optional(),
    example: z
      .strictObject({
        header_text: z.array(z.string().max(60)).max(limits.request.templateExamples).optional(),
        header_handle: z.array(z.string().max(limits.request.url)).max(limits.request.templateExamples).optional(),
      })
      .optional(),
  }),
  z.strictObject({
    type: z.literal('BODY'),
    text: z.string().min(1).max(1024),
    example: z
      .strictObject({
        body_text: z
          .array(z.array(z.string().max(1024)).max(limits.request.templateExamples))
          .max(limits.request.templateExamples)
          .optional(),
      })
      .optional(),
  }),
  z.strictObject({ type: z.literal('FOOTER'), text: z.string().min(1).max(60) }),
  z.strictObject({ type: z.literal('BUTTONS'), buttons: z.array(TemplateButton).min(1).max(10) }),
]);
export type TemplateComponent = z.infer<typeof TemplateComponent>;
export const WhatsappTemplate = z.object({
  id: Id,
  name: z.string(),
  status: z.string(),
  createdAt: Timestamp,
  language: z.string(),
  memberId: Id,
  whatsappTemplateId: z.string().nullable(),
  mediaUrl: z.string().nullable(),
  category: TemplateCategory,
  components: z.array(TemplateComponent).min(1),
  workspaceId: Id,
  whatsappAccountId: Id,
});
export type WhatsappTemplate = z.infer<typeof WhatsappTemplate>;

// ---------- WhatsApp flow ----------
export const FlowCategory = z.enum([
  'SIGN_UP',
  'SIGN_IN',
  'APPOINTMENT_BOOKING',
  'LEAD_GENERATION',
  'SHOPPING',
  'CONTACT_US',
  'CUSTOMER_SUPPORT',
  'SURVEY',
  'OTHER',
]);
export const WhatsappFlow = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  categories: z.array(FlowCategory),
  validation_errors: z.array(Json),
});

export { Email };
