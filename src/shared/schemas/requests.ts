import * as z from '../zod';
import { limits, liveChatTabs } from '../limits';
import { messages, productMessages } from '../messages';
import { isValidPhoneNumber } from 'libphonenumber-js/mobile';
import { Id, PageQuery, Role, Timestamp } from './common';
import { Email } from './auth';
import {
  AttributeFormat,
  AttributeName,
  AttributeType,
  AttributeValueInput,
  CampaignType,
  SegmentFilter,
  TemplateCategory,
  TemplateComponent,
  TemplateName,
  WorkspaceName,
} from './entities';
import { BotDraftRfInstance } from './bot-canvas';
import { CampaignDraftRfInstance, CampaignOutcome } from './campaign-canvas';

const WorkspaceRef = { workspaceId: Id };

export const CreateWorkspaceBody = z.strictObject({ name: WorkspaceName });

export const CreateBotBody = z.strictObject({
  ...WorkspaceRef,
  /** Addition: a title at creation (defaults to "Untitled bot"). */
  title: z.string().trim().min(1).max(limits.text.title).optional(),
});
export const PatchBotBody = z.strictObject({
  title: z.string().trim().min(1).max(limits.text.title).optional(),
  isActive: z.boolean().optional(),
  /** Ignored: the server sets it when the bot is deployed (isActive true). */
  lastDeployedAt: Timestamp.nullable().optional(),
  /** The draft canvas; unfinished nodes are allowed, the strict checks run when the bot is deployed. */
  rfInstance: BotDraftRfInstance.optional(),
});
export const ConnectWabaBody = z.strictObject({
  /** The WhatsApp account (its id in this workspace, or its WABA id) the bot answers on; null disconnects. */
  wabaAccountId: z.string().min(1).max(limits.request.key).nullable(),
});

export const CreateCampaignBody = z.strictObject({
  ...WorkspaceRef,
  type: CampaignType,
  /** Addition: a name at creation (defaults to "Untitled campaign"). */
  name: z.string().trim().min(1).max(limits.text.title).optional(),
});
export const PatchCampaignBody = z.strictObject({
  name: z.string().trim().min(1).max(limits.text.title).optional(),
  /** A draft: unfinished nodes save; deploy checks completeness. A deployed campaign's steps cannot change (409). */
  rfInstance: CampaignDraftRfInstance.optional(),
});

// ---- campaign additions  ----
/** Deploy's body: empty (start now), or `startAt` for a one-time campaign that starts later (status `scheduled`). */
export const DeployCampaignBody = z.strictObject({ startAt: Timestamp.optional() });
/** Pause; with `resumeAt` (spec: Campaign.resumeAt) it resumes by itself then. */
export const PauseCampaignBody = z.strictObject({ resumeAt: Timestamp.optional() });
/** A new one-time draft for exactly the recipients of this campaign with `outcome` (optionally one error code). */
export const RetargetCampaignBody = z.strictObject({
  outcome: CampaignOutcome,
  errorCode: z.number().int().min(0).max(10_000_000).optional(),
  name: z.string().trim().min(1).max(limits.text.title).optional(),
});
/** Logs of a campaign, newest first, optionally only those with one outcome. */
export const CampaignLogsQuery = PageQuery.extend({ status: CampaignOutcome.optional() });
/** The CSV export takes the same filter; the token may come as ?token= (a download link). */
export const CampaignLogsExportQuery = z.strictObject({ status: CampaignOutcome.optional(), token: z.string().min(1).max(8192).optional() });
/** Addition: a workspace's campaign settings (opt-out keywords besides STOP and UNSUBSCRIBE, default time zone). */
export const CampaignSettingsBody = z.strictObject({
  optOutKeywords: z.array(z.string().trim().min(1).max(64)).max(20).optional(),
  /** IANA time zone (Europe/Paris) for recipients whose own cannot be told. */
  timeZone: z
    .string()
    .max(64)
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, { error: 'Enter a time zone such as Europe/Paris' })
    .optional(),
  /** Sent after an opt-out when the 24-hour window allows; empty sends nothing. */
  optOutConfirmation: z.string().max(1024).optional(),
  /** Skip marketing templates to US numbers before sending (WhatsApp refuses them); off if Meta lifts it. */
  skipUsMarketing: z.boolean().optional(),
});

export const CreateAttributeBody = z.strictObject({
  name: AttributeName,
  description: z.string().max(limits.text.description).nullable().optional(),
  type: AttributeType.default('contact'),
  format: AttributeFormat,
  ...WorkspaceRef,
});
export const PatchAttributeBody = z.strictObject({
  name: AttributeName.optional(),
  description: z.string().max(limits.text.description).nullable().optional(),
  type: AttributeType.optional(),
  format: AttributeFormat.optional(),
});

export const PatchContactBody = z.strictObject({
  name: z.string().trim().max(200).nullable().optional(),
  email: Email.nullable().optional(),
  country: z.string().trim().max(100).nullable().optional(),
  attributes: z.record(z.string().min(1).max(64), AttributeValueInput).optional(),
  /** Addition: an agent opts the contact back in to campaigns (false) or out (true). */
  optedOut: z.boolean().optional(),
});

/**
 * Addition: a contact added by hand. The phone number may be national (read in the workspace's
 * default country) or start with +; the server stores it E.164.
 */
export const CreateContactBody = z.strictObject({
  phoneNumber: z.string().trim().min(1, { error: 'Please enter a phone number' }).max(32, { error: 'Enter a valid phone number' }),
  name: z.string().trim().max(200).optional(),
  email: z.union([z.literal(''), Email]).optional(),
  workspaceId: Id,
});

export const CreateMessageBody = z.strictObject({
  text: z.string().trim().min(1, { error: messages.fieldEmpty }).max(limits.whatsappTextMax, { error: productMessages.whatsappTextTooLong }),
  conversationId: Id,
});

/** Addition: an approved template to the contact of a conversation (allowed outside the 24-hour window). */
export const CreateTemplateMessageBody = z.strictObject({
  conversationId: Id,
  templateId: Id,
  parameters: z
    .strictObject({
      /** Values of the body's {{1}}, {{2}} ... in order (or of its named placeholders in order of appearance). */
      body: z.array(z.string().trim().min(1, { error: messages.fieldEmpty }).max(1024)).max(50).default([]),
      /** The media of an IMAGE, VIDEO or DOCUMENT header; defaults to the template's stored media. */
      headerMediaLink: z.url().max(2048).optional(),
      /** The value of a TEXT header's variable. */
      headerText: z.string().trim().min(1).max(60).optional(),
      /** Values of the URL buttons whose url has a variable, in button order. */
      urlButtons: z.array(z.string().trim().min(1).max(2000)).max(2).optional(),
    })
    .default({ body: [] }),
});

export const CreateImportBody = z.strictObject({
  fileName: z.string().min(1).max(255),
  fileUrl: z.string().min(1).max(2048),
  /** Addition: ISO country assumed for numbers written without a country code (default: the workspace's). */
  defaultCountry: z
    .string()
    .max(2, { error: 'defaultCountry is a two-letter country code such as US' })
    .regex(/^[A-Z]{2}$/, { error: 'defaultCountry is a two-letter country code such as US' })
    .optional(),
  ...WorkspaceRef,
  columnAttributeMap: z
    .array(z.strictObject({ columnName: z.string().max(255), attribute: z.string().max(64).nullable().optional() }))
    .max(500)
    // A file may name its customers by WhatsApp user id instead of phone number (docs/audience.md).
    .refine((m) => m.some((e) => e.attribute === 'phoneNumber' || e.attribute === 'userId'), { error: messages.importNeedsPhone }),
});

export const CreateInviteeBody = z.strictObject({ email: Email, role: Role, ...WorkspaceRef });
/** `id` is what the e-mailed link /invite/{inviteId} carries: the invitation's token. */
export const ValidateInviteeBody = z.strictObject({ id: z.string().min(1).max(128) });

export const PatchConversationBody = z
  .strictObject({
    isActive: z.boolean().optional(),
    /** Additions: assign to a member or to a bot (at most one). */
    assigneeMemberId: Id.nullable().optional(),
    assigneeBotId: Id.nullable().optional(),
  })
  .refine((b) => !(b.assigneeMemberId && b.assigneeBotId), {
    error: 'Assign a conversation to a member or to a bot, not both',
  });

export const OutboundBody = z.array(z.record(z.string().max(256), z.string().max(4096))).min(1).max(1000);

export const CreateTemplateBody = z.strictObject({
  name: TemplateName,
  language: z.string().min(2).max(15),
  category: TemplateCategory,
  components: z.array(TemplateComponent).min(1).max(limits.request.templateComponents),
  mediaUrl: z.string().max(2048).nullable().optional(),
  whatsappAccountId: Id,
  ...WorkspaceRef,
});

/** Addition: filters to preview (count and a first page) before saving a segment. */
export const SegmentPreviewBody = z.strictObject({
  filters: z.array(SegmentFilter).max(50),
  limit: z.number().int().min(1).max(limits.page.maxLimit).optional(),
});

export const CreateSegmentBody = z.strictObject({
  name: z.string().trim().min(1, { error: messages.fieldEmpty }).max(limits.text.title),
  filters: z.array(SegmentFilter).max(50),
  ...WorkspaceRef,
});

/** The WhatsApp account form, with the spec's messages. Numbers are written with their country code. */
export function isValidMobileNumber(value: string): boolean {
  const v = value.trim();
  return isValidPhoneNumber(v.startsWith('+') ? v : `+${v}`);
}
/** An empty value is reported as missing only (`abort`), not also as invalid by later checks. */
const requiredText = (message: string) =>
  z.string({ error: message }).trim().min(1, { error: message, abort: true }).max(256, { error: message });
/** Addition: the number's send rate, Meta's throughput tier (80 messages per second by default, up to 1,000). */
export const ThroughputPerSecond = z
  .number({ error: 'throughputPerSecond must be a whole number from 1 to 1000' })
  .int({ error: 'throughputPerSecond must be a whole number from 1 to 1000' })
  .min(1, { error: 'throughputPerSecond must be a whole number from 1 to 1000' })
  .max(1000, { error: 'throughputPerSecond must be a whole number from 1 to 1000' });
/**
 * A Meta access token goes out in an HTTP Authorization header, which carries printable ASCII only: anything else
 * (a pasted right-to-left mark, a line break) is refused here rather than failing later as an unreachable WhatsApp.
 */
export const AccessToken = z
  .string({ error: messages.tokenRequired })
  .trim()
  .min(1, { error: messages.tokenRequired })
  .max(1024)
  .regex(/^[\x21-\x7E]*$/, { error: 'An access token is letters, digits and punctuation, without spaces' });
export const CreateWhatsappBody = z.strictObject({
  phoneNumber: requiredText(messages.phoneRequired).refine(isValidMobileNumber, { error: messages.phoneInvalid }),
  wabaAccountId: requiredText(messages.wabaAccountIdRequired),
  appId: requiredText(messages.appIdRequired),
  phoneNumberId: requiredText(messages.phoneNumberIdRequired),
  token: AccessToken,
  throughputPerSecond: ThroughputPerSecond.optional(),
  ...WorkspaceRef,
});

/** Addition: a new token for a connected number (system user tokens expire or get rotated), or its send rate. */
export const PatchWhatsappBody = z
  .strictObject({
    token: AccessToken.optional(),
    throughputPerSecond: ThroughputPerSecond.optional(),
  })
  .refine((b) => b.token !== undefined || b.throughputPerSecond !== undefined, { error: messages.tokenRequired, path: ['token'] });

// ---------- list queries ----------
export const ListQuery = PageQuery;
export const ConversationListQuery = PageQuery.extend({
  tab: z.enum(liveChatTabs).optional(),
  search: z.string().max(200).optional(),
  /**
   * Addition: `waiting` lists only conversations whose last message is the customer's, longest
   * waiting first; `recent` (the default) is newest activity first.
   */
  sort: z.enum(['recent', 'waiting']).optional(),
});
/** Addition: a conversation's messages newest first; `before` pages back from a message the client holds. */
export const MessageListQuery = PageQuery.extend({
  before: Id.optional(),
});
/** Addition: the contact list's filter for its CSV export; token also as ?token= (a download link). */
export const ContactExportQuery = z.strictObject({
  search: z.string().max(200).optional(),
  segmentId: Id.optional(),
  optedOut: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
  token: z.string().min(1).max(8192).optional(),
});
/** Addition: the orders the contact list offers (each served by an index of contacts). */
export const contactSorts = ['createdAt', 'name', 'phoneNumber'] as const;
export type ContactSort = (typeof contactSorts)[number];
export const ContactListQuery = PageQuery.extend({
  search: z.string().max(200).optional(),
  segmentId: Id.optional(),
  /** Addition: only contacts opted out of campaigns (true) or only those not (false). */
  optedOut: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
  /**
   * Addition: the list's order, ties broken by id; without it, newest first as always. `order`
   * defaults to desc for createdAt and asc for name and phoneNumber. Names compare lower-cased, byte by byte;
   * contacts without a name come after the named ones in either order, among themselves by creation time
   * in the same direction.
   */
  sort: z.enum(contactSorts).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  /** A name-sorted page's cursor holds the last name, which may be long. */
  cursor: z.string().max(8192).optional(),
});

/** POST /contact/{contactId}/template-message: an approved template to a contact, on the template's number (addition). */
export const ContactTemplateMessageBody = CreateTemplateMessageBody.omit({ conversationId: true });

/** Addition: an admin's upload of Meta's rate card, the CSV file's text as read in the browser. */
export const UploadRateCardBody = z.strictObject({
  fileName: z.string().trim().min(1).max(255),
  content: z.string().min(1).max(1_000_000),
});
