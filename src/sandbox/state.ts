/**
 * What the sandbox remembers, and the plumbing every part shares: the records (accounts, templates, messages,
 * media, flows, 24-hour windows, customer names, upload handles), their optional state file, the bearer tokens,
 * the sandbox clock and the background tasks (status webhooks, template reviews) that settle() waits for.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SandboxAccount } from './account';
import { SandboxGraphError, unknownObject } from './graph-error';
import type { Obj } from './validate';
import { type DeliverFn, WebhookQueue } from './webhooks';
import { CustomerIdentities } from './identities';

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
  /** What the business addressed: the phone (`to`) or the user id (`recipient`). */
  to: string;
  /** Set when the business addressed the customer by user id (`recipient`, no `to`). */
  recipient?: string;
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

/** Graph object ids are 15-digit numbers; 15 digits keep them exact as JSON numbers too. */
export const graphId = () => `${randomInt(1, 10)}${String(randomInt(0, 1e7)).padStart(7, '0')}${String(randomInt(0, 1e7)).padStart(7, '0')}`;
export const wamid = () => `wamid.${randomBytes(24).toString('base64url')}`;
/** Stable 15-digit id derived from a seed: sample flows and templates keep their ids across restarts. */
export const stableId = (seed: string) => `1${BigInt(`0x${createHash('sha256').update(seed).digest('hex').slice(0, 15)}`).toString().slice(0, 14).padStart(14, '0')}`;

export class SandboxState {
  readonly accounts = new Map<string, SandboxAccount>();
  readonly templates: SandboxTemplate[] = [];
  readonly sent: SentMessage[] = [];
  readonly received: ReceivedMessage[] = [];
  /** Typing indicators shown to customers (`typing_indicator` with a read receipt), oldest first. */
  readonly typingIndicators: { phoneNumberId: string; waId: string; messageId: string; at: Date }[] = [];
  readonly media = new Map<string, SandboxMedia>();
  readonly flows: SandboxFlow[] = [];
  /** Upload handles a template header example may name. */
  readonly handles = new Set<string>();
  /** Last time each customer wrote to each number, by `phoneNumberId:waId` (see messaging.ts windowKey). */
  readonly windows = new Map<string, number>();
  /** Profile names customers gave, by waId. */
  readonly names = new Map<string, string>();
  /** Customers' user ids, usernames and hidden phones (identities.ts). */
  readonly identities = new CustomerIdentities();
  readonly webhooks: WebhookQueue;
  private readonly globalTokens: Set<string>;
  private readonly expiredTokens = new Set<string>();
  private readonly pending = new Set<Promise<unknown>>();
  private readonly timers = new Map<NodeJS.Timeout, () => void>();
  private clockOffset = 0;
  private isClosed = false;
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
  save(): void {
    if (!this.opts.stateFile || this.isClosed) return;
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

  // ---------- background tasks and lifecycle ----------

  get closed(): boolean {
    return this.isClosed;
  }

  track<T>(p: Promise<T>): void {
    const wrapped = p.catch((err) => this.log(`background task failed: ${(err as Error).message}`));
    this.pending.add(wrapped);
    void wrapped.finally(() => this.pending.delete(wrapped));
  }

  wait(ms: number): Promise<void> {
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
    this.isClosed = true;
    // Wake the sleeping tasks so they see `closed` and end, instead of firing after the server is gone.
    for (const [t, wake] of this.timers) {
      clearTimeout(t);
      wake();
    }
    this.timers.clear();
    this.webhooks.close();
  }
}
