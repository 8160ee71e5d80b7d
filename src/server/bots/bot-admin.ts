/**
 * Bots' drafts, deploys and versions. Deploying is `PATCH /bot/{id}` with `isActive: true`: the draft
 * is checked by the shared validator (400 listing every problem), published as an immutable version when it
 * changed, and the bot goes live on its number (one active bot per number, held by a unique index: 409 naming the
 * other). Sessions keep the version they started on; the draft can be edited, discarded or replaced by any
 * published version without touching a conversation in progress.
 */
import type { z } from 'zod';
import type { Bot, BotVersion, BotVersionDetail, BotRfInstance } from '../../shared';
import { validateBotCanvas, type BotCanvasProblem } from '../../shared/bot-validation';
import type { PatchBotBody } from '../../shared/schemas/requests';
import { HttpError, conflict, notFound } from '../errors';
import * as r from '../repositories/resources';
import * as v from '../repositories/bot-versions';
import { attributesOf } from '../repositories/attributes';
import { workspaceMembersOf } from '../repositories/workspaces';
import { type Executor, isUniqueViolation } from '../db/client';
import type { WorkspaceContext } from '../services/caller';
import type { ServiceDeps } from '../services/context';

const toVersion = (row: v.BotVersionRow, bot: v.BotRow): BotVersion => ({
  id: row.id,
  botId: row.botId,
  version: row.version,
  createdAt: row.createdAt.toISOString(),
  memberId: row.memberId,
  isPublished: bot.publishedVersionId === row.id,
});

/** Every problem that keeps the bot from going live: its canvas, and a number to answer on. */
export async function deployProblems(ex: Executor, bot: v.BotRow): Promise<BotCanvasProblem[]> {
  // One after another: at deploy `ex` is a transaction, whose client runs one statement at a time.
  const attributes = await attributesOf(ex, bot.workspaceId);
  const members = await workspaceMembersOf(ex, bot.workspaceId);
  const problems = validateBotCanvas(bot.rfInstance as BotRfInstance, { attributes, memberIds: members.map((m) => m.member.id) });
  if (!bot.whatsappAccountId) problems.unshift({ nodeId: null, message: 'Connect the bot to a WhatsApp number before deploying it' });
  return problems;
}

export function botAdmin(d: ServiceDeps) {
  /** Runs `fn` on the locked bot; a second active bot on the number becomes a 409 naming the first. */
  async function onBot<T>(ctx: WorkspaceContext, botId: string, fn: (tx: Executor, bot: v.BotRow) => Promise<T>): Promise<T> {
    try {
      return await d.db.transaction(async (tx) => {
        const bot = await v.lockBot(tx, ctx.workspaceId, botId);
        if (!bot) throw notFound('Bot not found');
        return fn(tx, bot);
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const bot = await r.bots.get(d.db.db, ctx.workspaceId, botId);
      const other = bot?.whatsappAccountId ? await v.activeBotOnAccount(d.db.db, bot.whatsappAccountId, botId) : null;
      throw conflict(`The bot "${other?.title ?? 'another bot'}" is already active on this WhatsApp number; deactivate it first`, {
        activeBotId: other?.id ?? null,
      });
    }
  }

  async function deploy(tx: Executor, bot: v.BotRow, memberId: string): Promise<v.BotRow> {
    const problems = await deployProblems(tx, bot);
    if (problems.length) throw new HttpError(400, problems.map((p) => p.message), { problems });
    let publishedVersionId = bot.publishedVersionId;
    if (bot.publishedRevision !== bot.draftRevision || !publishedVersionId) publishedVersionId = (await v.insertVersion(tx, bot, memberId)).id;
    return v.updateBotRow(tx, bot.workspaceId, bot.id, {
      isActive: true,
      lastDeployedAt: new Date(),
      publishedVersionId,
      publishedRevision: bot.draftRevision,
    });
  }

  return {
    /**
     * Title, draft canvas and activity in one transaction. `isActive: true` deploys (publishing the draft when it
     * changed); `lastDeployedAt` from the caller is ignored: the server sets it when it deploys.
     */
    async patchBot(ctx: WorkspaceContext, botId: string, body: z.output<typeof PatchBotBody>): Promise<Bot> {
      for (const node of body.rfInstance?.nodes ?? []) {
        // A media node's link is signed when the bot sends it: it must be a file of this workspace or external.
        if (node.type !== 'MediaNode' || !node.data.mediaLink) continue;
        await d.files.resolveReference(node.data.mediaLink, { workspaceId: ctx.workspaceId, field: `mediaLink of node ${node.id}`, allowExternal: true });
      }
      const row = await onBot(ctx, botId, async (tx, bot) => {
        if (body.title !== undefined) bot = await v.updateBotRow(tx, ctx.workspaceId, botId, { title: body.title });
        if (body.rfInstance !== undefined) bot = await v.setDraft(tx, ctx.workspaceId, botId, body.rfInstance);
        if (body.isActive === true) bot = await deploy(tx, bot, ctx.caller.member.id);
        if (body.isActive === false) bot = await v.updateBotRow(tx, ctx.workspaceId, botId, { isActive: false });
        return bot;
      });
      return r.toBot(row);
    },
    async connectWaba(ctx: WorkspaceContext, botId: string, accountId: string | null): Promise<Bot> {
      const row = await onBot(ctx, botId, (tx) => v.updateBotRow(tx, ctx.workspaceId, botId, { whatsappAccountId: accountId }));
      return r.toBot(row);
    },
    async versions(ctx: WorkspaceContext, botId: string): Promise<BotVersion[]> {
      const bot = await r.bots.get(d.db.db, ctx.workspaceId, botId);
      if (!bot) throw notFound('Bot not found');
      return (await v.versionsOf(d.db.db, ctx.workspaceId, botId)).map((row) => toVersion(row, bot));
    },
    async version(ctx: WorkspaceContext, botId: string, versionId: string): Promise<BotVersionDetail> {
      const bot = await r.bots.get(d.db.db, ctx.workspaceId, botId);
      const row = bot && (await v.versionById(d.db.db, ctx.workspaceId, botId, versionId));
      if (!bot || !row) throw notFound('Bot version not found');
      return { ...toVersion(row, bot), rfInstance: row.rfInstance as BotRfInstance };
    },
    /** The version's canvas becomes the draft; nothing is published until the next deploy. */
    async restoreVersion(ctx: WorkspaceContext, botId: string, versionId: string): Promise<Bot> {
      const row = await onBot(ctx, botId, async (tx) => {
        const version = await v.versionById(tx, ctx.workspaceId, botId, versionId);
        if (!version) throw notFound('Bot version not found');
        return v.setDraft(tx, ctx.workspaceId, botId, version.rfInstance);
      });
      return r.toBot(row);
    },
    /** The draft goes back to the published version (no unpublished changes left). */
    async discardChanges(ctx: WorkspaceContext, botId: string): Promise<Bot> {
      const row = await onBot(ctx, botId, async (tx, bot) => {
        const published = bot.publishedVersionId && (await v.versionById(tx, ctx.workspaceId, botId, bot.publishedVersionId));
        if (!published) throw conflict('This bot has never been published: there is nothing to go back to');
        return v.setDraft(tx, ctx.workspaceId, botId, published.rfInstance, published.draftRevision);
      });
      return r.toBot(row);
    },
  };
}
