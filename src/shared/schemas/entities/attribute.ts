// Contact and conversation attributes: what a workspace records about its contacts beyond the built-in fields.
import * as z from '../../zod';
import { messages } from '../../messages';
import { Id, Timestamp } from '../common';

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
