import type { z } from 'zod';
import type { Conversation, ConversationDetail } from '../../shared';
import type { PatchConversationBody } from '../../shared/schemas/requests';
import { badRequest, conflict, notFound } from '../errors';
import * as r from '../repositories/resources';
import * as conv from '../repositories/conversations';
import * as botSessions from '../repositories/bot-sessions';
import * as ws from '../repositories/workspaces';
import { markRead, readMark, unreadAmong, unreadCounts } from '../repositories/unread';
import { type Page, type PageRequest, isUuid } from '../repositories/pagination';
import type { WorkspaceContext } from './caller';
import type { ServiceDeps } from './context';
import type { Executor } from '../db/client';
import { appendEvent } from '../repositories/event-log';
import { type Actor, assignedByOf } from '../messaging/outbound-request';

/** How a close and a reopen by this actor are recorded (spec section 3: closedBy system, bot or user). */
function closedByOf(a: Actor) {
  return a.type === 'member'
    ? { closedBy: 'user' as const, userId: a.memberId }
    : { closedBy: a.type === 'bot' ? ('bot' as const) : ('system' as const), userId: null };
}
function reopenedByOf(a: Actor) {
  return a.type === 'member'
    ? { reopenedBy: 'member' as const, memberId: a.memberId }
    : { reopenedBy: a.type === 'bot' ? ('bot' as const) : ('system' as const), memberId: null };
}

/** A bot takes a conversation only while it runs (active) on the conversation's own WhatsApp number. */
async function checkBotTakes(tx: Executor, workspaceId: string, row: botSessions.ConversationRow, botId: string) {
  const bot = isUuid(botId) ? await r.bots.get(tx, workspaceId, botId) : null;
  if (!bot) throw badRequest('The bot is not in this workspace');
  if (!bot.isActive) throw conflict(`The bot ${bot.title} is not active: deploy it before handing conversations to it`);
  if (!row.whatsappAccountId || bot.whatsappAccountId !== row.whatsappAccountId) {
    throw badRequest(`The bot ${bot.title} is not connected to this conversation's WhatsApp number`);
  }
}

/** A conversations query of the inbox (tab, search, contact, sort; the caller is added for the `me` tab). */
type ListFilter = Omit<conv.ConversationListFilter, 'memberId'>;

export function conversationService(d: ServiceDeps) {
  const ex = () => d.db.db;
  /** Flags the page's conversations the caller has not read. */
  async function withUnread<E extends { id: string }>(ctx: WorkspaceContext, page: Page<E>) {
    const ids = await unreadAmong(ex(), ctx.workspaceId, ctx.caller.member.id, page.items.map((c) => c.id));
    return { nextCursor: page.nextCursor, items: page.items.map((c) => ({ ...c, unread: ids.has(c.id) })) };
  }
  const service = {
    /** The inbox's list: a page of conversations, each flagged when the caller has not read it. */
    async list(ctx: WorkspaceContext, query: ListFilter) {
      return withUnread(ctx, await conv.listConversations(ex(), ctx.workspaceId, { ...query, memberId: ctx.caller.member.id }));
    },
    /** A contact's conversations, flagged like the inbox's. */
    async listOfContact(ctx: WorkspaceContext, contactId: string, query: ListFilter) {
      return service.list(ctx, { ...query, contactId });
    },
    /** How many conversations each tab holds, and how many of them the caller has not read. */
    async count(ctx: WorkspaceContext) {
      return {
        ...(await conv.countConversations(ex(), ctx.workspaceId, ctx.caller.member.id)),
        unread: await unreadCounts(ex(), ctx.workspaceId, ctx.caller.member.id),
      };
    },
    messages(ctx: WorkspaceContext, id: string, query: PageRequest & { before?: string }) {
      return conv.messagesPage(ex(), ctx.workspaceId, id, query);
    },
    async markRead(ctx: WorkspaceContext, id: string) {
      await markRead(ex(), ctx.workspaceId, ctx.caller.member.id, id);
      return { success: true as const };
    },
    async detail(ctx: WorkspaceContext, id: string): Promise<ConversationDetail> {
      const row = await r.conversations.get(ex(), ctx.workspaceId, id);
      if (!row) throw notFound('Conversation not found');
      const contact = await r.contacts.get(ex(), ctx.workspaceId, row.contactId);
      return {
        ...conv.toConversation(row),
        ConversationEvent: await conv.eventsOf(ex(), ctx.workspaceId, id),
        Contact: r.toContact(contact!),
        Message: await conv.messagesOf(ex(), ctx.workspaceId, id),
        // Addition: the caller's read mark, so the client draws the "New messages" divider.
        readAt: (await readMark(ex(), ctx.workspaceId, ctx.caller.member.id, id))?.toISOString() ?? null,
      };
    },

    /** A member's change (PATCH /conversation/{id}). */
    patch(ctx: WorkspaceContext, id: string, body: z.output<typeof PatchConversationBody>): Promise<Conversation> {
      return service.change(ctx.workspaceId, { type: 'member', memberId: ctx.caller.member.id }, id, body);
    },

    /**
     * Opens, closes or assigns on behalf of an actor (a member, a bot, a campaign or the system). Closing records
     * CONVERSATION_CLOSED, assigning CONVERSATION_ASSIGNED, reopening CONVERSATION_REOPENED, each saying who did
     * it; all in one transaction. Handing the conversation to a bot (it must be live on the conversation's number)
     * queues `bots.assigned` in that transaction, which starts the bot's session at Start once it commits; taking
     * it from a bot ends the bot's running session.
     */
    async change(workspaceId: string, actor: Actor, id: string, body: z.output<typeof PatchConversationBody>): Promise<Conversation> {
      const ctx = { workspaceId };
      const botJob: { job?: { id: string; data: { workspaceId: string; conversationId: string; botId: string } } } = {};
      const result = await d.db.transaction(async (tx) => {
        const assigning = body.assigneeMemberId !== undefined || body.assigneeBotId !== undefined;
        // Locked when assigning: a bot's turn (which also locks it) and this change come one after the other.
        const row = assigning ? await botSessions.lockConversation(tx, ctx.workspaceId, id) : await r.conversations.get(tx, ctx.workspaceId, id);
        if (!row) throw notFound('Conversation not found');
        const changes: conv.ConversationChanges = {};

        if (body.assigneeMemberId !== undefined || body.assigneeBotId !== undefined) {
          const memberId = body.assigneeMemberId ?? null;
          const botId = body.assigneeBotId ?? null;
          if (memberId && !(isUuid(memberId) && (await ws.membership(tx, ctx.workspaceId, memberId)))) {
            throw badRequest('The assignee is not a member of this workspace');
          }
          if (botId && botId !== row.assigneeBotId) await checkBotTakes(tx, ctx.workspaceId, row, botId);
          changes.assigneeMemberId = memberId;
          changes.assigneeBotId = botId;
          // Someone took the conversation a bot gave up on: it no longer waits for a person.
          if ((memberId || botId) && row.needsPerson) changes.needsPerson = false;
          if ((memberId || botId) && (memberId !== row.assigneeMemberId || botId !== row.assigneeBotId)) {
            await conv.insertEvent(tx, ctx.workspaceId, id, {
              type: 'CONVERSATION_ASSIGNED',
              ...assignedByOf(actor),
              assigneeType: memberId ? 'member' : 'bot',
              assigneeBotId: botId,
              assigneeMemberId: memberId,
            });
          }
          if (row.assigneeBotId && (memberId || botId !== row.assigneeBotId)) {
            // Taken from the bot (to a member, another bot or nobody): its running session ends now.
            await botSessions.endLiveSession(tx, ctx.workspaceId, id, 'member');
          }
          if (botId && botId !== row.assigneeBotId) {
            const data = { workspaceId: ctx.workspaceId, conversationId: id, botId };
            const jobId = await d.jobs.send('bots.assigned', data, { tx, runInSender: true });
            if (jobId) botJob.job = { id: jobId, data };
          }
        }
        if (body.isActive !== undefined && body.isActive !== row.isActive) {
          changes.isActive = body.isActive;
          if (!body.isActive) {
            if (row.needsPerson) changes.needsPerson = false;
            await conv.insertEvent(tx, ctx.workspaceId, id, { type: 'CONVERSATION_CLOSED', ...closedByOf(actor) });
          } else {
            // Reopened by hand; a customer writing in reopens too (reopenedBy 'contact', whatsapp/inbound-batch.ts).
            await conv.insertEvent(tx, ctx.workspaceId, id, { type: 'CONVERSATION_REOPENED', ...reopenedByOf(actor) });
          }
        }
        if (Object.keys(changes).length === 0) return conv.toConversation(row);
        const updated = await conv.updateConversation(tx, ctx.workspaceId, id, changes);
        const conversation = conv.toConversation(updated!);
        // Assigned, closed or reopened: every open inbox of the workspace updates live.
        await appendEvent(tx, ctx.workspaceId, 'conversation.updated', { conversation });
        return conversation;
      });
      // Committed: the bot's session starts now (a worker starts it if this process dies first).
      if (botJob.job) d.jobs.runCommitted('bots.assigned', botJob.job.id, botJob.job.data);
      return result;
    },
  };
  return service;
}
