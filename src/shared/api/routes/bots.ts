// Routes of a bot: its canvas, media and WhatsApp number; additions: published versions, discarding the draft,
// and the preview against a simulated customer.
import * as z from '../../zod';
import { BotPreviewAnswerBody, BotPreviewTurn, BotSettings, BotSettingsBody, BotVersion, BotVersionDetail } from '../../schemas/bot-canvas';
import { Success } from '../../schemas/common';
import { Bot } from '../../schemas/entities';
import { ConnectWabaBody, CreateBotBody, PatchBotBody } from '../../schemas/requests';
import { adminIn, agentIn, MB, pathParams, route, wsBody, wsParams } from './define';

export const botRoutes = {
  getBot: route({
    method: 'GET', path: '/bot/:botId', tag: 'bot', summary: 'A bot with its canvas',
    params: pathParams.bot, status: 200, response: Bot, access: agentIn('bot', 'botId'),
  }),
  createBot: route({
    method: 'POST', path: '/bot', tag: 'bot', summary: 'Create a bot with a start node',
    body: CreateBotBody, status: 201, response: Bot, access: wsBody('admin'),
  }),
  patchBot: route({
    method: 'PATCH', path: '/bot/:botId', tag: 'bot', summary: 'Update title, activity, deploy time or canvas',
    params: pathParams.bot, body: PatchBotBody, status: 200, response: Bot, access: adminIn('bot', 'botId'),
  }),
  uploadBotMedia: route({
    method: 'POST', path: '/bot/:botId/uploadMedia', tag: 'bot', summary: 'Upload a media file for a media node',
    params: pathParams.bot, multipart: { field: 'file', maxBytes: 16 * MB, mimeTypes: ['image/jpeg', 'image/png', 'video/mp4', 'video/3gpp', 'application/pdf'] },
    status: 201, response: z.object({ mediaLink: z.string() }), access: adminIn('bot', 'botId'),
  }),
  connectWaba: route({
    method: 'PATCH', path: '/bot/:botId/connectWaba', tag: 'bot', summary: 'Tie the bot to a WhatsApp account of its workspace',
    params: pathParams.bot, body: ConnectWabaBody, status: 200, response: Bot, access: adminIn('bot', 'botId'),
  }),
  deleteBot: route({
    method: 'DELETE', path: '/bot/:botId', tag: 'bot', summary: 'Delete a bot',
    params: pathParams.bot, status: 200, response: Success, access: adminIn('bot', 'botId'),
  }),
  // additions: versions, discarding the draft, preview
  listBotVersions: route({
    method: 'GET', path: '/bot/:botId/versions', tag: 'bot', summary: 'Published versions of a bot, newest first (time and author)',
    params: pathParams.bot, status: 200, response: z.array(BotVersion), access: agentIn('bot', 'botId'), addition: true,
  }),
  getBotVersion: route({
    method: 'GET', path: '/bot/:botId/versions/:versionId', tag: 'bot', summary: 'One published version with its canvas',
    params: pathParams.botVersion, status: 200, response: BotVersionDetail, access: agentIn('bot', 'botId'), addition: true,
  }),
  restoreBotVersion: route({
    method: 'POST', path: '/bot/:botId/versions/:versionId/restore', tag: 'bot', summary: 'Make a published version the draft (not published until deployed)',
    params: pathParams.botVersion, body: z.strictObject({}).optional(), status: 200, response: Bot, access: adminIn('bot', 'botId'), addition: true,
  }),
  discardBotChanges: route({
    method: 'POST', path: '/bot/:botId/discardChanges', tag: 'bot', summary: 'Replace the draft by the published version',
    params: pathParams.bot, body: z.strictObject({}).optional(), status: 200, response: Bot, access: adminIn('bot', 'botId'), addition: true,
  }),
  startBotPreview: route({
    method: 'POST', path: '/bot/:botId/preview', tag: 'bot', summary: 'Run the draft against a simulated customer: the first turn (writes nothing)',
    params: pathParams.bot, body: z.strictObject({}).optional(), status: 200, response: BotPreviewTurn, access: adminIn('bot', 'botId'), addition: true,
  }),
  answerBotPreview: route({
    method: 'POST', path: '/bot/:botId/preview/answer', tag: 'bot', summary: "The simulated customer's answer and the bot's next turn (writes nothing)",
    params: pathParams.bot, body: BotPreviewAnswerBody, status: 200, response: BotPreviewTurn, access: adminIn('bot', 'botId'), addition: true,
  }),
  getBotSettings: route({
    method: 'GET', path: '/workspace/:workspaceId/bot-settings', tag: 'bot', summary: "The workspace's bot settings (the From address of bots' e-mails)",
    params: pathParams.workspace, status: 200, response: BotSettings, access: wsParams('agent'), addition: true,
  }),
  patchBotSettings: route({
    method: 'PATCH', path: '/workspace/:workspaceId/bot-settings', tag: 'bot', summary: "Change the From address of the workspace's bot e-mails (null: SMTP_FROM)",
    params: pathParams.workspace, body: BotSettingsBody, status: 200, response: BotSettings, access: wsParams('admin'), addition: true,
  }),
} as const;
