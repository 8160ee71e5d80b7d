/** Bots: the canvas, its versions, the preview, connecting a number, media. */
import type { Handlers } from '../http/types';
import type { Services } from '../http/services';

export const botRoutes = (s: Services) =>
  ({
    listBots: ({ ctx, query }) => s.automation.listBots(ctx, query),
    getBot: ({ ctx, params }) => s.automation.getBot(ctx, params.botId),
    createBot: ({ ctx, body }) => s.automation.createBot(ctx, body),
    patchBot: ({ ctx, params, body }) => s.automation.patchBot(ctx, params.botId, body),
    connectWaba: ({ ctx, params, body }) => s.automation.connectWaba(ctx, params.botId, body.wabaAccountId),
    deleteBot: ({ ctx, params }) => s.automation.deleteBot(ctx, params.botId),
    listBotVersions: ({ ctx, params }) => s.automation.listBotVersions(ctx, params.botId),
    getBotVersion: ({ ctx, params }) => s.automation.getBotVersion(ctx, params.botId, params.versionId),
    restoreBotVersion: ({ ctx, params }) => s.automation.restoreBotVersion(ctx, params.botId, params.versionId),
    discardBotChanges: ({ ctx, params }) => s.automation.discardBotChanges(ctx, params.botId),
    startBotPreview: ({ ctx, params }) => s.automation.previewBot.start(ctx, params.botId),
    answerBotPreview: ({ ctx, params, body }) => s.automation.previewBot.answer(ctx, params.botId, body.session, body.answer),
    uploadBotMedia: ({ ctx, request }) => s.uploads.botMedia(ctx, request),
    getBotSettings: ({ ctx }) => s.botSettings.settings(ctx),
    patchBotSettings: ({ ctx, body }) => s.botSettings.patch(ctx, body),
  }) satisfies Partial<Handlers>;
