/** The WhatsApp channel: numbers (accounts), their health and flows, templates, and the messages sent through it. */
import type { Handlers } from '../http/types';
import type { Services } from '../http/services';
import { routes } from '../../shared/api/routes';

export const whatsappRoutes = (s: Services) =>
  ({
    listWhatsappAccounts: ({ ctx, query }) => s.whatsappAccounts.list(ctx, query),
    createWhatsappAccount: ({ ctx, body }) => s.whatsappAccounts.create(ctx, body),
    patchWhatsappAccount: ({ ctx, params, body }) => s.whatsappAccounts.update(ctx, params.id, body),
    deleteWhatsappAccount: ({ ctx, params }) => s.team.deleteWhatsappAccount(ctx, params.id),
    refreshWhatsappHealth: ({ ctx, params }) => s.numberHealth.refresh(ctx, params.id),
    listWhatsappFlows: ({ ctx, params }) => s.flows.list(ctx, params.whatsappAccountId),

    listWhatsappTemplates: ({ ctx, query }) => s.templates.list(ctx, query),
    createTemplate: ({ ctx, body }) => s.templates.create(ctx, body),
    deleteTemplate: ({ ctx, params }) => s.templates.remove(ctx, params.templateId),
    syncTemplates: ({ ctx }) => s.templates.sync(ctx),
    uploadTemplateMedia: ({ ctx, request }) => s.templates.uploadMedia(ctx, request, routes.uploadTemplateMedia.multipart),

    createMessage: ({ ctx, body }) => s.messages.sendText(ctx, body),
    sendTemplateMessage: ({ ctx, body }) => s.messages.sendTemplate(ctx, body),
    sendContactTemplateMessage: ({ ctx, params, body }) => s.messages.sendTemplateToContact(ctx, params.contactId, body),
    uploadChatMedia: ({ ctx, params, request }) => s.messages.uploadMedia(ctx, params.conversationId, request, routes.uploadChatMedia.multipart),
    sendMediaMessage: ({ ctx, body }) => s.messages.sendMedia(ctx, body),
    sendInteractiveMessage: ({ ctx, body }) => s.messages.sendInteractive(ctx, body),
  }) satisfies Partial<Handlers>;
