/**
 * The sandbox's state and rules, independent of HTTP: accounts and tokens, the 24-hour windows, throughput
 * buckets, templates and their review, media, resumable uploads, flows, simulated customers and the status
 * progression of outbound messages. server.ts maps Graph API requests onto it.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type SandboxAccount, digits, sandboxAccount } from './account';
import { SandboxGraphError, badParam, invalid, missing, unknownObject, webhookErrorItem } from './graph-error';
import { mediaKindOf, mediaLimits, samplePdf, samplePng } from './samples';
import { type Obj, type ParsedSend, isObj, parseSend, placeholders } from './validate';
import { type DeliverFn, type WebhookRecord, WebhookQueue } from './webhooks';

export type TemplateStatus = 'PENDING' | 'APPROVED' | 'REJECTED' | 'PAUSED' | 'DISABLED';
export type ReviewOutcome = { status: 'APPROVED' } | { status: 'REJECTED'; reason: string };

export interface SandboxOptions {
  /** Secret the webhooks are signed with (`WHATSAPP_APP_SECRET` of the server receiving them). */
  appSecret: string;
  webhookUrl?: string;
  /** Delivers webhooks in-process instead of over HTTP; answer the HTTP status the receiver gave. */
  deliver?: DeliverFn;
  /** Time a new template stays PENDING before its review outcome (default 2000 ms). */
  templateReviewDelayMs?: number;
  /** Decides a review; default: a name containing "reject" is REJECTED (INVALID_FORMAT), others APPROVED. */
  reviewTemplate?: (t: SandboxTemplate) => ReviewOutcome;
  /** Token bucket per phone number for outbound messages (Meta's default is 80). */
  throughputPerSecond?: number;
  /** Per (business, customer) pair: burst size and sustained rate; off unless given (Meta: ~45 burst, 1 per 6 s). */
  pairRateLimit?: { burst: number; perSecond: number };
  /** 'sync' (default): sends outside the 24-hour window answer 131047. 'async': 200, then a `failed` status webhook. */
  windowErrorMode?: 'sync' | 'async';
  /** Delay between an accepted message and each of its sent / delivered / read webhooks (default 150 ms). */
  statusDelayMs?: number;
  /** Customers open what they receive, so `read` follows `delivered` (default true). */
  autoRead?: boolean;
  /** More bearer tokens accepted for every account (for example a test's own). */
  tokens?: string[];
  /** Webhook delivery attempts including the first (default 5) and the first retry delay (default 200 ms, doubling). */
  webhookAttempts?: number;
  webhookRetryDelayMs?: number;
  log?: (line: string) => void;
  /**
   * JSON file keeping templates, 24-hour windows, customer names and upload handles across restarts (npm start
   * uses one, so the demo database and the sandbox do not drift apart). Unset: everything lives in memory.
   */
  stateFile?: string;
}

interface PersistedState {
  templates: SandboxTemplate[];
  windows: [string, number][];
  names: [string, string][];
  handles: string[];
}

export interface SandboxTemplate {
  id: string;
  wabaId: string;
  name: string;
  language: string;
  category: string;
  status: TemplateStatus;
  parameterFormat: 'POSITIONAL' | 'NAMED';
  components: Obj[];
  rejectedReason?: string;
}

export interface SentMessage {
  id: string;
  phoneNumberId: string;
  to: string;
  waId: string;
  type: string;
  /** The request body as accepted. */
  body: Obj;
  /** Last status reported by webhook: accepted until the first one. */
  status: 'accepted' | 'sent' | 'delivered' | 'read' | 'failed';
  at: Date;
}

export interface ReceivedMessage {
  id: string;
  phoneNumberId: string;
  waId: string;
  type: string;
  /** The `messages[]` item as delivered in the webhook. */
  message: Obj;
  at: Date;
  /** When the business marked it read (directly, or a later message of the same customer). */
  readAt?: Date;
}

export interface SandboxMedia {
  id: string;
  phoneNumberId: string;
  data: Buffer;
  mimeType: string;
  sha256: string;
  fileName?: string;
  createdAt: number;
}

export interface SandboxFlow {
  id: string;
  wabaId: string;
  name: string;
  status: 'DRAFT' | 'PUBLISHED' | 'DEPRECATED' | 'BLOCKED' | 'THROTTLED';
  categories: string[];
  validation_errors: Obj[];
}

interface UploadSession {
  id: string;
  appId: string;
  fileName: string;
  fileLength: number;
  fileType: string;
  chunks: Buffer[];
  offset: number;
  handle?: string;
}

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
  /** Which business number the customer writes to (default: the sandbox account's). */
  phoneNumberId?: string;
}

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

const MEDIA_URL_TTL_MS = 5 * 60_000;
const WINDOW_MS = 24 * 60 * 60_000;
/** Graph object ids are 15-digit numbers; 15 digits keep them exact as JSON numbers too. */
const graphId = () => `${randomInt(1, 10)}${String(randomInt(0, 1e7)).padStart(7, '0')}${String(randomInt(0, 1e7)).padStart(7, '0')}`;
const wamid = () => `wamid.${randomBytes(24).toString('base64url')}`;
/** Stable 15-digit id derived from a seed: sample flows and templates keep their ids across restarts. */
const stableId = (seed: string) => `1${BigInt(`0x${createHash('sha256').update(seed).digest('hex').slice(0, 15)}`).toString().slice(0, 14).padStart(14, '0')}`;

export class SandboxCore {
  readonly accounts = new Map<string, SandboxAccount>();
  readonly templates: SandboxTemplate[] = [];
  readonly sent: SentMessage[] = [];
  readonly received: ReceivedMessage[] = [];
  readonly media = new Map<string, SandboxMedia>();
  readonly flows: SandboxFlow[] = [];
  readonly webhooks: WebhookQueue;
  private readonly globalTokens: Set<string>;
  private readonly expiredTokens = new Set<string>();
  private readonly uploads = new Map<string, UploadSession>();
  private readonly handles = new Set<string>();
  private readonly windows = new Map<string, number>();
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly names = new Map<string, string>();
  private readonly syncFailures: InjectedFailure[] = [];
  private readonly asyncFailures: InjectedFailure[] = [];
  private readonly pending = new Set<Promise<unknown>>();
  private readonly timers = new Map<NodeJS.Timeout, () => void>();
  private interruptUploadAfter: number | undefined;
  private clockOffset = 0;
  private closed = false;
  readonly log: (line: string) => void;

  constructor(readonly opts: SandboxOptions) {
    this.log = opts.log ?? (() => undefined);
    this.globalTokens = new Set(opts.tokens ?? []);
    this.webhooks = new WebhookQueue({
      appSecret: opts.appSecret,
      webhookUrl: opts.webhookUrl,
      deliver: opts.deliver,
      attempts: opts.webhookAttempts ?? 5,
      retryDelayMs: opts.webhookRetryDelayMs ?? 200,
      log: this.log,
    });
    this.load();
    this.addAccount(sandboxAccount);
  }

  // ---------- persistence (optional) ----------

  private load(): void {
    if (!this.opts.stateFile || !fs.existsSync(this.opts.stateFile)) return;
    try {
      const state = JSON.parse(fs.readFileSync(this.opts.stateFile, 'utf8')) as PersistedState;
      this.templates.push(...state.templates);
      for (const [k, v] of state.windows) this.windows.set(k, v);
      for (const [k, v] of state.names) this.names.set(k, v);
      for (const h of state.handles) this.handles.add(h);
    } catch (err) {
      this.log(`ignoring unreadable state file ${this.opts.stateFile}: ${(err as Error).message}`);
    }
  }

  /** Written after each change; small enough to rewrite whole. */
  private save(): void {
    if (!this.opts.stateFile || this.closed) return;
    const state: PersistedState = {
      templates: this.templates,
      windows: [...this.windows],
      names: [...this.names],
      handles: [...this.handles],
    };
    fs.mkdirSync(path.dirname(this.opts.stateFile), { recursive: true });
    const tmp = `${this.opts.stateFile}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(state));
    fs.renameSync(tmp, this.opts.stateFile);
  }

  // ---------- clock ----------

  /** Sandbox time: real time moved forward by advanceTime (windows and media URLs expire on it). */
  now(): number {
    return Date.now() + this.clockOffset;
  }

  advanceTime(ms: number): void {
    this.clockOffset += ms;
  }

  // ---------- accounts and tokens ----------

  /** Registers another WhatsApp number (own WABA, app and token); omitted fields get fresh ids. */
  addAccount(partial: Partial<SandboxAccount> = {}): SandboxAccount {
    const n = this.accounts.size;
    const account: SandboxAccount = {
      phoneNumber: partial.phoneNumber ?? `+1650555${String(100 + n).padStart(4, '0')}`,
      phoneNumberId: partial.phoneNumberId ?? graphId(),
      wabaAccountId: partial.wabaAccountId ?? graphId(),
      appId: partial.appId ?? graphId(),
      token: partial.token ?? `EAAsandbox${randomBytes(24).toString('hex')}`,
      verifiedName: partial.verifiedName ?? `Parley Sandbox ${n + 1}`,
    };
    if (this.accounts.has(account.phoneNumberId)) throw new Error(`phone number id ${account.phoneNumberId} is already registered`);
    this.accounts.set(account.phoneNumberId, account);
    if (!this.flows.some((f) => f.wabaId === account.wabaAccountId)) this.seedWaba(account.wabaAccountId);
    return account;
  }

  addToken(token: string): void {
    this.globalTokens.add(token);
  }

  /** Makes a token answer 190 / subcode 463 (expired session) from now on. */
  expireToken(token: string): void {
    this.expiredTokens.add(token);
  }

  /** Checks the bearer token; answers the accounts it may act for. */
  authenticate(token: string | undefined): SandboxAccount[] {
    if (!token) {
      throw new SandboxGraphError(190, 'An access token is required to call the WhatsApp Cloud API.', {
        message: 'An active access token must be used to query information about the current user.',
      });
    }
    if (this.expiredTokens.has(token)) {
      throw new SandboxGraphError(190, 'The access token expired.', { subcode: 463, message: 'Error validating access token: Session has expired.' });
    }
    if (this.globalTokens.has(token)) return [...this.accounts.values()];
    const own = [...this.accounts.values()].filter((a) => a.token === token);
    if (own.length === 0) throw new SandboxGraphError(190, 'The access token could not be decrypted.', { message: 'Invalid OAuth access token - Cannot parse access token' });
    return own;
  }

  phoneNumber(visible: SandboxAccount[], id: string, method: string): SandboxAccount {
    const a = visible.find((x) => x.phoneNumberId === id);
    if (!a) throw unknownObject(id, method);
    return a;
  }

  waba(visible: SandboxAccount[], id: string, method: string): SandboxAccount {
    const a = visible.find((x) => x.wabaAccountId === id);
    if (!a) throw unknownObject(id, method);
    return a;
  }

  app(visible: SandboxAccount[], id: string, method: string): SandboxAccount {
    const a = visible.find((x) => x.appId === id);
    if (!a) throw unknownObject(id, method);
    return a;
  }

  // ---------- failure injection ----------

  injectFailure(f: InjectedFailure): void {
    const list = (f.mode ?? 'sync') === 'sync' ? this.syncFailures : this.asyncFailures;
    for (let i = 0; i < (f.count ?? 1); i++) list.push(f);
  }

  /** The next resumable upload keeps only its first `bytes` bytes and drops the connection (to test resuming). */
  interruptNextUpload(bytes: number): void {
    this.interruptUploadAfter = bytes;
  }

  // ---------- sending ----------

  private windowKey = (phoneNumberId: string, waId: string) => `${phoneNumberId}:${waId}`;

  /** Records that the customer last wrote at `at` without sending a webhook (state a restarted sandbox forgot). */
  restoreWindow(phoneNumberId: string, waId: string, at: Date): void {
    const key = this.windowKey(phoneNumberId, digits(waId));
    if ((this.windows.get(key) ?? 0) < at.getTime()) this.windows.set(key, at.getTime());
    this.save();
  }

  windowOpen(phoneNumberId: string, waId: string): boolean {
    const last = this.windows.get(this.windowKey(phoneNumberId, waId));
    return last !== undefined && this.now() - last < WINDOW_MS;
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
    if (p.waId === digits(account.phoneNumber)) throw new SandboxGraphError(131021, 'Recipient cannot be sender.');
    for (const ref of p.mediaRefs) {
      if (ref.id !== undefined && !this.media.has(ref.id)) throw invalid(`Param ${ref.kind}['id'] is not a valid media id: ${ref.id}`);
    }
    const template = p.template ? this.checkTemplate(account, p) : undefined;
    if (p.flow) this.checkFlow(account, p.flow);

    const rate = this.opts.throughputPerSecond ?? 80;
    if (!this.take(`tp:${account.phoneNumberId}`, rate, rate)) {
      throw new SandboxGraphError(130429, 'Message failed to send because there were too many messages sent from this phone number in a short period of time', {
        subcode: 2494055,
      });
    }
    const pair = this.opts.pairRateLimit;
    if (pair && !this.take(`pair:${account.phoneNumberId}:${p.waId}`, pair.burst, pair.perSecond)) {
      throw new SandboxGraphError(131056, 'Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time');
    }

    const outside = !template && !this.windowOpen(account.phoneNumberId, p.waId);
    const windowDetails = 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.';
    if (outside && (this.opts.windowErrorMode ?? 'sync') === 'sync') throw new SandboxGraphError(131047, windowDetails);

    const message: SentMessage = {
      id: wamid(),
      phoneNumberId: account.phoneNumberId,
      to: p.to,
      waId: p.waId,
      type: p.type,
      body: body as Obj,
      status: 'accepted',
      at: new Date(this.now()),
    };
    this.sent.push(message);
    const asyncFailure = outside ? { code: 131047, details: windowDetails } : this.asyncFailures.shift();
    this.progress(account, message, p, template, asyncFailure);
    return {
      messaging_product: 'whatsapp',
      contacts: [{ input: p.to, wa_id: p.waId }],
      messages: [{ id: message.id, ...(template ? { message_status: 'accepted' } : {}) }],
    };
  }

  private markRead(account: SandboxAccount, body: Obj): object {
    if (body.messaging_product !== 'whatsapp') throw badParam("The parameter messaging_product is required and must be 'whatsapp'.");
    if (typeof body.message_id !== 'string') throw missing('The parameter message_id is required.');
    const found = this.received.find((m) => m.id === body.message_id && m.phoneNumberId === account.phoneNumberId);
    if (!found) throw invalid(`Param message_id is not a message received by this number: ${body.message_id}`);
    // As on WhatsApp, reading a message reads the customer's earlier ones too.
    const now = new Date(this.now());
    for (const m of this.received) {
      if (m.phoneNumberId === found.phoneNumberId && m.waId === found.waId && m.at <= found.at && !m.readAt) m.readAt = now;
    }
    return { success: true };
  }

  private checkTemplate(account: SandboxAccount, p: ParsedSend): SandboxTemplate {
    const req = p.template!;
    const byName = this.templates.filter((t) => t.wabaId === account.wabaAccountId && t.name === req.name);
    const t = byName.find((x) => x.language === req.language);
    if (!t) {
      throw new SandboxGraphError(
        132001,
        byName.length === 0
          ? `template name (${req.name}) does not exist in ${req.language}`
          : `template name (${req.name}) does not exist in ${req.language}; it exists in ${byName.map((x) => x.language).join(', ')}`,
      );
    }
    if (t.status === 'PAUSED') throw new SandboxGraphError(132015, `Template ${t.name} is paused because of low quality.`);
    if (t.status === 'DISABLED') throw new SandboxGraphError(132016, `Template ${t.name} is disabled.`);
    if (t.status !== 'APPROVED') throw new SandboxGraphError(132001, `template name (${req.name}) in ${req.language} is not approved (status ${t.status})`);

    const given = (type: string) => req.components.filter((c) => c.type === type).flatMap((c) => c.parameters as Obj[]);
    const header = t.components.find((c) => c.type === 'HEADER');
    const body = t.components.find((c) => c.type === 'BODY');
    const expectations: { where: string; names: string[]; params: Obj[] }[] = [
      { where: 'body', names: placeholders(body?.text as string | undefined), params: given('body') },
    ];
    if (header) {
      const format = String(header.format ?? 'TEXT');
      expectations.push({
        where: 'header',
        names: format === 'TEXT' ? placeholders(header.text as string | undefined) : format === 'LOCATION' ? [] : [format.toLowerCase()],
        params: given('header'),
      });
    }
    for (const e of expectations) {
      if (e.names.length !== e.params.length) {
        throw new SandboxGraphError(132000, `${e.where}: number of localizable_params (${e.params.length}) does not match the expected number of params (${e.names.length})`);
      }
      if (t.parameterFormat === 'NAMED' && e.where !== 'header') {
        const names = e.params.map((x) => x.parameter_name);
        const missingNames = e.names.filter((n) => !names.includes(n));
        if (missingNames.length > 0) throw new SandboxGraphError(132000, `${e.where}: missing named parameters ${missingNames.join(', ')}`);
      }
    }
    const buttons = (t.components.find((c) => c.type === 'BUTTONS')?.buttons as Obj[] | undefined) ?? [];
    for (const c of req.components.filter((x) => x.type === 'button')) {
      const b = buttons[Number(c.index)];
      if (!b) throw new SandboxGraphError(132000, `button at index ${c.index} does not exist in template ${t.name}`);
    }
    return t;
  }

  private checkFlow(account: SandboxAccount, f: NonNullable<ParsedSend['flow']>): void {
    const flow = this.flows.find((x) => x.wabaId === account.wabaAccountId && (f.id ? x.id === f.id : x.name === f.name));
    if (!flow) throw invalid(`Flow ${f.id ?? f.name} does not exist in this WhatsApp Business Account.`);
    if (flow.status === 'DRAFT' && f.mode !== 'draft') throw invalid(`Flow ${flow.id} is a DRAFT; send it with mode 'draft' or publish it first.`);
    if (flow.status === 'BLOCKED') throw new SandboxGraphError(132068, `Flow ${flow.id} is blocked.`);
    if (flow.status === 'THROTTLED') throw new SandboxGraphError(132069, `Flow ${flow.id} is throttled.`);
  }

  /** sent -> delivered -> read webhooks (or one `failed`), spaced by statusDelayMs. */
  private progress(account: SandboxAccount, m: SentMessage, p: ParsedSend, template: SandboxTemplate | undefined, failure?: { code: number; details?: string }): void {
    const category = template ? template.category.toLowerCase() : 'service';
    const delay = this.opts.statusDelayMs ?? 150;
    const steps: SentMessage['status'][] = failure ? ['failed'] : ['sent', 'delivered', ...(this.opts.autoRead === false ? [] : (['read'] as const))];
    const conversation = {
      id: randomBytes(16).toString('hex'),
      expiration_timestamp: String(Math.floor((this.now() + WINDOW_MS) / 1000)),
      origin: { type: category },
    };
    this.track(
      (async () => {
        for (const status of steps) {
          await this.wait(delay);
          if (this.closed) return;
          m.status = status;
          const item: Obj = {
            id: m.id,
            status,
            timestamp: String(Math.floor(this.now() / 1000)),
            recipient_id: p.waId,
            ...(p.bizOpaqueCallbackData ? { biz_opaque_callback_data: p.bizOpaqueCallbackData } : {}),
          };
          if (status === 'failed') item.errors = [webhookErrorItem(failure!.code, failure!.details ?? 'Injected failure')];
          else if (status !== 'read') {
            // Like Meta, read receipts carry no conversation or pricing: those were settled by sent/delivered.
            item.conversation = conversation;
            item.pricing = { billable: category !== 'service', pricing_model: 'PMP', type: category === 'service' ? 'free_customer_service' : 'regular', category };
          }
          await this.webhooks.push(account.wabaAccountId, 'messages', { ...this.metadata(account), statuses: [item] });
        }
      })(),
    );
  }

  private metadata(account: SandboxAccount) {
    return { messaging_product: 'whatsapp', metadata: { display_phone_number: digits(account.phoneNumber), phone_number_id: account.phoneNumberId } };
  }

  // ---------- templates ----------

  createTemplate(account: SandboxAccount, body: unknown): object {
    if (!isObj(body)) throw badParam('The request body must be a JSON object.');
    const name = body.name;
    if (typeof name !== 'string' || !/^[a-z0-9_]{1,512}$/.test(name)) {
      throw badParam('Param name must be at most 512 characters of lowercase letters, digits and underscores.', );
    }
    if (typeof body.language !== 'string' || !/^[a-z]{2,3}(_[A-Z]{2})?$/.test(body.language)) throw badParam('Param language must be a language code such as en_US.');
    const category = body.category;
    if (typeof category !== 'string' || !['AUTHENTICATION', 'UTILITY', 'MARKETING'].includes(category)) {
      throw badParam('Param category must be one of AUTHENTICATION, UTILITY, MARKETING.');
    }
    const parameterFormat = body.parameter_format === undefined ? 'POSITIONAL' : body.parameter_format;
    if (parameterFormat !== 'POSITIONAL' && parameterFormat !== 'NAMED') throw badParam('Param parameter_format must be POSITIONAL or NAMED.');
    if (!Array.isArray(body.components) || !body.components.every(isObj)) throw badParam('Param components must be an array of objects.');
    const components = body.components as Obj[];
    this.checkTemplateComponents(components, parameterFormat);
    if (this.templates.some((t) => t.wabaId === account.wabaAccountId && t.name === name && t.language === body.language)) {
      throw new SandboxGraphError(100, `Content in this language already exists for template ${name}.`, {
        subcode: 2388024,
        message: 'Message template already exists',
      });
    }
    const t: SandboxTemplate = {
      id: graphId(),
      wabaId: account.wabaAccountId,
      name,
      language: body.language,
      category,
      status: 'PENDING',
      parameterFormat,
      components: structuredClone(components),
    };
    this.templates.push(t);
    this.save();
    this.track(
      (async () => {
        await this.wait(this.opts.templateReviewDelayMs ?? 2000);
        if (this.closed || !this.templates.includes(t) || t.status !== 'PENDING') return;
        const outcome = this.opts.reviewTemplate?.(t) ?? (t.name.includes('reject') ? { status: 'REJECTED' as const, reason: 'INVALID_FORMAT' } : { status: 'APPROVED' as const });
        await this.setTemplateStatus(t, outcome.status, outcome.status === 'REJECTED' ? outcome.reason : undefined);
      })(),
    );
    return { id: t.id, status: t.status, category: t.category };
  }

  private checkTemplateComponents(components: Obj[], format: 'POSITIONAL' | 'NAMED'): void {
    const of = (type: string) => components.filter((c) => c.type === type);
    for (const c of components) {
      if (!['HEADER', 'BODY', 'FOOTER', 'BUTTONS'].includes(String(c.type))) throw badParam(`Param components: unknown component type ${String(c.type)}.`);
    }
    for (const type of ['HEADER', 'BODY', 'FOOTER', 'BUTTONS']) {
      if (of(type).length > 1) throw badParam(`Param components must contain at most one ${type}.`);
    }
    const body = of('BODY')[0];
    if (!body || typeof body.text !== 'string' || body.text.trim() === '') throw badParam('Param components must contain a BODY with text.');
    if ([...body.text].length > 1024) throw invalid('Param components BODY text must be at most 1024 characters long.');
    const example = isObj(body.example) ? body.example : {};
    const vars = placeholders(body.text);
    if (vars.length > 0) {
      if (format === 'POSITIONAL') {
        const rows = example.body_text;
        if (!Array.isArray(rows) || !Array.isArray(rows[0]) || rows[0].length !== vars.length) {
          throw invalid(`Param components BODY needs example.body_text with one array of ${vars.length} sample values.`);
        }
        if (vars.some((v, i) => v !== String(i + 1))) throw invalid('Param components BODY positional variables must be {{1}}, {{2}}, ... in order.');
      } else {
        const named = Array.isArray(example.body_text_named_params) ? (example.body_text_named_params as Obj[]) : [];
        const names = named.map((n) => n.param_name);
        if (vars.some((v) => !names.includes(v))) throw invalid('Param components BODY needs example.body_text_named_params for every named variable.');
      }
    }
    const header = of('HEADER')[0];
    if (header) {
      const hf = String(header.format);
      const hex = isObj(header.example) ? header.example : {};
      if (hf === 'TEXT') {
        if (typeof header.text !== 'string' || header.text === '' || [...header.text].length > 60) throw invalid('Param components HEADER text must be 1 to 60 characters long.');
        const hv = placeholders(header.text);
        if (hv.length > 1) throw invalid('Param components HEADER text can have at most 1 variable.');
        if (hv.length === 1 && !(Array.isArray(hex.header_text) || Array.isArray(hex.header_text_named_params))) {
          throw invalid('Param components HEADER needs example.header_text for its variable.');
        }
      } else if (['IMAGE', 'VIDEO', 'DOCUMENT'].includes(hf)) {
        const h = Array.isArray(hex.header_handle) ? hex.header_handle : [];
        if (h.length === 0) throw invalid(`Param components HEADER of format ${hf} needs example.header_handle from the Resumable Upload API.`);
        if (!h.every((x) => typeof x === 'string' && this.handles.has(x))) throw invalid('Param components HEADER example.header_handle is not a valid upload handle.');
      } else if (hf !== 'LOCATION') {
        throw badParam('Param components HEADER format must be TEXT, IMAGE, VIDEO, DOCUMENT or LOCATION.');
      }
    }
    const footer = of('FOOTER')[0];
    if (footer && (typeof footer.text !== 'string' || [...footer.text].length > 60)) throw invalid('Param components FOOTER text must be at most 60 characters long.');
    const buttonsC = of('BUTTONS')[0];
    if (buttonsC) {
      const buttons = Array.isArray(buttonsC.buttons) ? (buttonsC.buttons as Obj[]) : [];
      if (buttons.length < 1 || buttons.length > 10) throw invalid('Param components BUTTONS must have 1 to 10 buttons.');
      const count = (type: string) => buttons.filter((b) => b.type === type).length;
      if (count('URL') > 2 || count('PHONE_NUMBER') > 1 || count('COPY_CODE') > 1) {
        throw invalid('Param components BUTTONS allows at most 2 URL, 1 PHONE_NUMBER and 1 COPY_CODE buttons.');
      }
      for (const b of buttons) {
        if (typeof b.text !== 'string' || b.text === '' || [...b.text].length > 25) throw invalid('Param components BUTTONS text must be 1 to 25 characters long.');
      }
      // Quick replies must form one group, before or after the other buttons, not interleaved with them.
      const kinds = buttons.map((b) => (b.type === 'QUICK_REPLY' ? 'q' : 'o')).join('');
      if (/q+o+q+|o+q+o+/.test(kinds)) throw invalid('Param components BUTTONS: quick reply buttons must be grouped together.');
    }
  }

  async setTemplateStatus(t: SandboxTemplate, status: TemplateStatus, reason?: string): Promise<void> {
    t.status = status;
    t.rejectedReason = status === 'REJECTED' ? (reason ?? 'INVALID_FORMAT') : undefined;
    this.save();
    const account = [...this.accounts.values()].find((a) => a.wabaAccountId === t.wabaId)!;
    await this.webhooks.push(t.wabaId, 'message_template_status_update', {
      event: status,
      message_template_id: Number(t.id),
      message_template_name: t.name,
      message_template_language: t.language,
      message_template_category: t.category,
      reason: status === 'REJECTED' ? t.rejectedReason : 'NONE',
      ...(status === 'REJECTED' ? { rejection_info: { reason: t.rejectedReason, recommendation: 'Review the template guidelines and submit it again.' } } : {}),
    });
    this.log(`template ${t.name} (${t.language}) of ${account.verifiedName}: ${status}`);
  }

  listTemplates(account: SandboxAccount, query: Record<string, string | undefined>): SandboxTemplate[] {
    return this.templates.filter(
      (t) =>
        t.wabaId === account.wabaAccountId &&
        (!query.name || t.name.includes(query.name)) &&
        (!query.status || t.status === query.status.toUpperCase()) &&
        (!query.category || t.category === query.category.toUpperCase()) &&
        (!query.language || t.language === query.language),
    );
  }

  deleteTemplate(account: SandboxAccount, name: string | undefined, hsmId: string | undefined): object {
    if (!name) throw missing('The parameter name is required.');
    const doomed = this.templates.filter((t) => t.wabaId === account.wabaAccountId && t.name === name && (!hsmId || t.id === hsmId));
    if (doomed.length === 0) {
      throw new SandboxGraphError(100, `Message template "${name}"${hsmId ? ` with id ${hsmId}` : ''} was not found.`, { subcode: 2593002 });
    }
    if (doomed.some((t) => t.status === 'DISABLED')) throw badParam('Disabled templates cannot be deleted.');
    for (const t of doomed) this.templates.splice(this.templates.indexOf(t), 1);
    this.save();
    return { success: true };
  }

  // ---------- media ----------

  storeMedia(phoneNumberId: string, data: Buffer, mimeType: string, fileName?: string): SandboxMedia {
    const m: SandboxMedia = {
      id: graphId(),
      phoneNumberId,
      data,
      mimeType,
      sha256: createHash('sha256').update(data).digest('hex'),
      fileName,
      createdAt: this.now(),
    };
    this.media.set(m.id, m);
    return m;
  }

  /** POST /{PHONE_NUMBER_ID}/media */
  uploadMedia(account: SandboxAccount, fields: Record<string, string>, file: { data: Buffer; mimeType: string; fileName?: string } | undefined): object {
    if (fields.messaging_product !== 'whatsapp') throw badParam("The parameter messaging_product is required and must be 'whatsapp'.");
    if (!file) throw missing('The parameter file is required.');
    const mimeType = (fields.type || file.mimeType).toLowerCase();
    const kind = mediaKindOf(mimeType);
    if (!kind) throw badParam(`Param file must be a file with one of the supported types; ${mimeType} is not supported.`);
    if (file.data.length === 0) throw invalid('Param file is empty.');
    if (file.data.length > mediaLimits[kind].maxBytes) {
      throw new SandboxGraphError(131053, `The ${kind} is ${file.data.length} bytes; the limit is ${mediaLimits[kind].maxBytes} bytes.`);
    }
    return { id: this.storeMedia(account.phoneNumberId, file.data, mimeType, file.fileName).id };
  }

  /** GET /{MEDIA_ID}: media the token's accounts can see. */
  mediaFor(visible: SandboxAccount[], id: string): SandboxMedia | undefined {
    const m = this.media.get(id);
    return m && visible.some((a) => a.phoneNumberId === m.phoneNumberId) ? m : undefined;
  }

  /** The download query: media id, expiry and a MAC, so a URL cannot be forged or extended. */
  mediaUrlQuery(m: SandboxMedia): string {
    const ext = this.now() + MEDIA_URL_TTL_MS;
    return `mid=${m.id}&ext=${ext}&hash=${this.mac(`${m.id}.${ext}`)}`;
  }

  checkMediaUrl(mid: string, ext: string, hash: string): SandboxMedia | 'expired' | undefined {
    if (hash !== this.mac(`${mid}.${ext}`)) return undefined;
    if (Number(ext) < this.now()) return 'expired';
    return this.media.get(mid);
  }

  private mac(s: string): string {
    return createHash('sha256').update(`${this.opts.appSecret}:${s}`).digest('base64url').slice(0, 22);
  }

  // ---------- resumable upload ----------

  createUploadSession(account: SandboxAccount, q: Record<string, string | undefined>): object {
    const allowed = ['application/pdf', 'image/jpeg', 'image/jpg', 'image/png', 'video/mp4'];
    if (!q.file_name) throw missing('The parameter file_name is required.');
    const length = Number(q.file_length);
    if (!q.file_length || !Number.isInteger(length) || length <= 0) throw invalid('Param file_length must be a positive integer.');
    if (!q.file_type || !allowed.includes(q.file_type)) throw invalid(`Param file_type must be one of ${allowed.join(', ')}.`);
    const id = `upload:${randomBytes(18).toString('base64url')}`;
    this.uploads.set(id, { id, appId: account.appId, fileName: q.file_name, fileLength: length, fileType: q.file_type, chunks: [], offset: 0 });
    return { id };
  }

  uploadSession(visible: SandboxAccount[], id: string, method: string): UploadSession {
    const s = this.uploads.get(id);
    if (!s || !visible.some((a) => a.appId === s.appId)) throw unknownObject(id, method);
    return s;
  }

  /** POST /upload:<id>: appends bytes at file_offset; answers the handle once the file is complete. */
  appendUpload(s: UploadSession, fileOffset: string | undefined, data: Buffer): { body: object; interrupt: boolean } {
    const offset = Number(fileOffset ?? '0');
    if (!Number.isInteger(offset) || offset !== s.offset) {
      throw invalid(`Param file_offset must be the current offset of the upload session (${s.offset}); got ${fileOffset}.`);
    }
    if (offset + data.length > s.fileLength) throw invalid(`The upload is longer than file_length (${s.fileLength} bytes).`);
    let interrupt = false;
    if (this.interruptUploadAfter !== undefined && data.length > this.interruptUploadAfter) {
      data = data.subarray(0, this.interruptUploadAfter);
      this.interruptUploadAfter = undefined;
      interrupt = true;
    }
    s.chunks.push(Buffer.from(data));
    s.offset += data.length;
    if (s.offset === s.fileLength && !s.handle) {
      s.handle = `4::${Buffer.from(s.fileType).toString('base64')}:${randomBytes(24).toString('base64url')}`;
      this.handles.add(s.handle);
      this.save();
    }
    return { body: s.handle ? { h: s.handle } : { id: s.id, file_offset: s.offset }, interrupt };
  }

  uploadedFile(handle: string): Buffer | undefined {
    const s = [...this.uploads.values()].find((x) => x.handle === handle);
    return s ? Buffer.concat(s.chunks) : undefined;
  }

  // ---------- flows ----------

  private seedWaba(wabaId: string): void {
    this.flows.push(
      { id: stableId(`${wabaId}:flow:1`), wabaId, name: 'Book an appointment', status: 'PUBLISHED', categories: ['APPOINTMENT_BOOKING'], validation_errors: [] },
      { id: stableId(`${wabaId}:flow:2`), wabaId, name: 'Customer feedback', status: 'DRAFT', categories: ['SURVEY'], validation_errors: [] },
    );
    // Meta gives every new WABA this approved sample template.
    if (this.templates.some((t) => t.wabaId === wabaId && t.name === 'hello_world')) return;
    this.templates.push({
      id: stableId(`${wabaId}:hello_world`),
      wabaId,
      name: 'hello_world',
      language: 'en_US',
      category: 'UTILITY',
      status: 'APPROVED',
      parameterFormat: 'POSITIONAL',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Hello World' },
        { type: 'BODY', text: 'Welcome and congratulations!! This message demonstrates your ability to send a WhatsApp message notification from the Cloud API, hosted by Meta. Thank you for taking the time to test with us.' },
        { type: 'FOOTER', text: 'WhatsApp Business Platform sample message' },
      ],
    });
  }

  // ---------- simulated customers ----------

  /** A customer writes to a business number: opens their 24-hour window and sends the `messages` webhook. */
  async customerSend(waIdInput: string, msg: CustomerMessage, opts: CustomerSendOptions = {}): Promise<{ id: string; webhook: WebhookRecord }> {
    const waId = digits(waIdInput);
    if (!/^\d{7,15}$/.test(waId)) throw new Error(`not a phone number: ${waIdInput}`);
    const account = opts.phoneNumberId ? this.accounts.get(opts.phoneNumberId) : this.accounts.get(sandboxAccount.phoneNumberId);
    if (!account) throw new Error(`unknown phone number id ${opts.phoneNumberId}`);
    if (opts.name) this.names.set(waId, opts.name);
    const name = this.names.get(waId) ?? `Customer ${waId.slice(-4)}`;
    const id = wamid();
    const message: Obj = { from: waId, id, timestamp: String(Math.floor(this.now() / 1000)), ...this.customerContent(account, waId, msg) };
    this.windows.set(this.windowKey(account.phoneNumberId, waId), this.now());
    this.save();
    this.received.push({ id, phoneNumberId: account.phoneNumberId, waId, type: String(message.type), message, at: new Date(this.now()) });
    const webhook = this.webhooks.push(account.wabaAccountId, 'messages', {
      ...this.metadata(account),
      contacts: [{ profile: { name }, wa_id: waId }],
      messages: [message],
    });
    this.track(webhook);
    return { id, webhook: await webhook };
  }

  /** The last outbound message to this customer matching `pred` (what a reply refers to). */
  private lastSent(account: SandboxAccount, waId: string, pred: (m: SentMessage) => boolean): SentMessage | undefined {
    return this.sent.filter((m) => m.phoneNumberId === account.phoneNumberId && m.waId === waId && pred(m)).at(-1);
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
        const m = this.storeMedia(account.phoneNumberId, Buffer.from(msg.data ?? samplePng), msg.mimeType ?? 'image/png');
        return { type: 'image', image: { id: m.id, mime_type: m.mimeType, sha256: m.sha256, ...(msg.caption ? { caption: msg.caption } : {}) } };
      }
      case 'document': {
        const fileName = msg.fileName ?? 'document.pdf';
        const m = this.storeMedia(account.phoneNumberId, Buffer.from(msg.data ?? samplePdf()), msg.mimeType ?? 'application/pdf', fileName);
        return {
          type: 'document',
          document: { id: m.id, mime_type: m.mimeType, sha256: m.sha256, filename: fileName, ...(msg.caption ? { caption: msg.caption } : {}) },
        };
      }
      default:
        throw new Error(`unsupported customer message type ${(msg as { type: string }).type}`);
    }
  }

  // ---------- lifecycle ----------

  private track<T>(p: Promise<T>): void {
    const wrapped = p.catch((err) => this.log(`background task failed: ${(err as Error).message}`));
    this.pending.add(wrapped);
    void wrapped.finally(() => this.pending.delete(wrapped));
  }

  private wait(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      this.timers.set(t, resolve);
    });
  }

  /** Resolves once every scheduled status, review and webhook has run. */
  async settle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
    await this.webhooks.idle();
  }

  close(): void {
    this.closed = true;
    // Wake the sleeping tasks so they see `closed` and end, instead of firing after the server is gone.
    for (const [t, wake] of this.timers) {
      clearTimeout(t);
      wake();
    }
    this.timers.clear();
    this.webhooks.close();
  }
}
