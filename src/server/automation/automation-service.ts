/** Bots and campaigns: their records and canvases (the engines that run them come later). */
import type { Bot, BotRfInstance, Campaign, CampaignDraftRfInstance } from '../../shared';
import type { z } from 'zod';
import type { CampaignListEntry } from '../../shared/schemas/entities';
import type { CreateBotBody, CreateCampaignBody, PatchBotBody } from '../../shared/schemas/requests';
import { limits } from '../../shared/limits';
import { notFound } from '../errors';
import * as r from '../repositories/resources';
import * as logs from '../repositories/campaign-logs';
import { countsOf, emptyCounts } from '../repositories/campaign-results';
import { accountIdByIdOrWaba } from '../repositories/whatsapp-accounts';
import { type Page, type PageRequest, mapPage } from '../repositories/pagination';
import type { WorkspaceContext } from '../services/caller';
import type { ServiceDeps } from '../services/context';
import { botAdmin } from '../bots/bot-admin';
import { botPreview } from '../bots/preview';

const viewport = { x: 0, y: 0, zoom: 1 };
/** A new bot starts with its start node, which cannot be deleted. */
export const newBotCanvas = (): BotRfInstance => ({
  nodes: [{ id: 'start', type: 'StartNode', position: { x: 0, y: 0 }, data: { label: 'Start' }, deletable: false }],
  edges: [],
  viewport,
});
export const newCampaignCanvas = (): CampaignDraftRfInstance => ({ nodes: [], edges: [], viewport });

export function automationService(d: ServiceDeps) {
  const ex = () => d.db.db;
  const bots = botAdmin(d);
  async function bot(ctx: WorkspaceContext, id: string) {
    const row = await r.bots.get(ex(), ctx.workspaceId, id);
    if (!row) throw notFound('Bot not found');
    return row;
  }
  async function campaign(ctx: WorkspaceContext, id: string) {
    const row = await r.campaigns.get(ex(), ctx.workspaceId, id);
    if (!row) throw notFound('Campaign not found');
    return row;
  }

  return {
    listBots: async (ctx: WorkspaceContext, query: PageRequest) => mapPage(await r.bots.page(ex(), ctx.workspaceId, query), r.toBot),
    getBot: async (ctx: WorkspaceContext, id: string): Promise<Bot> => r.toBot(await bot(ctx, id)),
    async createBot(ctx: WorkspaceContext, body: z.output<typeof CreateBotBody>): Promise<Bot> {
      const row = await r.bots.insert(ex(), {
        workspaceId: ctx.workspaceId,
        title: body.title ?? 'Untitled bot',
        rfInstance: newBotCanvas(),
        memberId: ctx.caller.member.id,
      });
      return r.toBot(row);
    },
    /** Draft, title and deploy (src/server/bots/bot-admin.ts). */
    patchBot: (ctx: WorkspaceContext, id: string, body: z.output<typeof PatchBotBody>): Promise<Bot> => bots.patchBot(ctx, id, body),
    /** `wabaAccountId` names a WhatsApp account of the bot's workspace by its id or its WABA id. */
    async connectWaba(ctx: WorkspaceContext, id: string, wabaAccountId: string | null): Promise<Bot> {
      await bot(ctx, id);
      let accountId: string | null = null;
      if (wabaAccountId) {
        accountId = await accountIdByIdOrWaba(ex(), ctx.workspaceId, wabaAccountId);
        if (!accountId) throw notFound('WhatsApp account not found');
      }
      return bots.connectWaba(ctx, id, accountId);
    },
    listBotVersions: bots.versions,
    getBotVersion: bots.version,
    restoreBotVersion: bots.restoreVersion,
    discardBotChanges: bots.discardChanges,
    /** The editor's preview (src/server/bots/preview.ts): writes nothing. */
    previewBot: botPreview(d),
    async deleteBot(ctx: WorkspaceContext, id: string) {
      if (!(await r.bots.remove(ex(), ctx.workspaceId, id))) throw notFound('Bot not found');
      return { success: true as const };
    },

    /**
     * A page of campaigns, newest first, each with its newest CampaignLogs (bounded) and its logCounts, which an
     * aggregate counts over every log row of the campaign.
     */
    async listCampaigns(ctx: WorkspaceContext, query: PageRequest): Promise<Page<z.output<typeof CampaignListEntry>>> {
      const page = await r.campaigns.page(ex(), ctx.workspaceId, query);
      const ids = page.items.map((c) => c.id);
      const [latest, counts, results] = await Promise.all([
        logs.latestLogsOf(ex(), ctx.workspaceId, ids, limits.campaignListLogs),
        logs.logCountsOf(ex(), ctx.workspaceId, ids),
        countsOf(ex(), ctx.workspaceId, ids),
      ]);
      return {
        nextCursor: page.nextCursor,
        items: page.items.map((c) => ({
          ...r.toCampaign(c),
          CampaignLogs: latest.get(c.id) ?? [],
          logCounts: counts.get(c.id) ?? { success: 0, failed: 0 },
          counts: results.get(c.id) ?? emptyCounts(),
        })),
      };
    },
    getCampaign: async (ctx: WorkspaceContext, id: string): Promise<Campaign> => r.toCampaign(await campaign(ctx, id)),
    async createCampaign(ctx: WorkspaceContext, body: z.output<typeof CreateCampaignBody>): Promise<Campaign> {
      const row = await r.campaigns.insert(ex(), {
        workspaceId: ctx.workspaceId,
        name: body.name ?? 'Untitled campaign',
        type: body.type,
        rfInstance: newCampaignCanvas(),
        memberId: ctx.caller.member.id,
      });
      return r.toCampaign(row);
    },
  };
}
