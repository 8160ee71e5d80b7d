/**
 * The one outbound path: every message Parley sends (an agent's reply, a template, a campaign step, a bot node, a
 * system message) goes out through `send`, on behalf of an actor.
 *
 * 1. Resolves the target (conversation, contact, number) and refuses what cannot go (no number, free-form
 *    content outside the 24-hour window) before anything is recorded.
 * 2. Waits for the number's pacer (messaging/pacer.ts), 3. records the intended send under its idempotency key
 *    and claims it, in one statement, right before Meta is called (so a crash leaves `claimed` only the sends
 *    whose request may have left). A key seen before answers that send's outcome instead of sending again (a
 *    retried job never sends twice). 4. Calls the Graph API; a 130429 backs the number off and sends the same
 *    claimed send again later, never as a second send.
 * 5. Stores the message with its wamid, the conversation (opened if the contact had none on that number), the
 *    workspace events and the send's outcome in one transaction, shared by the sends of the workspace accepted
 *    meanwhile (see storeAccepted).
 *
 * Outcomes of a send record: `sent`; `failed` (Meta refused for good: a retry answers the same refusal);
 * `pending` (Meta certainly did not take it and waiting may help: a retry with the same key sends it);
 * `unknown` (Meta may have it: the request timed out after it left, or the process died between claim and
 * outcome). An unknown send is never sent again automatically: a duplicate (a marketing message twice) is worse
 * than one reported as unknown. Each is logged and counted (`repositories/outbound-sends.countByStatus`).
 */
import type { Message } from '../../shared';
import { customerWindow } from '../../shared/customer-window';
import { HttpError, conflict, notFound } from '../errors';
import * as ch from '../repositories/channel';
import type { Executor } from '../db/client';
import { touchConversations } from '../repositories/conversation-rows';
import { toMessage } from '../repositories/conversations';
import { insertMessages } from '../repositories/inbound-batch-rows';
import { type NewEvent, appendEvents } from '../realtime/event-log';
import * as sends from '../repositories/outbound-sends';
import * as r from '../repositories/resources';
import type { ServiceDeps } from '../services/context';
import type { Channel } from '../whatsapp/channel';
import { GraphApiError, type GraphClient, type InteractiveHeader, type OutboundMessage, messages as wire } from '../whatsapp/graph-client';
import { findOrOpenConversations, messageEvents, type Thread, threadKey } from './conversation-thread';
import { type OutboundContent, type OutboundHeader, OutboundRequest, type OutboundRequest as Request, actorId, creatorOf } from './outbound-request';
import { type Pacer, createPacer } from './pacer';

export const outsideWindowMessage =
  'More than 24 hours have passed since the customer last wrote; send an approved template to reopen the conversation';

/** Meta's pair-rate refusal (too many messages to one customer): retryable for that recipient alone. */
export const pairRateLimitCode = 131056;

/** Meta may or may not have the message; it is not sent again automatically. */
export class OutcomeUnknownError extends Error {
  constructor(readonly sendId: string) {
    super('The outcome of this send is unknown; it is not sent again');
  }
}

/** The same key is being sent right now by another attempt (a job retried while its first run still works). */
export class SendInFlightError extends Error {
  constructor(readonly sendId: string) {
    super('This send is in progress');
  }
}

export interface OutboundOptions {
  /** A claim without outcome older than this counts as unknown (its process died); younger, as in flight. */
  inFlightMs?: number;
  /** 130429 answers one call absorbs (backing off each time) before it leaves the send `pending`. */
  maxThrottled?: number;
  pacer?: Pacer;
}

type StoredContent = Pick<ch.MessageRow, 'type' | 'text' | 'mediaUrl' | 'header' | 'action' | 'footer' | 'templateComponents'>;

export interface SentMessage {
  message: Message;
  sendId: string;
  /** The key had been sent before: this is that send's message, nothing went out now. */
  replayed: boolean;
  /** WhatsApp's id of the message (status webhooks name it). */
  wamid: string | null;
}

export function createOutbound(d: ServiceDeps, channel: Channel, graph: GraphClient, opts: OutboundOptions = {}) {
  const inFlightMs = opts.inFlightMs ?? 5 * 60_000;
  const maxThrottled = opts.maxThrottled ?? 5;
  const pacer = opts.pacer ?? createPacer(d.db);
  const db = () => d.db.db;

  /** A file of our own store is handed to Meta as an expiring signed link it can fetch. */
  const publicLink = (link: string) => {
    const key = d.files.keyFromUrl(link);
    return key ? d.files.signedUrl(key, 24 * 3600) : link;
  };
  const publicHeader = (h: OutboundHeader | undefined): InteractiveHeader | undefined => {
    if (!h || h.type === 'text') return h as InteractiveHeader | undefined;
    const media = (h as unknown as Record<string, { link?: string }>)[h.type];
    return (media.link ? { type: h.type, [h.type]: { ...media, link: publicLink(media.link) } } : h) as InteractiveHeader;
  };

  /** The Graph message and what the conversation stores of it. */
  function render(content: OutboundContent): { message: OutboundMessage; stored: StoredContent } {
    const none = { text: null, mediaUrl: null, header: null, action: null, footer: null, templateComponents: null };
    switch (content.type) {
      case 'text':
        return {
          message: wire.text(content.text, { previewUrl: content.previewUrl ?? /https?:\/\//.test(content.text) }),
          stored: { ...none, type: 'text', text: content.text },
        };
      case 'template':
        return {
          message: wire.template(content.name, content.language, content.components as never),
          stored: {
            ...none,
            type: 'template',
            header: content.header,
            text: content.text,
            footer: content.footer,
            action: content.action,
            templateComponents: { templateId: content.templateId, name: content.name, language: content.language, components: content.components },
          },
        };
      case 'image':
      case 'video':
      case 'document':
      case 'audio': {
        const ref = 'link' in content.media ? { link: publicLink(content.media.link) } : { id: content.media.id };
        return {
          message: wire.media(content.type, ref, { caption: content.caption, filename: content.filename }),
          stored: {
            ...none,
            type: content.type,
            text: content.caption ?? null,
            mediaUrl: 'link' in content.media ? content.media.link : null,
            header: {
              type: content.type,
              ...('id' in content.media ? { mediaId: content.media.id } : {}),
              ...(content.filename ? { filename: content.filename } : {}),
            },
          },
        };
      }
      case 'list': {
        const message = wire.list(content);
        return {
          message,
          stored: {
            ...none,
            type: 'list',
            header: content.header ? { type: 'text', text: content.header } : null,
            text: content.body,
            footer: content.footer ?? null,
            action: { button: content.button, sections: content.sections },
          },
        };
      }
      case 'buttons': {
        const message = wire.buttons({ ...content, header: publicHeader(content.header) });
        return { message, stored: interactiveStored('reply', content, message) };
      }
      case 'flow': {
        const message = wire.flow({ ...content, header: publicHeader(content.header) });
        return { message, stored: interactiveStored('flow', content, message) };
      }
    }
  }

  function interactiveStored(type: 'reply' | 'flow', content: { header?: OutboundHeader; body: string; footer?: string }, message: OutboundMessage): StoredContent {
    const action = message.type === 'interactive' ? (message.interactive.action as Record<string, unknown>) : null;
    return {
      type,
      header: content.header ?? null,
      text: content.body,
      footer: content.footer ?? null,
      action,
      mediaUrl: null,
      templateComponents: null,
    };
  }

  /** The number, the contact and (when there is one) the conversation; refuses what cannot be sent. */
  async function resolve(req: Request) {
    const ws = req.workspaceId;
    let conversation: ch.ConversationRow | null;
    let contactId: string;
    let accountId: string | null;
    if ('conversationId' in req.target) {
      conversation = await ch.conversation(db(), ws, req.target.conversationId);
      if (!conversation) throw notFound('Conversation not found');
      contactId = conversation.contactId;
      accountId = conversation.whatsappAccountId;
    } else {
      contactId = req.target.contactId;
      accountId = req.target.whatsappAccountId;
      conversation = null;
    }
    const [contact, account] = await Promise.all([r.contacts.get(db(), ws, contactId), accountId ? ch.account(db(), ws, accountId) : null]);
    if (!contact) throw notFound('Contact not found');
    if (!account) throw conflict('This conversation has no connected WhatsApp number to send from');
    // Free-form messages only inside the customer-service window; templates go any time.
    if (req.content.type !== 'template') {
      const latest = conversation ?? (await ch.latestConversation(db(), ws, contact.id, account.id));
      if (!customerWindow(latest?.lastInboundAt).open) throw conflict(outsideWindowMessage);
    }
    return { contact, account, conversation };
  }

  /** Claims the key: a new send, or a retry of a `pending` one; otherwise answers or throws the earlier outcome. */
  async function claim(
    req: Request,
    target: Awaited<ReturnType<typeof resolve>>,
    messageType: string,
  ): Promise<{ send?: sends.OutboundSendRow; replay?: SentMessage; unknown?: string }> {
    const ws = req.workspaceId;
    // A new key is recorded and claimed by one statement; only a key seen before needs the transaction below.
    const fresh = await sends.claimNew(db(), {
      workspaceId: ws,
      idempotencyKey: req.idempotencyKey,
      whatsappAccountId: target.account.id,
      contactId: target.contact.id,
      conversationId: target.conversation?.id ?? null,
      actorType: req.actor.type,
      actorId: actorId(req.actor),
      messageType,
    });
    if (fresh) return { send: fresh };
    return d.db.transaction(async (tx) => {
      const known = (await sends.byKeyForUpdate(tx, ws, req.idempotencyKey))!;
      switch (known.status) {
        case 'pending':
          return { send: (await sends.reclaim(tx, ws, known.id))! };
        case 'sent': {
          const row = known.messageId ? await ch.messageById(tx, ws, known.messageId) : null;
          if (!row) throw new OutcomeUnknownError(known.id);
          return { replay: { message: toMessage(row), sendId: known.id, replayed: true, wamid: known.waMessageId } satisfies SentMessage };
        }
        case 'failed':
          // The same refusal again, without asking Meta again.
          throw new GraphApiError({ httpStatus: 400, code: known.errorCode ?? undefined, message: known.failureReason ?? 'refused' });
        case 'unknown':
          throw new OutcomeUnknownError(known.id);
        case 'claimed':
          if (Date.now() - known.claimedAt.getTime() < inFlightMs) throw new SendInFlightError(known.id);
          // Claimed long ago and never finished: its process died, maybe after Meta took the message. Marked
          // (committed with this transaction), then reported.
          await sends.finish(tx, ws, known.id, { status: 'unknown', failureReason: 'claimed but never finished (the sending process stopped)' });
          return { unknown: known.id };
      }
    });
  }

  function reportUnknown(req: Request, sendId: string, why: string) {
    d.log.warn({ sendId, workspaceId: req.workspaceId, idempotencyKey: req.idempotencyKey, why }, 'outbound send outcome unknown; not sent again');
  }

  /** Settles a send Meta did not take: `pending` when waiting may help, `failed` for good, `unknown` when it may have. */
  async function settleFailure(req: Request, sendId: string, err: unknown): Promise<never> {
    const ws = req.workspaceId;
    if (err instanceof GraphApiError && !err.mayHaveArrived) {
      // 131056 (pair rate): too many messages to this one customer. Not the number's fault (no back-off) and not
      // final: the key stays sendable, and the caller (a campaign's runner) tries that recipient again later.
      const status = err.retryable || err.code === pairRateLimitCode ? 'pending' : 'failed';
      await sends.finish(db(), ws, sendId, { status, errorCode: err.code ?? null, failureReason: err.userMessage });
      throw err;
    }
    await sends.finish(db(), ws, sendId, { status: 'unknown', failureReason: err instanceof Error ? err.message : 'unexpected error' });
    reportUnknown(req, sendId, err instanceof Error ? err.message : 'unexpected error');
    throw err instanceof GraphApiError ? err : new OutcomeUnknownError(sendId);
  }

  /**
   * Calls Meta (its first slot already taken: `send` paces before it claims); 130429 backs the number off and
   * the same claimed send goes again in a new slot.
   */
  async function deliver(req: Request, target: Awaited<ReturnType<typeof resolve>>, sendId: string, message: OutboundMessage) {
    const creds = channel.credsOf(target.account);
    for (let throttled = 0; ; ) {
      if (throttled > 0) await pacer.take(target.account);
      try {
        return await graph.sendMessage(creds, target.contact.phoneNumber, message, { replyTo: req.replyTo, retryThrottled: false });
      } catch (err) {
        if (!(err instanceof GraphApiError) || err.code !== 130429) throw err;
        throttled++;
        await pacer.backOff(target.account);
        await sends.noteThrottled(db(), req.workspaceId, sendId);
        d.log.warn({ sendId, accountId: target.account.id, throttled }, 'WhatsApp answered 130429; the number backs off and the send goes again');
        if (throttled >= maxThrottled) throw err;
      }
    }
  }

  /** Sends one message; answers the stored message, or throws the refusal (see the file's comment). */
  async function send(input: Request): Promise<SentMessage> {
    const req = OutboundRequest.parse(input);
    const ws = req.workspaceId;
    const target = await resolve(req);
    const { message, stored } = render(req.content);
    // The number's slot first, the claim right before the request: a send is `claimed` only while its request is
    // really on its way, so a process that dies leaves as unknown only what may have reached Meta (sends still
    // waiting for a slot were never claimed and go normally after the restart).
    await pacer.take(target.account);
    const claimed = await claim(req, target, stored.type);
    if (claimed.replay) return claimed.replay;
    if (claimed.unknown) {
      reportUnknown(req, claimed.unknown, 'claim never finished');
      throw new OutcomeUnknownError(claimed.unknown);
    }
    const sendId = claimed.send!.id;

    let wamid: string;
    try {
      wamid = (await deliver(req, target, sendId, message)).wamid;
    } catch (err) {
      return settleFailure(req, sendId, err);
    }

    try {
      return await storeAccepted({ req, target, sendId, wamid, stored });
    } catch (err) {
      // Meta has the message but it could not be stored: unknown to the product, never sent again.
      await sends
        .finish(db(), ws, sendId, { status: 'unknown', failureReason: `accepted by WhatsApp as ${wamid} but not stored` })
        .catch(() => undefined);
      reportUnknown(req, sendId, 'accepted but not stored');
      throw err;
    }
  }

  /**
   * Final writes of sends Meta accepted, a batch per transaction and one writer per workspace at a time: the
   * workspace's event lock is held from the events to the commit, so one transaction per send made that lock
   * (and one commit each) the limit of a campaign. A batch that fails is written again one send at a time, so one
   * bad send cannot take the others with it.
   */
  interface Accepted {
    req: Request;
    target: Awaited<ReturnType<typeof resolve>>;
    sendId: string;
    wamid: string;
    stored: StoredContent;
  }
  const acceptedBatchMax = 200;
  const waiting = new Map<string, { item: Accepted; done: (err: unknown, value?: SentMessage) => void }[]>();
  const writing = new Set<string>();

  function storeAccepted(item: Accepted): Promise<SentMessage> {
    const ws = item.req.workspaceId;
    return new Promise((resolvePromise, rejectPromise) => {
      let list = waiting.get(ws);
      if (!list) waiting.set(ws, (list = []));
      list.push({ item, done: (err, value) => (err ? rejectPromise(err) : resolvePromise(value!)) });
      void writeWaiting(ws);
    });
  }

  async function writeWaiting(ws: string): Promise<void> {
    const list = waiting.get(ws);
    if (writing.has(ws) || !list?.length) return;
    const batch = list.splice(0, acceptedBatchMax);
    if (list.length === 0) waiting.delete(ws);
    writing.add(ws);
    try {
      try {
        const results = await d.db.transaction((tx) => writeAccepted(tx, ws, batch.map((b) => b.item)));
        batch.forEach((b, i) => b.done(null, results[i]));
      } catch (err) {
        if (batch.length === 1) batch[0].done(err);
        else
          for (const b of batch) {
            try {
              const [one] = await d.db.transaction((tx) => writeAccepted(tx, ws, [b.item]));
              b.done(null, one);
            } catch (e) {
              b.done(e);
            }
          }
      }
    } finally {
      writing.delete(ws);
      void writeWaiting(ws);
    }
  }

  /** Messages, conversations, workspace events and outcomes of accepted sends of one workspace, set-based. */
  async function writeAccepted(tx: Executor, ws: string, items: Accepted[]): Promise<SentMessage[]> {
    const keyOf = (it: Accepted) => ({ contactId: it.target.contact.id, whatsappAccountId: it.target.account.id });
    const found = await findOrOpenConversations(tx, ws, items.filter((it) => !it.target.conversation).map(keyOf), { reopenClosed: false });
    const threads: Thread[] = items.map((it) =>
      it.target.conversation ? { conversation: it.target.conversation, opened: false, reopened: false } : found.get(threadKey(keyOf(it)))!,
    );
    const now = new Date();
    const rows = await insertMessages(
      tx,
      items.map((it, i) => ({
        workspaceId: ws,
        conversationId: threads[i].conversation.id,
        ...it.stored,
        creator: creatorOf(it.req.actor),
        memberId: it.req.actor.type === 'member' ? it.req.actor.memberId : null,
        waMessageId: it.wamid,
        status: 'sent',
        createdAt: now,
      })),
    );
    const byWamid = new Map(rows.map((row) => [row.waMessageId!, row]));
    if (byWamid.size !== items.length) throw new Error('WhatsApp answered a message id that is stored already');
    const touched = await touchConversations(
      tx,
      ws,
      [...new Set(threads.map((th) => th.conversation.id))].map((id) => ({ id, at: now })),
    );
    const events: NewEvent[] = [];
    const announced = new Set<string>();
    const results = items.map((it, i): SentMessage => {
      const row = byWamid.get(it.wamid)!;
      const message = toMessage(row);
      const { conversation, opened } = threads[i];
      const first = !announced.has(conversation.id);
      announced.add(conversation.id);
      events.push(...messageEvents({ opened: opened && first, reopened: false }, touched.get(conversation.id) ?? conversation, it.target.contact, message));
      return { message, sendId: it.sendId, replayed: false, wamid: it.wamid };
    });
    await appendEvents(tx, ws, events);
    await sends.finishSent(
      tx,
      ws,
      items.map((it, i) => ({ id: it.sendId, messageId: byWamid.get(it.wamid)!.id, waMessageId: it.wamid, conversationId: threads[i].conversation.id })),
    );
    return results;
  }

  return {
    send,
    /**
     * The `messages.send` job. A refusal (for good, or before anything was recorded) and an unknown outcome end the
     * job; a send Meta did not take for a passing reason, or one still in flight, is retried by the job.
     */
    async runJob(req: Request): Promise<void> {
      try {
        await send(req);
      } catch (err) {
        if (err instanceof SendInFlightError) throw err;
        if (err instanceof GraphApiError && err.retryable && !err.mayHaveArrived) throw err;
        if (err instanceof OutcomeUnknownError || err instanceof GraphApiError || err instanceof HttpError) {
          d.log.warn({ idempotencyKey: req.idempotencyKey, reason: err.message }, 'outbound send not delivered');
          return;
        }
        throw err;
      }
    },
  };
}
export type Outbound = ReturnType<typeof createOutbound>;
