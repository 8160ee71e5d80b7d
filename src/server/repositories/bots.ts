/** SQL of `bots` beyond the shared CRUD (resources.ts `bots`). */
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';

/** Bots on a WhatsApp account that goes away lose their link to it and stop (they have no number to answer on). */
export async function unlinkBotsFromAccount(ex: Executor, workspaceId: string, whatsappAccountId: string): Promise<void> {
  await ex
    .update(t.bots)
    .set({ whatsappAccountId: null, isActive: false })
    .where(and(eq(t.bots.workspaceId, workspaceId), eq(t.bots.whatsappAccountId, whatsappAccountId)));
}
