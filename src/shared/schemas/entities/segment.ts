// A saved segment of the audience: its filters (spelled as the product contract spells them) and a preview.
import * as z from '../../zod';
import { messages } from '../../messages';
import { Id, Timestamp } from '../common';
import { Contact } from './contact';

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
