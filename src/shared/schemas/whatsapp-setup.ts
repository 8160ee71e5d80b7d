/** Addition: what an admin gives Meta to connect the webhook, and whether Meta's check got through. */
import * as z from '../zod';
import { Id, Timestamp } from './common';

export const WebhookSetup = z.object({
  /** The callback URL to enter in Meta's app dashboard (PUBLIC_URL + /webhooks/whatsapp). */
  callbackUrl: z.string(),
  /** WHATSAPP_VERIFY_TOKEN, or null when the server has none (then Meta's check cannot pass). */
  verifyToken: z.string().nullable(),
  /** WHATSAPP_APP_SECRET is set (deliveries are refused without it: their signature cannot be checked). */
  appSecretConfigured: z.boolean(),
  /** When Meta's verification call last reached this server and passed; null: never. */
  lastVerifiedAt: Timestamp.nullable(),
  /**
   * Where the server's Graph API calls go (GRAPH_API_URL); `sandbox` when that is not Meta (the local sandbox of
   * `npm start`): numbers are then checked against, and messages sent to, the stand-in.
   */
  graphApi: z.object({ url: z.string(), sandbox: z.boolean() }),
});
export type WebhookSetup = z.infer<typeof WebhookSetup>;

/** Addition: a member's routing settings in a workspace: taking new conversations, and how many. */
export const MemberRouting = z.object({
  memberId: z.string(),
  available: z.boolean(),
  chatCapacity: z.number().int(),
});
export type MemberRouting = z.infer<typeof MemberRouting>;
export const PatchMemberRoutingBody = z
  .strictObject({
    memberId: Id,
    available: z.boolean().optional(),
    chatCapacity: z.number().int().min(1).max(100).optional(),
  })
  .refine((b) => b.available !== undefined || b.chatCapacity !== undefined, { error: 'Give available or chatCapacity' });
