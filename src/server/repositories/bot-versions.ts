/** SQL of bot drafts and published versions. */
import { and, desc, eq, max, ne, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';
import { isUuid } from './pagination';

export type BotRow = typeof t.bots.$inferSelect;
export type BotVersionRow = typeof t.botVersions.$inferSelect;

/** The bot, locked for the rest of the transaction (deploys and draft changes of one bot go one at a time). */
export async function lockBot(ex: Executor, workspaceId: string, botId: string): Promise<BotRow | null> {
  const [row] = await ex.select().from(t.bots).where(and(eq(t.bots.workspaceId, workspaceId), eq(t.bots.id, botId))).for('update');
  return row ?? null;
}

/** Replaces the draft canvas; `revision` given (discard) keeps it, otherwise the revision moves on. */
export async function setDraft(ex: Executor, workspaceId: string, botId: string, rfInstance: unknown, revision?: number): Promise<BotRow> {
  const [row] = await ex
    .update(t.bots)
    .set({ rfInstance, draftRevision: revision ?? sql`${t.bots.draftRevision} + 1` })
    .where(and(eq(t.bots.workspaceId, workspaceId), eq(t.bots.id, botId)))
    .returning();
  return row;
}

export async function updateBotRow(ex: Executor, workspaceId: string, botId: string, set: Partial<typeof t.bots.$inferInsert>): Promise<BotRow> {
  const [row] = await ex.update(t.bots).set(set).where(and(eq(t.bots.workspaceId, workspaceId), eq(t.bots.id, botId))).returning();
  return row;
}

/** Stores the bot's draft as its next version (1, 2, 3...). */
export async function insertVersion(ex: Executor, bot: BotRow, memberId: string): Promise<BotVersionRow> {
  const [{ top }] = await ex.select({ top: max(t.botVersions.version) }).from(t.botVersions).where(eq(t.botVersions.botId, bot.id));
  const [row] = await ex
    .insert(t.botVersions)
    .values({ workspaceId: bot.workspaceId, botId: bot.id, version: (top ?? 0) + 1, rfInstance: bot.rfInstance, draftRevision: bot.draftRevision, memberId })
    .returning();
  return row;
}

export async function versionsOf(ex: Executor, workspaceId: string, botId: string, limit = 200): Promise<BotVersionRow[]> {
  return ex
    .select()
    .from(t.botVersions)
    .where(and(eq(t.botVersions.workspaceId, workspaceId), eq(t.botVersions.botId, botId)))
    .orderBy(desc(t.botVersions.version))
    .limit(limit);
}

export async function versionById(ex: Executor, workspaceId: string, botId: string, versionId: string): Promise<BotVersionRow | null> {
  if (!isUuid(versionId)) return null;
  const [row] = await ex
    .select()
    .from(t.botVersions)
    .where(and(eq(t.botVersions.workspaceId, workspaceId), eq(t.botVersions.botId, botId), eq(t.botVersions.id, versionId)));
  return row ?? null;
}

/** The version a session runs on (any workspace: the runtime has the session's workspace already). */
export async function versionOfSession(ex: Executor, workspaceId: string, versionId: string): Promise<BotVersionRow | null> {
  const [row] = await ex.select().from(t.botVersions).where(and(eq(t.botVersions.workspaceId, workspaceId), eq(t.botVersions.id, versionId)));
  return row ?? null;
}

/** The other bot active on a WhatsApp account (what a 409 names). */
export async function activeBotOnAccount(ex: Executor, whatsappAccountId: string, exceptBotId: string): Promise<BotRow | null> {
  const [row] = await ex
    .select()
    .from(t.bots)
    .where(and(eq(t.bots.whatsappAccountId, whatsappAccountId), eq(t.bots.isActive, true), ne(t.bots.id, exceptBotId)))
    .limit(1);
  return row ?? null;
}

/** The active bot of an account, with its published version (what an inbound message may start). */
export async function liveBotOfAccount(ex: Executor, whatsappAccountId: string): Promise<{ bot: BotRow; version: BotVersionRow } | null> {
  const [row] = await ex
    .select({ bot: t.bots, version: t.botVersions })
    .from(t.bots)
    .innerJoin(t.botVersions, eq(t.botVersions.id, t.bots.publishedVersionId))
    .where(and(eq(t.bots.whatsappAccountId, whatsappAccountId), eq(t.bots.isActive, true)))
    .limit(1);
  return row ?? null;
}
