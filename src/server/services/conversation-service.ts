import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Conversation, ConversationDetail } from '../../shared';
import type { PatchConversationBody } from '../../shared/schemas/requests';
import * as t from '../db/schema';
import { badRequest, notFound } from '../errors';
import * as r from '../repositories/resources';
import * as conv from '../repositories/conversations';
import * as ws from '../repositories/workspaces';
import { isUuid } from '../repositories/pagination';
import type { WorkspaceContext } from '../http/types';
import type { ServiceDeps } from './context';
import { appendEvent } from '../realtime/event-log';

export function conversationService(d: ServiceDeps) {
  const ex = () => d.db.db;
  return {
    async detail(ctx: WorkspaceContext, id: string): Promise<ConversationDetail> {
      const row = await r.conversations.get(ex(), ctx.workspaceId, id);
      if (!row) throw notFound('Conversation not found');
      const contact = await r.contacts.get(ex(), ctx.workspaceId, row.contactId);
      return {
        ...conv.toConversation(row),
        ConversationEvent: await conv.eventsOf(ex(), ctx.workspaceId, id),
        Contact: r.toContact(contact!),
        Message: await conv.messagesOf(ex(), ctx.workspaceId, id),
      };
    },

    /**
     * Opens, closes or assigns. Closing records CONVERSATION_CLOSED (closed by the user), assigning records
     * CONVERSATION_ASSIGNED; all in one transaction.
     */
    async patch(ctx: WorkspaceContext, id: string, body: z.output<typeof PatchConversationBody>): Promise<Conversation> {
      const me = ctx.caller.member.id;
      return d.db.transaction(async (tx) => {
        const row = await r.conversations.get(tx, ctx.workspaceId, id);
        if (!row) throw notFound('Conversation not found');
        const changes: Partial<typeof t.conversations.$inferInsert> = {};

        if (body.assigneeMemberId !== undefined || body.assigneeBotId !== undefined) {
          const memberId = body.assigneeMemberId ?? null;
          const botId = body.assigneeBotId ?? null;
          if (memberId && !(isUuid(memberId) && (await ws.membership(tx, ctx.workspaceId, memberId)))) {
            throw badRequest('The assignee is not a member of this workspace');
          }
          if (botId && !(await r.bots.get(tx, ctx.workspaceId, botId))) throw badRequest('The bot is not in this workspace');
          changes.assigneeMemberId = memberId;
          changes.assigneeBotId = botId;
          if ((memberId || botId) && (memberId !== row.assigneeMemberId || botId !== row.assigneeBotId)) {
            await conv.insertEvent(tx, ctx.workspaceId, id, {
              type: 'CONVERSATION_ASSIGNED',
              assignedByType: 'member',
              assignedById: me,
              assigneeType: memberId ? 'member' : 'bot',
              assigneeBotId: botId,
              assigneeMemberId: memberId,
            });
          }
        }
        if (body.isActive !== undefined && body.isActive !== row.isActive) {
          changes.isActive = body.isActive;
          if (!body.isActive) {
            await conv.insertEvent(tx, ctx.workspaceId, id, { type: 'CONVERSATION_CLOSED', closedBy: 'user', userId: me });
          } else {
            // Reopened by hand; a customer writing in reopens too (reopenedBy 'contact', whatsapp/ingest.ts).
            await conv.insertEvent(tx, ctx.workspaceId, id, { type: 'CONVERSATION_REOPENED', reopenedBy: 'member', memberId: me });
          }
        }
        if (Object.keys(changes).length === 0) return conv.toConversation(row);
        const [updated] = await tx
          .update(t.conversations)
          .set(changes)
          .where(and(eq(t.conversations.workspaceId, ctx.workspaceId), eq(t.conversations.id, id)))
          .returning();
        const conversation = conv.toConversation(updated);
        // Assigned, closed or reopened: every open inbox of the workspace updates live.
        await appendEvent(tx, ctx.workspaceId, 'conversation.updated', { conversation });
        return conversation;
      });
    },
  };
}
