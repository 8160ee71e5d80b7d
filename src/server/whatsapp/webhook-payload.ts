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

/**
 * A customer's message. Since 2026 `from` (the phone) is left out for customers with a username whose phone
 * Meta withholds; `from_user_id` (the business-scoped user id) is always there.
 */
export const InboundMessage = z.looseObject({
  from: z.string().min(1).optional(),
  from_user_id: z.string().min(1).optional(),
  from_parent_user_id: z.string().min(1).optional(),
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
  /** A change of the customer's identity: `user_changed_number` (new phone) or `user_changed_user_id`. */
  system: z
    .looseObject({
      type: z.string().optional(),
      body: z.string().optional(),
      wa_id: z.string().optional(),
      /** The phone before 2026 (`user_changed_number`). */
      new_wa_id: z.string().optional(),
      user_id: z.string().optional(),
      parent_user_id: z.string().optional(),
    })
    .optional(),
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
  recipient_user_id: z.string().optional(),
  recipient_parent_user_id: z.string().optional(),
  errors: z.array(StatusError).optional(),
  pricing: StatusPricing.optional().catch(undefined),
});
export type StatusUpdate = z.infer<typeof StatusUpdate>;

/** Who a message or status is about: the phone (`wa_id`, may be left out), the user ids, the profile. */
export const WebhookContact = z.looseObject({
  wa_id: z.string().optional(),
  user_id: z.string().optional(),
  parent_user_id: z.string().optional(),
  profile: z.looseObject({ name: z.string().optional(), username: z.string().optional() }).optional(),
});
export type WebhookContact = z.infer<typeof WebhookContact>;

/** One change of a customer's user id (`user_id_update` field): previous and current, with the phone if shared. */
const IdPair = z.looseObject({ previous: z.string().optional(), current: z.string().optional() });
export const UserIdUpdate = z.looseObject({
  wa_id: z.string().optional(),
  detail: z.string().optional(),
  timestamp: z.string().optional(),
  user_id: IdPair.optional(),
  parent_user_id: IdPair.optional(),
});
export type UserIdUpdate = z.infer<typeof UserIdUpdate>;
export const UserIdUpdateValue = z.looseObject({
  metadata: z.looseObject({ phone_number_id: z.string() }),
  user_id_update: z.array(z.unknown()).optional(),
});

/**
 * A message the business sent from the WhatsApp Business app on its phone (coexistence, the
 * `smb_message_echoes` field): `from` is the business's number, the customer is `to` (the phone, left out when
 * Meta withholds it) and `to_user_id`; the content is that of a customer's message.
 */
export const MessageEcho = InboundMessage.extend({
  to: z.string().min(1).optional(),
  to_user_id: z.string().min(1).optional(),
  to_parent_user_id: z.string().min(1).optional(),
});
export type MessageEcho = z.infer<typeof MessageEcho>;
export const EchoesValue = z.looseObject({
  messaging_product: z.string().optional(),
  metadata: z.looseObject({ display_phone_number: z.string().optional(), phone_number_id: z.string() }),
  contacts: z.array(WebhookContact).optional(),
  message_echoes: z.array(z.unknown()),
});
export type EchoesValue = z.infer<typeof EchoesValue>;

export const MessagesValue = z.looseObject({
  messaging_product: z.string().optional(),
  metadata: z.looseObject({ display_phone_number: z.string().optional(), phone_number_id: z.string() }),
  contacts: z.array(WebhookContact).optional(),
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
