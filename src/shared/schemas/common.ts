import * as z from '../zod';
import { isStorableText, unstorableTextMessage } from '../zod';
import { limits } from '../limits';

/** Identifiers on the wire are opaque strings (UUIDs today). */
export const Id = z.string().min(1).max(128);
/** Timestamps on the wire are ISO 8601 strings in UTC. */
export const Timestamp = z.iso.datetime().max(64).refine(isStorableText, { error: unstorableTextMessage });
export const Role = z.enum(['admin', 'agent']);
export type Role = z.infer<typeof Role>;
export const Channel = z.literal('WhatsApp');

/** `limit` and `cursor` of every list; the answer is `{ items, nextCursor }`. */
export const PageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(limits.page.maxLimit).optional(),
  cursor: z.string().max(512).optional(),
});

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}

export const Success = z.object({ success: z.literal(true) });

/** Any JSON value (message actions, template components as sent). */
export const Json: z.ZodType<unknown> = z.unknown();
