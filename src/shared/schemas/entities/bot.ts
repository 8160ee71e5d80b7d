// A bot as the API answers it (its canvas schemas are in ../bot-canvas.ts).
import * as z from '../../zod';
import { BotDraftRfInstance } from '../bot-canvas';
import { Channel, Id, Timestamp } from '../common';

export const Bot = z.object({
  id: Id,
  title: z.string(),
  createdAt: Timestamp,
  lastDeployedAt: Timestamp.nullable(),
  isActive: z.boolean(),
  channel: Channel,
  /** The draft canvas (unfinished nodes allowed); sessions run on the published version. */
  rfInstance: BotDraftRfInstance,
  memberId: Id,
  workspaceId: Id,
  whatsappAccountId: Id.nullable(),
  /** Addition: the version new sessions start on (null until the first deploy). */
  publishedVersionId: Id.nullable(),
  /** Addition: the draft differs from the published version (or nothing is published yet). */
  hasUnpublishedChanges: z.boolean(),
});
export type Bot = z.infer<typeof Bot>;
