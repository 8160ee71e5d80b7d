/**
 * Simulated customers: a customer writes to a business number (text, a reply to the last list, buttons, flow
 * or template sent to them, an image or a document), which opens their 24-hour window and sends the signed
 * `messages` webhook.
 */
import { type SandboxAccount, digits, sandboxAccount } from './account';
import type { MediaStore } from './media';
import { webhookMetadata, windowKey } from './messaging';
import { samplePdf, samplePng } from './samples';
import { type SandboxState, type SentMessage, wamid } from './state';
import type { Obj } from './validate';
import type { WebhookRecord } from './webhooks';

export type CustomerMessage =
  | { type: 'text'; text: string }
  | { type: 'button_reply'; id?: string; title?: string; index?: number; replyTo?: string }
  | { type: 'list_reply'; id?: string; title?: string; description?: string; index?: number; replyTo?: string }
  | { type: 'nfm_reply'; response?: Record<string, unknown>; flowToken?: string; body?: string; replyTo?: string }
  | { type: 'button'; payload: string; text: string; replyTo?: string }
  | { type: 'image'; data?: Uint8Array; mimeType?: string; caption?: string }
  | { type: 'document'; data?: Uint8Array; mimeType?: string; fileName?: string; caption?: string };

export interface CustomerSendOptions {
  /** Profile name shown in `contacts[].profile.name`; remembered per customer. */
  name?: string;
  /** The customer's username (`contacts[].profile.username`), remembered; '' removes it. */
  username?: string;
  /** Meta withholds the customer's phone from the business (needs a username); remembered. */
  hidePhone?: boolean;
  /** Which business number the customer writes to (default: the sandbox account's). */
  phoneNumberId?: string;
}

export class CustomerSimulator {
  constructor(
    private readonly state: SandboxState,
    private readonly media: MediaStore,
  ) {}

  /** A customer writes to a business number: opens their 24-hour window and sends the `messages` webhook. */
  async customerSend(waIdInput: string, msg: CustomerMessage, opts: CustomerSendOptions = {}): Promise<{ id: string; webhook: WebhookRecord }> {
    const waId = digits(waIdInput);
    if (!/^\d{7,15}$/.test(waId)) throw new Error(`not a phone number: ${waIdInput}`);
    const account = this.accountOf(opts.phoneNumberId);
    if (opts.name) this.state.names.set(waId, opts.name);
    const customer = this.state.identities.set(waId, { username: opts.username, hidePhone: opts.hidePhone });
    // A customer whose phone is hidden gets no name made of their phone's digits.
    const name = this.state.names.get(waId) ?? (customer.phoneHidden ? undefined : `Customer ${waId.slice(-4)}`);
    const id = wamid();
    // 2026: `from_user_id` always; `from` (the phone) left out when Meta withholds it.
    const sender = { ...this.state.identities.phoneField(customer, 'from'), from_user_id: customer.userId };
    const message: Obj = { ...sender, id, timestamp: String(Math.floor(this.state.now() / 1000)), ...this.customerContent(account, waId, msg) };
    this.state.windows.set(windowKey(account.phoneNumberId, waId), this.state.now());
    this.state.save();
    this.state.received.push({ id, phoneNumberId: account.phoneNumberId, waId, type: String(message.type), message, at: new Date(this.state.now()) });
    const webhook = this.state.webhooks.push(account.wabaAccountId, 'messages', {
      ...webhookMetadata(account),
      contacts: [this.state.identities.contactEntry(customer, name)],
      messages: [message],
    });
    this.state.track(webhook);
    return { id, webhook: await webhook };
  }

  private accountOf(phoneNumberId: string | undefined): SandboxAccount {
    const account = this.state.accounts.get(phoneNumberId ?? sandboxAccount.phoneNumberId);
    if (!account) throw new Error(`unknown phone number id ${phoneNumberId}`);
    return account;
  }

  /**
   * The customer gets a new user id (as after changing phone): Meta's system message `user_changed_user_id` on
   * the `messages` field (from the old identity, naming the new id) and the `user_id_update` field follow.
   */
  async changeUserId(waIdInput: string, opts: { phoneNumberId?: string } = {}): Promise<{ previous: string; current: string; webhooks: WebhookRecord[] }> {
    const waId = digits(waIdInput);
    const account = this.accountOf(opts.phoneNumberId);
    const customer = this.state.identities.of(waId);
    const { previous, current } = this.state.identities.changeUserId(waId);
    const timestamp = String(Math.floor(this.state.now() / 1000));
    const phone = this.state.identities.phoneField(customer, 'wa_id');
    const system = this.state.webhooks.push(account.wabaAccountId, 'messages', {
      ...webhookMetadata(account),
      messages: [
        {
          ...this.state.identities.phoneField(customer, 'from'),
          from_user_id: previous,
          id: wamid(),
          timestamp,
          type: 'system',
          system: { body: 'User changed their user id', type: 'user_changed_user_id', ...phone, user_id: current },
        },
      ],
    });
    this.state.track(system);
    const update = this.state.webhooks.push(account.wabaAccountId, 'user_id_update', {
      ...webhookMetadata(account),
      user_id_update: [{ ...phone, detail: 'User changed their business-scoped user id', timestamp, user_id: { previous, current } }],
    });
    this.state.track(update);
    this.state.log(`customer ${waId}: user id ${previous} -> ${current}`);
    return { previous, current, webhooks: [await system, await update] };
  }

  /**
   * The business writes to the customer from the WhatsApp Business app on its phone (coexistence): the
   * `smb_message_echoes` webhook follows, `from` the business, `to` the customer (left out when the phone is
   * hidden) and `to_user_id`. It does not open or extend the customer's 24-hour window.
   */
  async businessAppSend(waIdInput: string, text: string, opts: { phoneNumberId?: string } = {}): Promise<{ id: string; webhook: WebhookRecord }> {
    const waId = digits(waIdInput);
    const account = this.accountOf(opts.phoneNumberId);
    const customer = this.state.identities.of(waId);
    const id = wamid();
    const echo = {
      from: digits(account.phoneNumber),
      ...this.state.identities.phoneField(customer, 'to'),
      to_user_id: customer.userId,
      id,
      timestamp: String(Math.floor(this.state.now() / 1000)),
      type: 'text',
      text: { body: text },
    };
    const webhook = this.state.webhooks.push(account.wabaAccountId, 'smb_message_echoes', { ...webhookMetadata(account), message_echoes: [echo] });
    this.state.track(webhook);
    return { id, webhook: await webhook };
  }

  /** The last outbound message to this customer matching `pred` (what a reply refers to). */
  private lastSent(account: SandboxAccount, waId: string, pred: (m: SentMessage) => boolean): SentMessage | undefined {
    return this.state.sent.filter((m) => m.phoneNumberId === account.phoneNumberId && m.waId === waId && pred(m)).at(-1);
  }

  private customerContent(account: SandboxAccount, waId: string, msg: CustomerMessage): Obj {
    const interactive = (m: SentMessage, kind: string) => m.type === 'interactive' && (m.body.interactive as Obj).type === kind;
    const context = (ref: SentMessage | undefined, replyTo: string | undefined) => {
      const id = replyTo ?? ref?.id;
      return id ? { context: { from: digits(account.phoneNumber), id } } : {};
    };
    switch (msg.type) {
      case 'text':
        return { type: 'text', text: { body: msg.text } };
      case 'button_reply': {
        const ref = this.lastSent(account, waId, (m) => interactive(m, 'button'));
        let { id, title } = msg;
        if (id === undefined || title === undefined) {
          const buttons = (((ref?.body.interactive as Obj | undefined)?.action as Obj | undefined)?.buttons as Obj[] | undefined) ?? [];
          const b = buttons[msg.index ?? 0]?.reply as Obj | undefined;
          if (!b) throw new Error(`customer ${waId} has no reply-button message to answer (or no button ${msg.index ?? 0})`);
          id ??= String(b.id);
          title ??= String(b.title);
        }
        return { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id, title } }, ...context(ref, msg.replyTo) };
      }
      case 'list_reply': {
        const ref = this.lastSent(account, waId, (m) => interactive(m, 'list'));
        let { id, title, description } = msg;
        if (id === undefined || title === undefined) {
          const sections = (((ref?.body.interactive as Obj | undefined)?.action as Obj | undefined)?.sections as Obj[] | undefined) ?? [];
          const row = sections.flatMap((s) => s.rows as Obj[])[msg.index ?? 0];
          if (!row) throw new Error(`customer ${waId} has no list message to answer (or no row ${msg.index ?? 0})`);
          id ??= String(row.id);
          title ??= String(row.title);
          description ??= row.description as string | undefined;
        }
        return {
          type: 'interactive',
          interactive: { type: 'list_reply', list_reply: { id, title, ...(description !== undefined ? { description } : {}) } },
          ...context(ref, msg.replyTo),
        };
      }
      case 'nfm_reply': {
        const ref = this.lastSent(account, waId, (m) => interactive(m, 'flow'));
        const params = (((ref?.body.interactive as Obj | undefined)?.action as Obj | undefined)?.parameters as Obj | undefined) ?? {};
        const flowToken = msg.flowToken ?? (params.flow_token as string | undefined) ?? 'unused';
        return {
          type: 'interactive',
          interactive: {
            type: 'nfm_reply',
            // response_json is a JSON-encoded string, and flow_token is the only link back to the flow (reference §3).
            nfm_reply: { name: 'flow', body: msg.body ?? 'Sent', response_json: JSON.stringify({ ...(msg.response ?? {}), flow_token: flowToken }) },
          },
          ...context(ref, msg.replyTo),
        };
      }
      case 'button': {
        const ref = this.lastSent(account, waId, (m) => m.type === 'template');
        return { type: 'button', button: { payload: msg.payload, text: msg.text }, ...context(ref, msg.replyTo) };
      }
      case 'image': {
        const m = this.media.storeMedia(account.phoneNumberId, Buffer.from(msg.data ?? samplePng), msg.mimeType ?? 'image/png');
        return { type: 'image', image: { id: m.id, mime_type: m.mimeType, sha256: m.sha256, ...(msg.caption ? { caption: msg.caption } : {}) } };
      }
      case 'document': {
        const fileName = msg.fileName ?? 'document.pdf';
        const m = this.media.storeMedia(account.phoneNumberId, Buffer.from(msg.data ?? samplePdf()), msg.mimeType ?? 'application/pdf', fileName);
        return {
          type: 'document',
          document: { id: m.id, mime_type: m.mimeType, sha256: m.sha256, filename: fileName, ...(msg.caption ? { caption: msg.caption } : {}) },
        };
      }
      default:
        throw new Error(`unsupported customer message type ${(msg as { type: string }).type}`);
    }
  }
}
