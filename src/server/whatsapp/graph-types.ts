/**
 * Wire shapes of the WhatsApp Cloud API as Parley uses them (reference whatsapp-cloud-api.md §1, §4-§6).
 * Field names are Meta's snake_case on purpose: these objects go on the wire unchanged.
 */
import { userIdPattern } from '../../shared/user-id';

/** What every Graph call needs; stored per WhatsApp account (the token encrypted at rest). */
export interface GraphCredentials {
  token: string;
  phoneNumberId: string;
  wabaAccountId: string;
  appId: string;
}

// ---------- outbound messages (§1) ----------

export interface TextContent {
  body: string;
  preview_url?: boolean;
}

/** `id` (uploaded media, what Meta recommends) or `link`, never both. */
export type MediaRef = { id: string; link?: never } | { link: string; id?: never };
export type MediaContent = MediaRef & { caption?: string; filename?: string };
export type MediaKind = 'image' | 'video' | 'document' | 'audio' | 'sticker';

export type TemplateParameter =
  | { type: 'text'; text: string; parameter_name?: string }
  | { type: 'image'; image: MediaRef }
  | { type: 'video'; video: MediaRef }
  | { type: 'document'; document: MediaRef & { filename?: string } }
  | { type: 'currency'; currency: { fallback_value: string; code: string; amount_1000: number }; parameter_name?: string }
  | { type: 'date_time'; date_time: { fallback_value: string }; parameter_name?: string }
  | { type: 'payload'; payload: string };

export type TemplateSendComponent =
  | { type: 'header'; parameters: TemplateParameter[] }
  | { type: 'body'; parameters: TemplateParameter[] }
  | { type: 'button'; sub_type: 'quick_reply' | 'url' | 'copy_code' | 'flow'; index: string; parameters: TemplateParameter[] };

export interface TemplateContent {
  name: string;
  language: { code: string; policy?: 'deterministic' };
  components?: TemplateSendComponent[];
}

export type InteractiveHeader =
  | { type: 'text'; text: string }
  | { type: 'image'; image: MediaRef }
  | { type: 'video'; video: MediaRef }
  | { type: 'document'; document: MediaRef & { filename?: string } };

export interface ListRow {
  id: string;
  title: string;
  description?: string;
}
export interface ListSection {
  title?: string;
  rows: ListRow[];
}

export type InteractiveContent =
  | {
      type: 'list';
      header?: { type: 'text'; text: string };
      body: { text: string };
      footer?: { text: string };
      action: { button: string; sections: ListSection[] };
    }
  | {
      type: 'button';
      header?: InteractiveHeader;
      body: { text: string };
      footer?: { text: string };
      action: { buttons: { type: 'reply'; reply: { id: string; title: string } }[] };
    }
  | {
      type: 'flow';
      header?: InteractiveHeader;
      body: { text: string };
      footer?: { text: string };
      action: {
        name: 'flow';
        parameters: {
          flow_message_version: '3';
          flow_token?: string;
          flow_id?: string;
          flow_name?: string;
          flow_cta: string;
          flow_action?: 'navigate' | 'data_exchange';
          flow_action_payload?: { screen: string; data?: Record<string, unknown> };
          mode?: 'draft' | 'published';
        };
      };
    };

/** The type-specific part of a send; `sendMessage` adds messaging_product, recipient and context. */
export type OutboundMessage =
  | { type: 'text'; text: TextContent }
  | { type: 'image'; image: MediaContent }
  | { type: 'video'; video: MediaContent }
  | { type: 'document'; document: MediaContent }
  | { type: 'audio'; audio: MediaRef }
  | { type: 'sticker'; sticker: MediaRef }
  | { type: 'template'; template: TemplateContent }
  | { type: 'interactive'; interactive: InteractiveContent };

export interface SendOptions {
  /** Quote-reply to this wamid. */
  replyTo?: string;
  /** Echoed back in status webhooks (e.g. our message id). */
  bizOpaqueCallbackData?: string;
  signal?: AbortSignal;
  /** false: answer a 130429 at once instead of retrying it (the outbound path paces and retries itself). */
  retryThrottled?: boolean;
}

/**
 * Who a message goes to: a phone number, or a contact's identities. A contact whose phone Meta withholds is
 * sent to by its business-scoped user id (`recipient`); with both known the phone goes as `to` (Meta prefers it,
 * and with both `to` wins anyway).
 */
export type RecipientAddress = string | { phoneNumber: string | null; userId: string | null };

/** A business-scoped user id as Meta spells it (shared: imports check it too). */
export { userIdPattern };

/** The send request's addressing fields; throws when there is nobody to send to. */
export function addressFields(to: RecipientAddress): { to: string } | { recipient: string } {
  if (typeof to === 'string') return { to };
  if (to.phoneNumber) return { to: to.phoneNumber };
  if (to.userId && userIdPattern.test(to.userId)) return { recipient: to.userId };
  throw new Error('a send needs a phone number or a WhatsApp user id');
}

export interface SendResult {
  /** The wamid status webhooks will refer to. */
  wamid: string;
  /**
   * The recipient as WhatsApp knows them (may differ from what was sent, e.g. without '+'); for a send to a
   * user id, that user id.
   */
  waId: string;
  /** Template sends only: accepted, held_for_quality_assessment or paused. */
  messageStatus?: string;
}

// ---------- templates (§4) ----------

export interface TemplateCreateBody {
  name: string;
  language: string;
  category: 'AUTHENTICATION' | 'UTILITY' | 'MARKETING';
  parameter_format?: 'POSITIONAL' | 'NAMED';
  allow_category_change?: boolean;
  components: Record<string, unknown>[];
}

export interface TemplateCreateResult {
  id: string;
  status: string;
  category: string;
}

export interface GraphTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  components: Record<string, unknown>[];
  parameter_format?: string;
  rejected_reason?: string;
}

export interface TemplateListQuery {
  name?: string;
  status?: string;
  /** Page size asked of Graph; every page is fetched regardless. */
  pageSize?: number;
}

// ---------- media (§5) ----------

export interface UploadFile {
  data: Uint8Array;
  fileName: string;
  mimeType: string;
}

export interface MediaInfo {
  id: string;
  url: string;
  mime_type: string;
  sha256: string;
  file_size: number;
}

export interface DownloadedMedia {
  data: Buffer;
  mimeType: string;
  sha256: string;
  size: number;
}

// ---------- flows (§6) and phone numbers (§7) ----------

export interface GraphFlow {
  id: string;
  name: string;
  status: string;
  categories: string[];
  validation_errors: unknown[];
}

export interface PhoneNumberInfo {
  id: string;
  display_phone_number: string;
  verified_name?: string;
  quality_rating?: string;
  code_verification_status?: string;
  platform_type?: string;
  throughput?: { level: string };
  /** TIER_250, TIER_2K, TIER_10K, TIER_100K, TIER_UNLIMITED (reference §7). */
  messaging_limit_tier?: string;
  /** The business portfolio's messaging limit, shared by its numbers (replaces messaging_limit_tier). */
  whatsapp_business_manager_messaging_limit?: string;
}
