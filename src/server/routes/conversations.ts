/**
 * The inbox: conversations and their messages, notes, mentions, search, presence, canned replies, the live
 * event stream.
 */
import type { Handlers } from '../http/types';
import type { Services } from '../http/services';
import { bearerToken, streamStillAllowed } from '../auth/access';

export const conversationRoutes = (s: Services) =>
  ({
    listConversations: ({ ctx, query }) => s.conversations.list(ctx, query),
    countConversations: ({ ctx }) => s.conversations.count(ctx),
    listContactConversations: ({ ctx, params, query }) => s.conversations.listOfContact(ctx, params.contactId, query),
    getConversation: ({ ctx, params }) => s.conversations.detail(ctx, params.conversationId),
    listConversationMessages: ({ ctx, params, query }) => s.conversations.messages(ctx, params.conversationId, query),
    patchConversation: ({ ctx, params, body }) => s.conversations.patch(ctx, params.conversationId, body),
    markConversationRead: ({ ctx, params }) => s.conversations.markRead(ctx, params.conversationId),

    createNote: ({ ctx, body }) => s.messages.createNote(ctx, body),
    listMentions: ({ ctx, query }) => s.mentions.list(ctx, query),
    countMentions: ({ ctx }) => s.mentions.count(ctx),
    markMentionsRead: ({ ctx, params }) => s.mentions.markRead(ctx, params.conversationId),
    searchConversation: ({ ctx, params, query }) => s.messageSearch.inConversation(ctx, params.conversationId, query),
    searchMessages: ({ ctx, query }) => s.messageSearch.inWorkspace(ctx, query),
    setPresence: ({ ctx, params, body }) => s.presence.signal(ctx, params.conversationId, body.state),

    listCannedReplies: ({ ctx, query }) => s.cannedReplies.list(ctx, query),
    createCannedReply: ({ ctx, body }) => s.cannedReplies.create(ctx, body),
    patchCannedReply: ({ ctx, params, body }) => s.cannedReplies.patch(ctx, params.cannedReplyId, body),
    deleteCannedReply: ({ ctx, params }) => s.cannedReplies.remove(ctx, params.cannedReplyId),

    streamEvents: ({ ctx, query, request, reply }) =>
      s.deps.realtime.stream({
        workspaceId: ctx.workspaceId,
        request,
        reply,
        lastEventId: query.lastEventId,
        identity: { expiresAt: ctx.caller.expiresAt, stillAllowed: streamStillAllowed(s.deps, bearerToken(request) ?? '', ctx) },
      }),
  }) satisfies Partial<Handlers>;
