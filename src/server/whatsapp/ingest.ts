/**
 * The `whatsapp.webhook` job: turns one verified webhook delivery into contacts, conversations, messages,
 * delivery statuses and template statuses. Every step is idempotent (a delivery seen twice is stored once,
 * statuses never move backwards), so a retried job or a re-sent delivery changes nothing the second time.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { Executor } from '../db/client';
import * as ch from '../repositories/channel';
import * as conv from '../repositories/conversations';
import { toContact, toTemplate } from '../repositories/resources';
import { failureReasonOf } from './failure-reasons';
import {
  type InboundMedia,
  InboundMessage,
  MessagesValue,
  StatusUpdate,
  TemplateStatusValue,
  WebhookPayload,
} from './webhook-payload';
import type { ChannelDeps } from './channel-deps';
import { appendEvent } from '../realtime/event-log';

export const WEBHOOK_JOB = 'whatsapp.webhook';

type MessageContent = Pick<ch.MessageRow, 'type' | 'text' | 'mediaUrl' | 'header' | 'action' | 'footer'>;

/**
 * A status can overtake the send it is about: Meta (or the sandbox) may deliver `sent` before the send's answer
 * has been stored. A status for an unknown wamid younger than this is retried by the job instead of dropped.
 */
const statusGraceMs = 120_000;
/** How many times a delivery is retried for such a status (pg-boss backs off: about 35 s in all by default). */
const statusRetries = 3;
export class StatusNotYetKnown extends Error {
  constructor() {
    super('a status arrived for a message that is not stored yet; retried later');
  }
}

/** Rolls a delivery's transaction back when another worker stored the same wamid first. */
class AlreadyStored extends Error {}

/** E.164 of a wa_id (digits with country code); a number libphonenumber cannot place is kept as +digits. */
export function e164OfWaId(waId: string): { phoneNumber: string; country: string | null } {
  const digits = waId.replace(/\D/g, '');
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  if (parsed?.isValid()) return { phoneNumber: parsed.number, country: parsed.country ?? null };
  return { phoneNumber: `+${digits}`, country: null };
}

function timeOf(ts: string | undefined): Date {
  const n = ts ? Number(ts) : NaN;
  return Number.isFinite(n) && n > 0 ? new Date(n * 1000) : new Date();
}

export function webhookProcessor(d: ChannelDeps) {
  const db = () => d.db.db;

  /** Fetches an inbound media file from the Graph API and keeps it in the file store; null if it cannot. */
  async function keepMedia(account: ch.AccountRow, media: InboundMedia, kind: string): Promise<string | null> {
    if (!d.media) return null;
    try {
      const file = await d.media.download(account, media.id);
      const ext = (media.mime_type ?? file.mimeType).split('/')[1]?.split(';')[0] ?? 'bin';
      const stored = await d.files.put({
        workspaceId: account.workspaceId,
        area: 'whatsapp-media',
        fileName: media.filename ?? `${kind}-${media.id}.${ext}`,
        mimeType: media.mime_type ?? file.mimeType,
        data: file.data,
      });
      return stored.url;
    } catch (err) {
      d.log.warn({ err, mediaId: media.id }, 'inbound media could not be fetched; the message is stored without it');
      return null;
    }
  }

  /** What Parley stores of an inbound message; null for kinds that are not messages of the conversation. */
  async function contentOf(account: ch.AccountRow, m: InboundMessage): Promise<MessageContent | null> {
    const base = { header: null, action: null, footer: null, mediaUrl: null, text: null };
    const context = m.context?.id ? { context: { id: m.context.id } } : {};
    switch (m.type) {
      case 'text':
        return { ...base, type: 'text', text: m.text?.body ?? '' };
      case 'interactive': {
        const i = m.interactive;
        if (i?.type === 'button_reply' && i.button_reply) {
          return { ...base, type: 'reply', text: i.button_reply.title, action: { type: 'button_reply', ...i.button_reply, ...context } };
        }
        if (i?.type === 'list_reply' && i.list_reply) {
          return { ...base, type: 'list', text: i.list_reply.title, action: { type: 'list_reply', ...i.list_reply, ...context } };
        }
        if (i?.type === 'nfm_reply' && i.nfm_reply) {
          let response: unknown = i.nfm_reply.response_json;
          try {
            response = JSON.parse(i.nfm_reply.response_json);
          } catch {
            // Kept as the string Meta sent.
          }
          return {
            ...base,
            type: 'flow',
            text: i.nfm_reply.body ?? null,
            action: { type: 'nfm_reply', name: i.nfm_reply.name ?? 'flow', response_json: response, ...context },
          };
        }
        return { ...base, type: 'text', text: `Unsupported interactive reply (${i?.type ?? 'unknown'})` };
      }
      case 'button':
        // A tap on a template's quick-reply button.
        return { ...base, type: 'reply', text: m.button?.text ?? '', action: { type: 'button', payload: m.button?.payload ?? null, ...context } };
      case 'image':
      case 'video':
      case 'document':
      case 'audio':
      case 'sticker': {
        const media = m[m.type];
        if (!media) return { ...base, type: 'text', text: `Empty ${m.type} message` };
        // The product's message types have no audio or sticker: a voice note is a document, a sticker an image.
        const type = m.type === 'audio' ? 'document' : m.type === 'sticker' ? 'image' : m.type;
        return {
          ...base,
          type,
          text: media.caption ?? null,
          mediaUrl: await keepMedia(account, media, m.type),
          header: {
            type: m.type,
            mediaId: media.id,
            mimeType: media.mime_type ?? null,
            ...(media.filename ? { filename: media.filename } : {}),
          },
        };
      }
      case 'location': {
        const l = m.location;
        if (!l) return { ...base, type: 'text', text: 'Location' };
        const label = [l.name, l.address].filter(Boolean).join(', ');
        return { ...base, type: 'text', text: `${label ? `${label} ` : ''}(${l.latitude}, ${l.longitude})`, action: { type: 'location', ...l } };
      }
      case 'reaction':
        // A reaction is about another message, not a message of its own.
        return null;
      default:
        return { ...base, type: 'text', text: `This message type is not supported yet (${m.type})` };
    }
  }

  /** Finds or creates the contact by phone number; the WhatsApp profile name fills a contact without a name. */
  async function upsertContact(tx: Executor, workspaceId: string, waId: string, profileName: string | undefined) {
    const { phoneNumber } = e164OfWaId(waId);
    const name = profileName?.trim() || null;
    let contact = await ch.contactByPhone(tx, workspaceId, phoneNumber);
    if (!contact) {
      const created = await ch.insertContactIfAbsent(tx, { workspaceId, phoneNumber, name, country: null });
      if (created) {
        await appendEvent(tx, workspaceId, 'contact.created', { contact: toContact(created) });
        return created;
      }
      contact = (await ch.contactByPhone(tx, workspaceId, phoneNumber))!;
    }
    if (!contact.name && name) {
      contact = await ch.setContactName(tx, workspaceId, contact.id, name);
      await appendEvent(tx, workspaceId, 'contact.updated', { contact: toContact(contact) });
    }
    return contact;
  }

  /**
   * `receivedAt` orders the conversation: Meta's timestamps have whole seconds only, and Meta delivers in order.
   * The 24-hour window runs from Meta's timestamp (never later than receipt).
   */
  async function ingestMessage(account: ch.AccountRow, m: InboundMessage, profileName: string | undefined, receivedAt: Date) {
    const ws = account.workspaceId;
    if (await ch.messageByWamid(db(), ws, m.id)) return; // a repeated delivery: stored already
    const content = await contentOf(account, m);
    if (!content) return;
    const at = receivedAt;
    const sentAt = new Date(Math.min(timeOf(m.timestamp).getTime(), receivedAt.getTime()));
    try {
      await d.db.transaction(async (tx) => {
        const contact = await upsertContact(tx, ws, m.from, profileName);
        await ch.lockThread(tx, ws, contact.id, account.id);
        let c = await ch.latestConversation(tx, ws, contact.id, account.id);
        let opened = false;
        let reopened = false;
        if (!c) {
          c = await ch.insertConversation(tx, { workspaceId: ws, contactId: contact.id, whatsappAccountId: account.id });
          opened = true;
        } else {
          c = (await ch.lockConversation(tx, ws, c.id))!;
          if (!c.isActive) {
            // The customer wrote again on a closed conversation: it is reopened rather than duplicated.
            c = await ch.updateConversation(tx, ws, c.id, { isActive: true });
            await conv.insertEvent(tx, ws, c.id, { type: 'CONVERSATION_REOPENED', reopenedBy: 'contact', memberId: null });
            reopened = true;
          }
        }
        const row = await ch.insertMessage(tx, {
          workspaceId: ws,
          conversationId: c.id,
          ...content,
          creator: 'user',
          memberId: null,
          waMessageId: m.id,
          status: 'received',
          createdAt: at,
        });
        if (!row) throw new AlreadyStored();
        c = await ch.touchForMessage(tx, ws, c.id, at, sentAt);
        const conversation = conv.toConversation(c);
        const message = conv.toMessage(row);
        if (opened) {
          await appendEvent(tx, ws, 'conversation.opened', { conversation: { ...conversation, Contact: toContact(contact), lastMessage: message } });
        } else if (reopened) {
          await appendEvent(tx, ws, 'conversation.updated', { conversation });
        }
        await appendEvent(tx, ws, 'message.created', { message });
      });
    } catch (err) {
      if (err instanceof AlreadyStored) return;
      throw err;
    }
  }

  /** Answers false when the status is about a wamid not stored yet but so recent that its send may still be committing. */
  async function ingestStatus(account: ch.AccountRow, s: StatusUpdate): Promise<boolean> {
    if (s.status !== 'sent' && s.status !== 'delivered' && s.status !== 'read' && s.status !== 'failed') return true;
    const status = s.status;
    const ws = account.workspaceId;
    const row = await d.db.transaction(async (tx) => {
      const updated = await ch.applyStatus(tx, ws, s.id, status, status === 'failed' ? failureReasonOf(s.errors) : null);
      if (updated) await appendEvent(tx, ws, 'message.status', { message: conv.toMessage(updated) });
      return updated;
    });
    if (row || (await ch.messageByWamid(db(), ws, s.id))) return true;
    return Date.now() - timeOf(s.timestamp).getTime() > statusGraceMs;
  }

  /** Answers false when a status should be tried again later (see ingestStatus). */
  async function ingestMessages(value: unknown, receivedAt: number): Promise<boolean> {
    const parsed = MessagesValue.safeParse(value);
    if (!parsed.success) {
      d.log.warn({ issues: parsed.error.issues.slice(0, 5) }, 'webhook change without usable metadata dropped');
      return true;
    }
    const v = parsed.data;
    const account = await ch.accountByPhoneNumberId(db(), v.metadata.phone_number_id);
    if (!account) {
      d.log.warn({ phoneNumberId: v.metadata.phone_number_id }, 'webhook for an unknown phone number id dropped');
      return true;
    }
    const names = new Map((v.contacts ?? []).map((c) => [c.wa_id, c.profile?.name]));
    let complete = true;
    for (const [i, raw] of (v.messages ?? []).entries()) {
      const m = InboundMessage.safeParse(raw);
      if (!m.success) {
        d.log.warn({ issues: m.error.issues.slice(0, 5) }, 'malformed inbound message dropped');
        continue;
      }
      // Messages of one delivery keep their order (1 ms apart).
      await ingestMessage(account, m.data, names.get(m.data.from), new Date(receivedAt + i));
    }
    for (const raw of v.statuses ?? []) {
      const s = StatusUpdate.safeParse(raw);
      if (!s.success) {
        d.log.warn({ issues: s.error.issues.slice(0, 5) }, 'malformed status update dropped');
        continue;
      }
      if (!(await ingestStatus(account, s.data))) complete = false;
    }
    for (const e of v.errors ?? []) d.log.warn({ code: e.code, title: e.title, accountId: account.id }, 'WhatsApp reported an error');
    return complete;
  }

  async function ingestTemplateStatus(wabaId: string, value: unknown) {
    const parsed = TemplateStatusValue.safeParse(value);
    if (!parsed.success) {
      d.log.warn({ issues: parsed.error.issues.slice(0, 5) }, 'malformed template status update dropped');
      return;
    }
    const v = parsed.data;
    const accounts = await ch.accountsByWaba(db(), wabaId);
    const templates = await ch.templatesByMetaId(db(), accounts.map((a) => a.id), v.message_template_id);
    for (const tpl of templates) {
      await d.db.transaction(async (tx) => {
        const row = await ch.setTemplateStatus(tx, tpl.workspaceId, tpl.id, v.event);
        if (row) await appendEvent(tx, tpl.workspaceId, 'template.status', { template: toTemplate(row) });
      });
    }
    if (templates.length === 0) d.log.info({ templateId: v.message_template_id }, 'status update for a template Parley does not know');
  }

  /** The job handler: one webhook delivery, already verified by its signature. */
  /** `attempt` is the job's retry count: a status waiting for its message is retried a few times only. */
  return async function processWebhook(payload: unknown, receivedAt = Date.now(), attempt = 0): Promise<void> {
    const parsed = WebhookPayload.safeParse(payload);
    if (!parsed.success) {
      d.log.warn('webhook delivery that is not a WhatsApp Business payload dropped');
      return;
    }
    let complete = true;
    for (const entry of parsed.data.entry) {
      for (const change of entry.changes) {
        if (change.field === 'messages') complete = (await ingestMessages(change.value, receivedAt)) && complete;
        else if (change.field === 'message_template_status_update') await ingestTemplateStatus(entry.id, change.value);
        else d.log.debug({ field: change.field }, 'webhook field not used by Parley');
      }
    }
    // Everything else is stored; the job's retry re-runs the delivery, which skips what is stored already.
    if (!complete && attempt < statusRetries) throw new StatusNotYetKnown();
  };
}
