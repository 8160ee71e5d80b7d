/**
 * The parts of Meta's webhook payload Parley reads (reference/whatsapp-cloud-api.md section 3). Objects are
 * loose: Meta adds fields over time and an unknown field must not make a delivery fail.
 */
import { z } from 'zod';

const Media = z.looseObject({
  id: z.string(),
  mime_type: z.string().optional(),
  sha256: z.string().optional(),
  caption: z.string().optional(),
  filename: z.string().optional(),
  url: z.string().optional(),
});
export type InboundMedia = z.infer<typeof Media>;

export const InboundMessage = z.looseObject({
  from: z.string().min(1),
  id: z.string().min(1).max(256),
  timestamp: z.string().optional(),
  type: z.string(),
  context: z.looseObject({ from: z.string().optional(), id: z.string().optional() }).optional(),
  text: z.looseObject({ body: z.string() }).optional(),
  interactive: z
    .looseObject({
      type: z.string(),
      button_reply: z.looseObject({ id: z.string(), title: z.string() }).optional(),
      list_reply: z.looseObject({ id: z.string(), title: z.string(), description: z.string().optional() }).optional(),
      nfm_reply: z.looseObject({ name: z.string().optional(), body: z.string().optional(), response_json: z.string() }).optional(),
    })
    .optional(),
  button: z.looseObject({ payload: z.string().optional(), text: z.string() }).optional(),
  image: Media.optional(),
  video: Media.optional(),
  document: Media.optional(),
  audio: Media.optional(),
  sticker: Media.optional(),
  location: z
    .looseObject({ latitude: z.number(), longitude: z.number(), name: z.string().optional(), address: z.string().optional() })
    .optional(),
  reaction: z.looseObject({ message_id: z.string().optional(), emoji: z.string().optional() }).optional(),
});
export type InboundMessage = z.infer<typeof InboundMessage>;

export const StatusError = z.looseObject({
  code: z.number().optional(),
  title: z.string().optional(),
  message: z.string().optional(),
  error_data: z.looseObject({ details: z.string().optional() }).optional(),
});
export type StatusError = z.infer<typeof StatusError>;

/** What Meta bills for the message (since July 2025 on `sent` and one of delivered/read); malformed: ignored. */
const StatusPricing = z.looseObject({
  billable: z.boolean().optional(),
  pricing_model: z.string().optional(),
  category: z.string().optional(),
  type: z.string().optional(),
});
export type StatusPricing = z.infer<typeof StatusPricing>;

export const StatusUpdate = z.looseObject({
  id: z.string().min(1),
  status: z.string(),
  timestamp: z.string().optional(),
  recipient_id: z.string().optional(),
  errors: z.array(StatusError).optional(),
  pricing: StatusPricing.optional().catch(undefined),
});
export type StatusUpdate = z.infer<typeof StatusUpdate>;

export const MessagesValue = z.looseObject({
  messaging_product: z.string().optional(),
  metadata: z.looseObject({ display_phone_number: z.string().optional(), phone_number_id: z.string() }),
  contacts: z.array(z.looseObject({ wa_id: z.string(), profile: z.looseObject({ name: z.string().optional() }).optional() })).optional(),
  messages: z.array(z.unknown()).optional(),
  statuses: z.array(z.unknown()).optional(),
  errors: z.array(StatusError).optional(),
});
export type MessagesValue = z.infer<typeof MessagesValue>;

export const TemplateStatusValue = z.looseObject({
  event: z.string(),
  message_template_id: z.union([z.number(), z.string()]).transform(String),
  message_template_name: z.string().optional(),
  message_template_language: z.string().optional(),
  reason: z.string().nullable().optional(),
});
export type TemplateStatusValue = z.infer<typeof TemplateStatusValue>;

/** `phone_number_quality_update`: the number by its display digits, the event and its new limit. */
export const QualityUpdateValue = z.looseObject({
  display_phone_number: z.string(),
  event: z.string(),
  current_limit: z.string().optional(),
  old_limit: z.string().optional(),
});
export type QualityUpdateValue = z.infer<typeof QualityUpdateValue>;

export const WebhookPayload = z.looseObject({
  object: z.string(),
  entry: z.array(
    z.looseObject({
      id: z.string(),
      /** When Meta triggered the webhook (unix seconds); template reviews are ordered by it. */
      time: z.coerce.number().int().positive().optional().catch(undefined),
      changes: z.array(z.looseObject({ field: z.string(), value: z.unknown() })),
    }),
  ),
});
export type WebhookPayload = z.infer<typeof WebhookPayload>;
