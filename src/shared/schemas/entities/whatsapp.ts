// A connected WhatsApp number, its message templates and its Flows.
import * as z from '../../zod';
import { limits } from '../../limits';
import { messages } from '../../messages';
import { Id, Json, Timestamp } from '../common';

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
  /** Addition: the number's health as Meta last told it; null until first read. */
  health: z
    .object({
      /** GREEN, YELLOW, RED or UNKNOWN. */
      qualityRating: z.string().nullable(),
      /** TIER_250, TIER_2K, TIER_10K, TIER_100K, TIER_UNLIMITED... */
      messagingLimitTier: z.string().nullable(),
      /** Addition: the business portfolio's limit, shared by all its numbers (unique customers in 24 hours). */
      portfolioMessagingLimit: z.string().nullable().optional(),
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
/** GREEN, YELLOW, RED or UNKNOWN, with the score before and when Meta changed it. */
export const TemplateQuality = z.object({ score: z.string(), previousScore: z.string().nullable(), at: Timestamp });
export type TemplateQuality = z.infer<typeof TemplateQuality>;
/**
 * `impending`: Meta moves the template from `previousCategory` (still its category) to `newCategory` at
 * `effectiveAt`; `completed`: it has moved (its category is `newCategory` since `effectiveAt`).
 */
export const TemplateCategoryChange = z.object({
  state: z.enum(['impending', 'completed']),
  previousCategory: z.string().nullable(),
  newCategory: z.string(),
  effectiveAt: Timestamp.nullable(),
  at: Timestamp,
});
export type TemplateCategoryChange = z.infer<typeof TemplateCategoryChange>;

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
  /** Addition: Meta's quality score of the template (message_template_quality_update); null until Meta sends one. */
  quality: TemplateQuality.nullable().optional(),
  /** Addition: Meta's last category change of the template (template_category_update); null when none. */
  categoryChange: TemplateCategoryChange.nullable().optional(),
});
export type WhatsappTemplate = z.infer<typeof WhatsappTemplate>;

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
