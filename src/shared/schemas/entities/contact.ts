// A contact of the audience with its attribute values.
import * as z from '../../zod';
import { limits } from '../../limits';
import { Channel, Id, Timestamp } from '../common';

export const AttributeValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
/** An attribute value as a request sets it: text bounded like a description. */
export const AttributeValueInput = z.union([z.string().max(limits.text.description), z.number(), z.boolean(), z.null()]);
/**
 * How Parley's opt-out came: an opt-out keyword (STOP, UNSUBSCRIBE or the workspace's own), the marketing
 * template's opt-out button ("Stop promotions"), or by hand (a member, in the contact panel or the contacts list).
 */
export const OptOutSource = z.enum(['keyword', 'template_button', 'member']);
export type OptOutSource = z.infer<typeof OptOutSource>;
export const Contact = z.object({
  id: Id,
  createdAt: Timestamp,
  workspaceId: Id,
  name: z.string().nullable(),
  attributes: z.record(z.string(), AttributeValue),
  channel: Channel,
  /**
   * E.164. Null when WhatsApp withholds it: a customer with a username who has not talked with the business in
   * 30 days is known by `userId` alone (the smallest change to the spec's contact: see docs/whatsapp-and-sandbox.md).
   */
  phoneNumber: z.string().nullable(),
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
  /**
   * Addition: how and when the contact opted out (`memberId`: who, when by hand). Null when not opted out, or for
   * an opt-out recorded before sources were kept.
   */
  optOut: z.object({ source: OptOutSource, at: z.string(), memberId: Id.nullable() }).nullable().optional(),
  /**
   * Addition: Meta's marketing consent, apart from `optedOut`: the customer stopped (or resumed) marketing
   * messages in WhatsApp (`user_preferences`), or WhatsApp refused a marketing template as stopped (131050).
   * Marketing campaigns skip a stopped contact; utility templates and live chat still go. Null: never told.
   */
  marketingConsent: z
    .object({ value: z.enum(['stopped', 'resumed']), source: z.enum(['user_preferences', '131050']), at: z.string() })
    .nullable()
    .optional(),
  /**
   * Additions: Meta's business-scoped user id (`US.13491208655302741918`), its parent id and the customer's
   * WhatsApp username, each null until Meta sends one. Optional so that contacts cached before them still parse.
   */
  userId: z.string().nullable().optional(),
  parentUserId: z.string().nullable().optional(),
  username: z.string().nullable().optional(),
});
export type Contact = z.infer<typeof Contact>;
