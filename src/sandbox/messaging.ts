/**
 * Outbound messaging: POST /{PHONE_NUMBER_ID}/messages with its checks (24-hour windows, throughput and
 * pair-rate buckets, injected failures, templates, flows), read receipts, and the sent / delivered / read
 * (or failed) status webhooks that follow an accepted message.
 */
import { randomBytes } from 'node:crypto';
import { type SandboxAccount, digits } from './account';
import { SandboxGraphError, badParam, invalid, missing, webhookErrorItem } from './graph-error';
import { type SandboxState, type SandboxTemplate, type SentMessage, wamid } from './state';
import type { TemplateRegistry } from './templates';
import { type Obj, type ParsedSend, isObj, parseSend } from './validate';

const WINDOW_MS = 24 * 60 * 60_000;

export interface InjectedFailure {
  /** Graph error code, e.g. 131026 (undeliverable), 131049, 1 (unknown), 131000. */
  code: number;
  details?: string;
  /** 'sync': the next send requests answer this error. 'async': the next accepted messages get a `failed` webhook. */
  mode?: 'sync' | 'async';
  /** How many requests or messages it affects (default 1). */
  count?: number;
  /** HTTP status of a sync failure (default: Meta's status for the code). */
  httpStatus?: number;
}

/** Key of a customer's 24-hour window with a business number in SandboxState.windows. */
export const windowKey = (phoneNumberId: string, waId: string) => `${phoneNumberId}:${waId}`;

/** The envelope of every `messages` webhook value: which business number it concerns. */
export function webhookMetadata(account: SandboxAccount) {
  return { messaging_product: 'whatsapp', metadata: { display_phone_number: digits(account.phoneNumber), phone_number_id: account.phoneNumberId } };
}

/** A share (0..1) of sends refused with `code` (benchmarks and tests of Meta's refusals). */
export interface RefusedShare {
  code: number;
  share: number;
  details?: string;
}

/** What customers received: messages per recipient, and repeats of the same message (duplicates). */
export interface DeliveryCounts {
  messages: number;
  recipients: number;
  /** Messages beyond the first of the same content to the same customer from the same number. */
  duplicates: number;
  perRecipient: Record<string, number>;
}

/** What makes two sends "the same message": the template (name and parameters) or the text. */
const contentKey = (m: SentMessage) => JSON.stringify((m.body as Obj).template ?? (m.body as Obj).text ?? m.body);

export class Messaging {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  /** Throughput tier per phone number id, set at run time (else the sandbox's throughputPerSecond). */
  private readonly tiers = new Map<string, number>();
  private refused: (RefusedShare & { seen: number }) | null = null;
  private readonly syncFailures: InjectedFailure[] = [];
  private readonly asyncFailures: InjectedFailure[] = [];
  /** Customers (wa_id) who stopped marketing messages from this business in WhatsApp. */
  private readonly stoppedMarketing = new Set<string>();
  /** Customers (wa_id) at WhatsApp's per-user marketing cap: marketing templates to them fail with 131049. */
  private readonly cappedMarketing = new Set<string>();

  constructor(
    private readonly state: SandboxState,
    private readonly templates: TemplateRegistry,
  ) {}

  setThroughput(phoneNumberId: string, perSecond: number): void {
    this.tiers.set(phoneNumberId, perSecond);
    this.buckets.delete(`tp:${phoneNumberId}`);
  }

  throughputOf(phoneNumberId: string): number {
    return this.tiers.get(phoneNumberId) ?? this.state.opts.throughputPerSecond ?? 80;
  }

  /** Refuses `share` of the following sends (spread evenly) with `code`; share 0 stops. */
  refuseShare(r: RefusedShare): void {
    this.refused = r.share > 0 ? { ...r, seen: 0 } : null;
  }

  deliveries(phoneNumberId?: string): DeliveryCounts {
    const perRecipient: Record<string, number> = {};
    const seen = new Set<string>();
    let duplicates = 0;
    let messages = 0;
    for (const m of this.state.sent) {
      if (phoneNumberId && m.phoneNumberId !== phoneNumberId) continue;
      messages++;
      perRecipient[m.waId] = (perRecipient[m.waId] ?? 0) + 1;
      const key = `${m.phoneNumberId}|${m.waId}|${contentKey(m)}`;
      if (seen.has(key)) duplicates++;
      seen.add(key);
    }
    return { messages, recipients: Object.keys(perRecipient).length, duplicates, perRecipient };
  }

  /** Whether this send is one of the refused share. */
  private refusedNow(): RefusedShare | null {
    const r = this.refused;
    if (!r) return null;
    r.seen++;
    return Math.floor(r.seen * r.share) > Math.floor((r.seen - 1) * r.share) ? r : null;
  }

  /** The customer reaches (or leaves) WhatsApp's per-user marketing cap: marketing templates then fail with 131049. */
  setMarketingCap(waId: string, capped: boolean): void {
    if (capped) this.cappedMarketing.add(digits(waId));
    else this.cappedMarketing.delete(digits(waId));
  }

  injectFailure(f: InjectedFailure): void {
    const list = (f.mode ?? 'sync') === 'sync' ? this.syncFailures : this.asyncFailures;
    for (let i = 0; i < (f.count ?? 1); i++) list.push(f);
  }

  /** Records that the customer last wrote at `at` without sending a webhook (state a restarted sandbox forgot). */
  restoreWindow(phoneNumberId: string, waId: string, at: Date): void {
    const key = windowKey(phoneNumberId, digits(waId));
    if ((this.state.windows.get(key) ?? 0) < at.getTime()) this.state.windows.set(key, at.getTime());
    this.state.save();
  }

  windowOpen(phoneNumberId: string, waId: string): boolean {
    const last = this.state.windows.get(windowKey(phoneNumberId, waId));
    return last !== undefined && this.state.now() - last < WINDOW_MS;
  }

  private take(key: string, capacity: number, perSecond: number): boolean {
    const now = Date.now();
    const b = this.buckets.get(key) ?? { tokens: capacity, at: now };
    b.tokens = Math.min(capacity, b.tokens + ((now - b.at) / 1000) * perSecond);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  /** POST /{PHONE_NUMBER_ID}/messages */
  send(account: SandboxAccount, body: unknown): object {
    if (isObj(body) && body.status === 'read') return this.markRead(account, body);
    const failure = this.syncFailures.shift();
    if (failure) throw new SandboxGraphError(failure.code, failure.details ?? 'Injected failure', { httpStatus: failure.httpStatus });

    const p = parseSend(body);
    // A send by user id reaches the customer holding it; `to` wins when both are given.
    const customer = p.recipient ? this.state.identities.byUserId(p.recipient) : this.state.identities.of(p.waId);
    if (!customer) throw invalid(`Param recipient is not a WhatsApp user of this business portfolio: ${p.recipient}`);
    p.waId = customer.waId;
    if (p.waId === digits(account.phoneNumber)) throw new SandboxGraphError(131021, 'Recipient cannot be sender.');
    for (const ref of p.mediaRefs) {
      if (ref.id !== undefined && !this.state.media.has(ref.id)) throw invalid(`Param ${ref.kind}['id'] is not a valid media id: ${ref.id}`);
    }
    const template = p.template ? this.templates.checkTemplate(account, p) : undefined;
    if (p.recipient && template?.category === 'AUTHENTICATION') {
      throw new SandboxGraphError(131062, 'Authentication templates with one-tap, zero-tap or copy-code buttons need a phone number recipient.');
    }
    if (p.flow) this.checkFlow(account, p.flow);

    const rate = this.throughputOf(account.phoneNumberId);
    if (!this.take(`tp:${account.phoneNumberId}`, rate, rate)) {
      throw new SandboxGraphError(130429, 'Message failed to send because there were too many messages sent from this phone number in a short period of time', {
        subcode: 2494055,
      });
    }
    const refusal = this.refusedNow();
    if (refusal) throw new SandboxGraphError(refusal.code, refusal.details ?? 'Refused share (sandbox)');
    const pair = this.state.opts.pairRateLimit;
    if (pair && !this.take(`pair:${account.phoneNumberId}:${p.waId}`, pair.burst, pair.perSecond)) {
      throw new SandboxGraphError(131056, 'Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time');
    }

    const outside = !template && !this.windowOpen(account.phoneNumberId, p.waId);
    const windowDetails = 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.';
    if (outside && (this.state.opts.windowErrorMode ?? 'sync') === 'sync') throw new SandboxGraphError(131047, windowDetails);

    const message: SentMessage = {
      id: wamid(),
      phoneNumberId: account.phoneNumberId,
      to: p.to,
      ...(p.recipient ? { recipient: p.recipient } : {}),
      waId: p.waId,
      type: p.type,
      body: body as Obj,
      status: 'accepted',
      at: new Date(this.state.now()),
    };
    this.state.sent.push(message);
    // As at Meta: a marketing template to a customer who stopped marketing is accepted, then fails with 131050.
    // ... and one to a customer at the per-user marketing cap fails with 131049.
    const marketing = template?.category === 'MARKETING';
    const asyncFailure = outside
      ? { code: 131047, details: windowDetails }
      : marketing && this.stoppedMarketing.has(p.waId)
        ? { code: 131050, details: 'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business.' }
        : marketing && this.cappedMarketing.has(p.waId)
          ? { code: 131049, details: 'This message was not delivered to maintain healthy ecosystem engagement.' }
          : this.asyncFailures.shift();
    this.progress(account, message, p, template, asyncFailure);
    return {
      messaging_product: 'whatsapp',
      // As at Meta: `wa_id` for a phone send, `user_id` for a send by user id.
      contacts: [p.recipient ? { input: p.recipient, user_id: customer.userId } : { input: p.to, wa_id: p.waId }],
      messages: [{ id: message.id, ...(template ? { message_status: 'accepted' } : {}) }],
    };
  }

  /**
   * The customer stops or resumes marketing messages in WhatsApp (Offers and announcements): Meta's
   * `user_preferences` webhook follows; resolves once it was delivered or given up.
   */
  async setMarketingPreference(account: SandboxAccount, waId: string, value: 'stop' | 'resume'): Promise<void> {
    if (value === 'stop') this.stoppedMarketing.add(waId);
    else this.stoppedMarketing.delete(waId);
    this.state.log(`customer ${waId}: ${value} marketing messages`);
    const c = this.state.identities.of(waId);
    await this.state.webhooks.push(account.wabaAccountId, 'user_preferences', {
      ...webhookMetadata(account),
      contacts: [this.state.identities.contactEntry(c, this.state.names.get(waId) ?? 'Customer')],
      user_preferences: [
        {
          ...this.state.identities.phoneField(c, 'wa_id'),
          user_id: c.userId,
          detail: value === 'stop' ? 'User requested to stop marketing messages' : 'User requested to resume marketing messages',
          category: 'marketing_messages',
          value,
          timestamp: Math.floor(this.state.now() / 1000),
        },
      ],
    });
  }

  private markRead(account: SandboxAccount, body: Obj): object {
    if (body.messaging_product !== 'whatsapp') throw badParam("The parameter messaging_product is required and must be 'whatsapp'.");
    if (typeof body.message_id !== 'string') throw missing('The parameter message_id is required.');
    const found = this.state.received.find((m) => m.id === body.message_id && m.phoneNumberId === account.phoneNumberId);
    if (!found) throw invalid(`Param message_id is not a message received by this number: ${body.message_id}`);
    // The typing indicator rides on the read receipt; only `{ type: 'text' }` exists, and like the
    // receipt it needs the customer's message (shown up to 25 s or until the business replies).
    if (body.typing_indicator !== undefined) {
      const ti = body.typing_indicator;
      if (!isObj(ti) || ti.type !== 'text') throw badParam("The parameter typing_indicator.type must be 'text'.");
      this.state.typingIndicators.push({ phoneNumberId: account.phoneNumberId, waId: found.waId, messageId: found.id, at: new Date(this.state.now()) });
    }
    // As on WhatsApp, reading a message reads the customer's earlier ones too.
    const now = new Date(this.state.now());
    for (const m of this.state.received) {
      if (m.phoneNumberId === found.phoneNumberId && m.waId === found.waId && m.at <= found.at && !m.readAt) m.readAt = now;
    }
    return { success: true };
  }

  private checkFlow(account: SandboxAccount, f: NonNullable<ParsedSend['flow']>): void {
    const flow = this.state.flows.find((x) => x.wabaId === account.wabaAccountId && (f.id ? x.id === f.id : x.name === f.name));
    if (!flow) throw invalid(`Flow ${f.id ?? f.name} does not exist in this WhatsApp Business Account.`);
    if (flow.status === 'DRAFT' && f.mode !== 'draft') throw invalid(`Flow ${flow.id} is a DRAFT; send it with mode 'draft' or publish it first.`);
    if (flow.status === 'BLOCKED') throw new SandboxGraphError(132068, `Flow ${flow.id} is blocked.`);
    if (flow.status === 'THROTTLED') throw new SandboxGraphError(132069, `Flow ${flow.id} is throttled.`);
  }

  /** sent -> delivered -> read webhooks (or one `failed`), spaced by statusDelayMs. */
  private progress(account: SandboxAccount, m: SentMessage, p: ParsedSend, template: SandboxTemplate | undefined, failure?: { code: number; details?: string }): void {
    const category = template ? template.category.toLowerCase() : 'service';
    const delay = this.state.opts.statusDelayMs ?? 150;
    const steps: SentMessage['status'][] = failure ? ['failed'] : ['sent', 'delivered', ...(this.state.opts.autoRead === false ? [] : (['read'] as const))];
    const conversation = {
      id: randomBytes(16).toString('hex'),
      expiration_timestamp: String(Math.floor((this.state.now() + WINDOW_MS) / 1000)),
      origin: { type: category },
    };
    this.state.track(
      (async () => {
        for (const status of steps) {
          await this.state.wait(delay);
          if (this.state.closed) return;
          m.status = status;
          const c = this.state.identities.of(p.waId);
          // 2026: `recipient_id` is left out for a send by user id to a customer whose phone is hidden;
          // `recipient_user_id` is always there except on a phone send's `failed`.
          const phoneShown = !(p.recipient && c.phoneHidden);
          const item: Obj = {
            id: m.id,
            status,
            timestamp: String(Math.floor(this.state.now() / 1000)),
            ...(phoneShown ? { recipient_id: p.waId } : {}),
            ...(status !== 'failed' || p.recipient ? { recipient_user_id: c.userId } : {}),
            ...(p.bizOpaqueCallbackData ? { biz_opaque_callback_data: p.bizOpaqueCallbackData } : {}),
          };
          if (status === 'failed') item.errors = [webhookErrorItem(failure!.code, failure!.details ?? 'Injected failure')];
          else if (status !== 'read') {
            // Like Meta, read receipts carry no conversation or pricing: those were settled by sent/delivered.
            item.conversation = conversation;
            item.pricing = { billable: category !== 'service', pricing_model: 'PMP', type: category === 'service' ? 'free_customer_service' : 'regular', category };
          }
          // sent/delivered/read carry the customer's contact (the username not on `sent`); `failed` none.
          const contacts = status === 'failed' ? {} : { contacts: [this.state.identities.contactEntry(c, undefined, { username: status !== 'sent' })] };
          await this.state.webhooks.push(account.wabaAccountId, 'messages', { ...webhookMetadata(account), ...contacts, statuses: [item] });
        }
      })(),
    );
  }
}
