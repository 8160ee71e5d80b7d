/**
 * Thin handlers, one per route of the shared table: they unpack the validated request and call a service.
 * The compiler checks that every implemented route has exactly one handler.
 */
import type { Handlers } from '../http/types';
import type { Services } from '../http/services';
import * as r from '../repositories/resources';
import * as conv from '../repositories/conversations';
import * as unread from '../repositories/unread';
import * as inv from '../repositories/invitees';
import { uploadHandlers } from '../storage/uploads';
import { routes } from '../../shared/api/routes';
import { bearerToken, streamStillAllowed } from '../auth/access';
import { HttpError } from '../errors';
import { createKeyRateLimiter } from '../campaigns/trigger-keys';

export function buildHandlers(s: Services): Handlers {
  const ex = () => s.deps.db.db;
  const triggerRateLimit = createKeyRateLimiter();
  /** Flags the page's conversations the caller has not read (addition). */
  async function withUnread<E extends { id: string }>(page: { items: E[]; nextCursor: string | null }, ctx: MemberCtx) {
    const ids = await unread.unreadAmong(ex(), ctx.workspaceId, ctx.caller.member.id, page.items.map((c) => c.id));
    return { nextCursor: page.nextCursor, items: page.items.map((c) => ({ ...c, unread: ids.has(c.id) })) };
  }
  return {
    ...uploadHandlers(s),
    // auth
    signUp: ({ body }) => s.auth.signUp(body),
    signUpWithInvite: ({ params, body }) => s.auth.signUpWithInvite(params.inviteToken, body),
    getMe: ({ ctx }) => s.auth.me(ctx.caller),
    patchMe: ({ ctx, body }) => s.auth.switchWorkspace(ctx.caller, body.currentWorkspaceId),
    acceptInvitee: ({ ctx, body }) => s.auth.acceptInvite(ctx.caller, body.token),

    // workspace
    createWorkspace: ({ ctx, body }) => s.workspaces.create(ctx.caller, body.name),
    getWorkspace: ({ ctx }) => s.workspaces.detail(ctx.workspaceId),
    listMembers: ({ ctx, query }) => s.workspaces.members(ctx.workspaceId, query),
    listAttributes: async ({ ctx, query }) => mapPage(await r.attributes.page(ex(), ctx.workspaceId, query), r.toAttribute),
    listBots: async ({ ctx, query }) => mapPage(await r.bots.page(ex(), ctx.workspaceId, query), r.toBot),
    listCampaigns: ({ ctx, query }) => s.automation.listCampaigns(ctx, query),
    listContacts: ({ ctx, query }) => s.audience.listContacts(ctx, query),
    exportContacts: ({ ctx, query, reply }) => s.contactExport.exportCsv(ctx, query, reply),
    countContacts: ({ ctx, query }) => s.contacts.count(ctx, query),
    createContact: ({ ctx, body }) => s.contacts.create(ctx, body),
    deleteContact: ({ ctx, params }) => s.contacts.remove(ctx, params.contactId),
    listConversations: async ({ ctx, query }) =>
      withUnread(await conv.listConversations(ex(), ctx.workspaceId, { ...query, memberId: ctx.caller.member.id }), ctx),
    countConversations: async ({ ctx }) => ({
      ...(await conv.countConversations(ex(), ctx.workspaceId, ctx.caller.member.id)),
      unread: await unread.unreadCounts(ex(), ctx.workspaceId, ctx.caller.member.id),
    }),
    listInvitees: async ({ ctx, query }) => mapPage(await inv.openInvitationsPage(ex(), ctx.workspaceId, query), r.toInvitee),
    listSegments: async ({ ctx, query }) => mapPage(await r.segments.page(ex(), ctx.workspaceId, query), r.toSegment),
    listWhatsappAccounts: async ({ ctx, query }) =>
      mapPage(await r.whatsappAccounts.page(ex(), ctx.workspaceId, query), r.toWhatsappAccount),
    listWhatsappTemplates: async ({ ctx, query }) =>
      mapPage(await r.whatsappTemplates.page(ex(), ctx.workspaceId, query), r.toTemplate),
    listImportHistory: ({ ctx, query }) => s.imports.list(ctx, query),
    streamEvents: ({ ctx, query, request, reply }) =>
      s.deps.realtime.stream({
        workspaceId: ctx.workspaceId,
        request,
        reply,
        lastEventId: query.lastEventId,
        identity: { expiresAt: ctx.caller.expiresAt, stillAllowed: streamStillAllowed(s.deps, bearerToken(request) ?? '', ctx) },
      }),

    // bot
    getBot: ({ ctx, params }) => s.automation.getBot(ctx, params.botId),
    createBot: ({ ctx, body }) => s.automation.createBot(ctx, body),
    patchBot: ({ ctx, params, body }) => s.automation.patchBot(ctx, params.botId, body),
    connectWaba: ({ ctx, params, body }) => s.automation.connectWaba(ctx, params.botId, body.wabaAccountId),
    deleteBot: ({ ctx, params }) => s.automation.deleteBot(ctx, params.botId),
    // bot additions (issue 18)
    listBotVersions: ({ ctx, params }) => s.automation.listBotVersions(ctx, params.botId),
    getBotVersion: ({ ctx, params }) => s.automation.getBotVersion(ctx, params.botId, params.versionId),
    restoreBotVersion: ({ ctx, params }) => s.automation.restoreBotVersion(ctx, params.botId, params.versionId),
    discardBotChanges: ({ ctx, params }) => s.automation.discardBotChanges(ctx, params.botId),
    startBotPreview: ({ ctx, params }) => s.automation.previewBot.start(ctx, params.botId),
    answerBotPreview: ({ ctx, params, body }) => s.automation.previewBot.answer(ctx, params.botId, body.session, body.answer),

    // campaign
    getCampaign: ({ ctx, params }) => s.automation.getCampaign(ctx, params.campaignId),
    createCampaign: ({ ctx, body }) => s.automation.createCampaign(ctx, body),
    // campaign engine (issue 17): src/server/campaigns
    patchCampaign: ({ ctx, params, body }) => s.campaigns.patch(ctx, params.campaignId, body),
    deleteCampaign: ({ ctx, params }) => s.campaigns.remove(ctx, params.campaignId),
    deployCampaign: ({ ctx, params, body }) => s.campaigns.deploy(ctx, params.campaignId, body),
    pauseCampaign: ({ ctx, params, body }) => s.campaigns.pause(ctx, params.campaignId, body),
    resumeCampaign: ({ ctx, params }) => s.campaigns.resume(ctx, params.campaignId),
    cancelCampaignSchedule: ({ ctx, params }) => s.campaigns.cancelSchedule(ctx, params.campaignId),
    rotateCampaignTriggerKey: ({ ctx, params }) => s.campaigns.rotateTriggerKey(ctx, params.campaignId),
    getCampaignResults: ({ ctx, params }) => s.campaignData.results(ctx, params.campaignId),
    listCampaignLogs: ({ ctx, params, query }) => s.campaignData.logs(ctx, params.campaignId, query),
    exportCampaignLogs: ({ ctx, params, query, reply }) => s.campaignData.exportCsv(ctx, params.campaignId, query.status, reply),
    retargetCampaign: ({ ctx, params, body }) => s.campaignData.retarget(ctx, params.campaignId, body),
    getCampaignSettings: ({ ctx }) => s.campaignData.settings(ctx),
    patchCampaignSettings: ({ ctx, body }) => s.campaignData.patchSettings(ctx, body),
    triggerOutbound: async ({ ctx, params, body, reply }) => {
      // Calls with a trigger key are rate-limited per key (429 with Retry-After beyond the limit).
      const wait = ctx.triggerKeyHash ? triggerRateLimit(ctx.triggerKeyHash) : 0;
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        throw new HttpError(429, `Too many calls with this trigger key; try again in ${wait} s`);
      }
      return s.campaignData.trigger(ctx, params.campaignId, body);
    },

    // attribute, contact, segment
    createAttribute: ({ ctx, body }) => s.audience.createAttribute(ctx, body),
    patchAttribute: ({ ctx, params, body }) => s.audience.patchAttribute(ctx, params.attributeId, body),
    deleteAttribute: ({ ctx, params }) => s.audience.deleteAttribute(ctx, params.attributeId),
    patchContact: async ({ ctx, params, body }) => {
      const { optedOut, ...rest } = body;
      const contact = await s.audience.patchContact(ctx, params.contactId, rest);
      // Issue 17: an agent opts the contact back in to campaigns (or out).
      if (optedOut === undefined) return contact;
      await s.campaignData.setOptedOut(ctx, params.contactId, optedOut);
      return { ...contact, optedOut };
    },
    listContactConversations: async ({ ctx, params, query }) =>
      withUnread(
        await conv.listConversations(ex(), ctx.workspaceId, { ...query, contactId: params.contactId, memberId: ctx.caller.member.id }),
        ctx,
      ),
    createSegment: ({ ctx, body }) => s.audience.createSegment(ctx, body),
    previewSegment: ({ ctx, body }) => s.audience.previewSegment(ctx, body),
    createImport: ({ ctx, body }) => s.imports.create(ctx, body),
    deleteSegment: ({ ctx, params }) => s.audience.deleteSegment(ctx, params.segmentId),

    // invitee
    createInvitee: ({ ctx, body }) => s.team.invite(ctx, body.email, body.role),
    validateInvitee: ({ body }) => s.team.validate(body.id),
    deleteInvitee: ({ ctx, params }) => s.team.revoke(ctx, params.id),

    // conversation
    getConversation: ({ ctx, params }) => s.conversations.detail(ctx, params.conversationId),
    listConversationMessages: ({ ctx, params, query }) => conv.messagesPage(ex(), ctx.workspaceId, params.conversationId, query),
    patchConversation: ({ ctx, params, body }) => s.conversations.patch(ctx, params.conversationId, body),
    markConversationRead: async ({ ctx, params }) => {
      await unread.markRead(ex(), ctx.workspaceId, ctx.caller.member.id, params.conversationId);
      return { success: true as const };
    },

    // whatsapp
    deleteWhatsappAccount: ({ ctx, params }) => s.team.deleteWhatsappAccount(ctx, params.id),
    createWhatsappAccount: ({ ctx, body }) => s.whatsappAccounts.create(ctx, body),
    patchWhatsappAccount: ({ ctx, params, body }) => s.whatsappAccounts.update(ctx, params.id, body),
    refreshWhatsappHealth: ({ ctx, params }) => s.numberHealth.refresh(ctx, params.id),
    listWhatsappFlows: ({ ctx, params }) => s.flows.list(ctx, params.whatsappAccountId),

    // messages and templates (WhatsApp channel)
    createMessage: ({ ctx, body }) => s.messages.sendText(ctx, body),
    sendTemplateMessage: ({ ctx, body }) => s.messages.sendTemplate(ctx, body),
    sendContactTemplateMessage: ({ ctx, params, body }) => s.messages.sendTemplateToContact(ctx, params.contactId, body),
    createTemplate: ({ ctx, body }) => s.templates.create(ctx, body),
    deleteTemplate: ({ ctx, params }) => s.templates.remove(ctx, params.templateId),
    syncTemplates: ({ ctx }) => s.templates.sync(ctx),
    uploadTemplateMedia: ({ ctx, request }) => s.templates.uploadMedia(ctx, request, routes.uploadTemplateMedia.multipart),

    // issue 19 part A: canned replies, notes and mentions, search, media sends
    listCannedReplies: ({ ctx, query }) => s.cannedReplies.list(ctx, query),
    createCannedReply: ({ ctx, body }) => s.cannedReplies.create(ctx, body),
    patchCannedReply: ({ ctx, params, body }) => s.cannedReplies.patch(ctx, params.cannedReplyId, body),
    deleteCannedReply: ({ ctx, params }) => s.cannedReplies.remove(ctx, params.cannedReplyId),
    createNote: ({ ctx, body }) => s.messages.createNote(ctx, body),
    uploadChatMedia: ({ ctx, params, request }) => s.messages.uploadMedia(ctx, params.conversationId, request, routes.uploadChatMedia.multipart),
    sendMediaMessage: ({ ctx, body }) => s.messages.sendMedia(ctx, body),
    sendInteractiveMessage: ({ ctx, body }) => s.messages.sendInteractive(ctx, body),
    listMentions: ({ ctx, query }) => s.mentions.list(ctx, query),
    countMentions: ({ ctx }) => s.mentions.count(ctx),
    markMentionsRead: ({ ctx, params }) => s.mentions.markRead(ctx, params.conversationId),
    searchConversation: ({ ctx, params, query }) => s.messageSearch.inConversation(ctx, params.conversationId, query),
    searchMessages: ({ ctx, query }) => s.messageSearch.inWorkspace(ctx, query),

    // issue 19 part B: presence
    setPresence: ({ ctx, params, body }) => s.presence.signal(ctx, params.conversationId, body.state),
    getWebhookSetup: () => s.webhookSetup.get(),
    listMemberRouting: ({ ctx }) => s.routing.list(ctx),
    patchMemberRouting: ({ ctx, body }) => s.routing.patch(ctx, body.memberId, { available: body.available, chatCapacity: body.chatCapacity }),
  };
}

type MemberCtx = { workspaceId: string; caller: { member: { id: string } } };

function mapPage<R, T>(page: { items: R[]; nextCursor: string | null }, map: (r: R) => T) {
  return { items: page.items.map(map), nextCursor: page.nextCursor };
}
