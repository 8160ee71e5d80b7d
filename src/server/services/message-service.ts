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
import type { ContactTemplateMessageBody, CreateMessageBody, CreateTemplateMessageBody } from '../../shared/schemas/requests';
import { randomUUID } from 'node:crypto';
import { badRequest, conflict, notFound } from '../errors';
import * as ch from '../repositories/channel';
import * as r from '../repositories/resources';
import type { WorkspaceContext } from './caller';
import type { Channel } from '../whatsapp/channel';
import { viaGraph } from '../whatsapp/graph-failure';
import type { Outbound } from '../messaging/outbound';
import { prepareTemplateSend } from '../messaging/template-send';
import type { Actor, OutboundContent } from '../messaging/outbound-request';
import type { ServiceDeps } from './context';
// ---- media sends and notes ----
import type { FastifyRequest } from 'fastify';
import type { MultipartSpec } from '../../shared/api/routes';
import type { CreateInteractiveMessageBody, CreateMediaMessageBody, CreateNoteBody } from '../../shared/schemas/agent-tools';
import { chatMediaKindOf, chatMediaProblem } from '../../shared/chat-media';
import { HttpError } from '../errors';
import { receiveUpload } from './uploads';
import { parseKey } from '../storage/file-store';
import * as notes from '../repositories/notes';
import { toMessage } from '../repositories/conversations';
import { appendEvents, type NewEvent } from '../repositories/event-log';

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

  const media = mediaAndNotes(d, (a) => sendAsMember(a.ctx, a.conversationId, a.content, a.what));

  return {
    ...media,
    /**
     * Reply buttons or a list menu, inside the window only (the outbound path refuses outside it).
     * Ids are the position (`button-1`, `row-1`): a customer's tap comes back with the id and the title.
     */
    async sendInteractive(ctx: WorkspaceContext, body: CreateInteractiveMessageBody): Promise<Message> {
      const texts = { header: body.header || undefined, body: body.body, footer: body.footer || undefined };
      let n = 0;
      const content: OutboundContent =
        body.type === 'buttons'
          ? { type: 'buttons', ...texts, header: texts.header ? { type: 'text', text: texts.header } : undefined, buttons: body.buttons.map((b, i) => ({ id: `button-${i + 1}`, title: b.title })) }
          : {
              type: 'list',
              ...texts,
              button: body.button,
              sections: body.sections.map((sec) => ({
                title: sec.title || undefined,
                rows: sec.rows.map((r) => ({ id: `row-${++n}`, title: r.title, description: r.description || undefined })),
              })),
            };
      const message = await sendAsMember(ctx, body.conversationId, content, `send ${body.type}`);
      await channel.queueReadReceipt(ctx.workspaceId, body.conversationId);
      return message;
    },
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

    /**
     * Starts a conversation from the audience screen: an APPROVED template to a contact on the template's number.
     * The outbound path finds the contact's conversation on that number or opens one (conversation.opened with
     * the first message, then message.created). 404 for another workspace's contact or template; 400 for a
     * template not approved.
     */
    async sendTemplateToContact(ctx: WorkspaceContext, contactId: string, body: z.output<typeof ContactTemplateMessageBody>): Promise<Message> {
      const contact = await r.contacts.get(ex(), ctx.workspaceId, contactId);
      if (!contact) throw notFound('Contact not found');
      const tpl = await r.whatsappTemplates.get(ex(), ctx.workspaceId, body.templateId);
      if (!tpl) throw notFound('Template not found');
      if (tpl.status !== 'APPROVED') throw badRequest(`Only approved templates can be sent; this one is ${tpl.status}`);
      const account = await ch.account(ex(), ctx.workspaceId, tpl.whatsappAccountId);
      if (!account) throw conflict('This template has no connected WhatsApp number to send from');
      const content = await prepareTemplateSend(d.files, ctx.workspaceId, tpl, body.parameters);
      const sent = await viaGraph(d.log, 'send template', () =>
        outbound.send({
          workspaceId: ctx.workspaceId,
          actor: memberOf(ctx),
          target: { contactId: contact.id, whatsappAccountId: account.id },
          content,
          idempotencyKey: `member:${randomUUID()}`,
        }),
      );
      return sent.message;
    },
  };
}

// ---- media sends and notes ----

type MemberSend = (a: { ctx: WorkspaceContext; conversationId: string; content: OutboundContent; what: string }) => Promise<Message>;

function mediaAndNotes(d: ServiceDeps, send: MemberSend) {
  const ex = () => d.db.db;
  return {
    /**
     * Stores a file for a conversation's composer. The route takes any of WhatsApp's media types up to the
     * largest limit (documents, 100 MB); each kind is then held to its own (images 5 MB ...), and a file over
     * it is removed again and refused with the sizes in words.
     */
    async uploadMedia(ctx: WorkspaceContext, conversationId: string, request: FastifyRequest, spec: MultipartSpec) {
      if (!(await ch.conversation(ex(), ctx.workspaceId, conversationId))) throw notFound('Conversation not found');
      const file = await receiveUpload(request, spec, d.files, { workspaceId: ctx.workspaceId, area: 'whatsapp-media' });
      const meta = (await d.files.stat(file.key))!;
      const problem = chatMediaProblem(meta.mimeType, meta.size);
      if (problem) {
        await d.files.remove(file.key);
        throw new HttpError(413, problem);
      }
      return { mediaUrl: file.url, type: chatMediaKindOf(meta.mimeType)!, mimeType: meta.mimeType, fileName: meta.fileName, size: meta.size };
    },

    /** Sends an uploaded file as image, video, audio or document (by its type) through the outbound path. */
    async sendMedia(ctx: WorkspaceContext, body: z.output<typeof CreateMediaMessageBody>): Promise<Message> {
      const ref = await d.files.resolveReference(body.mediaUrl, { workspaceId: ctx.workspaceId, field: 'mediaUrl', areas: ['whatsapp-media'] });
      if (ref.kind !== 'stored') throw notFound('mediaUrl: no file of this workspace has this address');
      const meta = (await d.files.stat(ref.key))!;
      const problem = chatMediaProblem(meta.mimeType, meta.size);
      if (problem) throw conflict(problem);
      const kind = chatMediaKindOf(meta.mimeType)!;
      if (kind === 'audio' && body.caption) throw conflict('WhatsApp sends audio without a caption: send the text as its own message');
      const caption = body.caption || undefined;
      const filename = kind === 'document' ? (body.filename ?? parseKey(ref.key)?.fileName) : undefined;
      return send({ ctx, conversationId: body.conversationId, content: { type: kind, media: { link: ref.url }, caption, filename }, what: `send ${kind}` });
    },

    /**
     * An internal note: stored in the conversation as a `note` message (never sent to WhatsApp, no read receipt,
     * no effect on the conversation's order or window) and, for each mentioned member, a mention they see in
     * their mentions view and as `mention.created` on the event stream, in the same transaction.
     */
    async createNote(ctx: WorkspaceContext, body: z.output<typeof CreateNoteBody>): Promise<Message> {
      const me = ctx.caller.member.id;
      const mentioned = [...new Set(body.mentionedMemberIds)].filter((id) => id !== me);
      const members = await notes.membersAmong(ex(), ctx.workspaceId, mentioned);
      const strangers = mentioned.filter((id) => !members.has(id));
      if (strangers.length > 0) throw notFound('A mentioned member is not a member of this workspace');
      return d.db.transaction(async (tx) => {
        const row = await notes.insertNote(tx, { workspaceId: ctx.workspaceId, conversationId: body.conversationId, memberId: me, text: body.text });
        const message = toMessage(row);
        const inserted = await notes.insertMentions(
          tx,
          mentioned.map((memberId) => ({ workspaceId: ctx.workspaceId, messageId: row.id, conversationId: body.conversationId, memberId, mentionedByMemberId: me })),
        );
        const mentions = await notes.mentionsByIds(tx, ctx.workspaceId, inserted.map((m) => m.id));
        const events: NewEvent[] = [
          { type: 'message.created', payload: { message } },
          ...mentions.map((mention): NewEvent => ({ type: 'mention.created', payload: { mention } })),
        ];
        await appendEvents(tx, ctx.workspaceId, events);
        return message;
      });
    },
  };
}
