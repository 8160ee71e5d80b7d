/**
 * Live messaging: an agent's text, or an approved template, to the contact of a conversation.
 *
 * - Free text only inside WhatsApp's 24-hour customer-service window (since the customer's last inbound
 *   message); outside it the call is refused with 409 before anything reaches Meta. Templates go any time.
 * - The message is stored only once WhatsApp accepted it (status `sent`, with its wamid); later statuses come by
 *   webhook. A refused send stores nothing and answers the reason (see whatsapp/graph-failure.ts).
 * - An agent's reply marks the customer's messages read at WhatsApp (a durable job: whatsapp/channel.ts).
 */
import type { z } from 'zod';
import type { Message } from '../../shared';
import type { CreateMessageBody, CreateTemplateMessageBody } from '../../shared/schemas/requests';
import { randomUUID } from 'node:crypto';
import { conflict, notFound } from '../errors';
import * as ch from '../repositories/channel';
import * as r from '../repositories/resources';
import type { WorkspaceContext } from '../http/types';
import type { Channel } from '../whatsapp/channel';
import { viaGraph } from '../whatsapp/graph-failure';
import type { Outbound } from '../messaging/outbound';
import { prepareTemplateSend } from '../messaging/template-send';
import type { Actor, OutboundContent } from '../messaging/outbound-request';
import type { ServiceDeps } from './context';

export function messageService(d: ServiceDeps, channel: Channel, outbound: Outbound) {
  const ex = () => d.db.db;
  const memberOf = (ctx: WorkspaceContext): Actor => ({ type: 'member', memberId: ctx.caller.member.id });

  /** The conversation and its WhatsApp account, or the reason nothing can be sent on it. */
  async function target(ctx: WorkspaceContext, conversationId: string) {
    const c = await ch.conversation(ex(), ctx.workspaceId, conversationId);
    if (!c) throw notFound('Conversation not found');
    const account = c.whatsappAccountId ? await ch.account(ex(), ctx.workspaceId, c.whatsappAccountId) : null;
    if (!account) throw conflict('This conversation has no connected WhatsApp number to send from');
    return { c, account };
  }

  /** A member's send through the outbound path; Meta's refusals become the product's errors (graph-failure.ts). */
  async function sendAsMember(ctx: WorkspaceContext, conversationId: string, content: OutboundContent, what: string): Promise<Message> {
    const sent = await viaGraph(d.log, what, () =>
      outbound.send({
        workspaceId: ctx.workspaceId,
        actor: memberOf(ctx),
        target: { conversationId },
        content,
        // One HTTP request is one send: a member who tries again sends a new message.
        idempotencyKey: `member:${randomUUID()}`,
      }),
    );
    return sent.message;
  }

  return {
    async sendText(ctx: WorkspaceContext, body: z.output<typeof CreateMessageBody>): Promise<Message> {
      const message = await sendAsMember(ctx, body.conversationId, { type: 'text', text: body.text }, 'send text');
      // Answering is reading: the customer's messages get their blue ticks.
      await channel.queueReadReceipt(ctx.workspaceId, body.conversationId);
      return message;
    },

    /**
     * Sends an APPROVED template of the conversation's number (allowed outside the window). Body parameters
     * fill `{{n}}` in order; a media header takes `headerMediaLink`, else the template's stored media; a text
     * header's variable takes `headerText`; URL buttons with a variable take `urlButtons`. The send itself is
     * prepared by messaging/template-send.ts, which campaigns and bots use too.
     */
    async sendTemplate(ctx: WorkspaceContext, body: z.output<typeof CreateTemplateMessageBody>): Promise<Message> {
      const { c, account } = await target(ctx, body.conversationId);
      const tpl = await r.whatsappTemplates.get(ex(), ctx.workspaceId, body.templateId);
      if (!tpl) throw notFound('Template not found');
      if (tpl.whatsappAccountId !== account.id) throw conflict('This template belongs to another WhatsApp number than the conversation');
      if (tpl.status !== 'APPROVED') throw conflict(`Only approved templates can be sent; this one is ${tpl.status}`);

      const content = await prepareTemplateSend(d.files, ctx.workspaceId, tpl, body.parameters);
      return sendAsMember(
        ctx,
        c.id,
        content,
        'send template',
      );
    },
  };
}
