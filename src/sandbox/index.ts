/**
 * Parley's WhatsApp sandbox: a local stand-in for Meta's Graph API (the product talks to it over HTTP at
 * GRAPH_API_URL exactly as it would to graph.facebook.com) plus simulated customers who send signed webhooks.
 * Imports nothing from src/server (lint-enforced), so it behaves as an outside party.
 */
import type { AddressInfo } from 'node:net';
import { type SandboxAccount, sandboxAccount } from './account';
import {
  type CustomerMessage,
  type CustomerSendOptions,
  type InjectedFailure,
  type NumberHealthChange,
  type NumberHealthState,
  type RefusedShare,
  type DeliveryCounts,
  type ReceivedMessage,
  SandboxCore,
  type SandboxFlow,
  type SandboxMedia,
  type SandboxOptions,
  type SandboxTemplate,
  type SentMessage,
  type TemplateStatus,
} from './core';
import { buildSandboxServer } from './server';
import { SANDBOX_GRAPH_VERSION } from './control';
import type { WebhookRecord } from './webhooks';
import type { SandboxCustomer } from './identities';
export type { SandboxCustomer } from './identities';

export { sandboxAccount, type SandboxAccount } from './account';
export type {
  CustomerMessage,
  CustomerSendOptions,
  InjectedFailure,
  NumberHealthChange,
  NumberHealthState,
  RefusedShare,
  DeliveryCounts,
  ReceivedMessage,
  SandboxFlow,
  SandboxMedia,
  SandboxOptions,
  SandboxTemplate,
  SentMessage,
  TemplateStatus,
  WebhookRecord,
};

export { SANDBOX_GRAPH_VERSION };
/** Port `npm run sandbox` and `npm start` try first, so the CLI finds them without flags. */
export const DEFAULT_SANDBOX_PORT = 4010;

export interface StartSandboxOptions extends SandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Loopback only by default. */
  host?: string;
}

export interface SandboxCustomers {
  /** The customer `waId` (digits or E.164) sends a message; resolves once its webhook was delivered or given up. */
  send(waId: string, message: CustomerMessage, opts?: CustomerSendOptions): Promise<{ id: string; webhook: WebhookRecord }>;
  /** Shorthand for a text message. */
  say(waId: string, text: string, opts?: CustomerSendOptions): Promise<{ id: string; webhook: WebhookRecord }>;
  /** The customer last wrote at `at` (no webhook): restores what a restarted sandbox forgot. */
  restoreWindow(waId: string, at: Date, phoneNumberId?: string): void;
  /** Whether the customer's 24-hour window with that number is open. */
  windowOpen(waId: string, phoneNumberId?: string): boolean;
  /** The customer's user id, username and whether Meta withholds their phone (2026). */
  identity(waId: string): SandboxCustomer;
  /** The customer's user id changes: `user_changed_user_id` system message and `user_id_update` follow. */
  changeUserId(waId: string, phoneNumberId?: string): Promise<{ previous: string; current: string; webhooks: WebhookRecord[] }>;
  /** The customer stops or resumes marketing messages (`user_preferences`); stopped, marketing sends fail with 131050. */
  setMarketingPreference(waId: string, value: 'stop' | 'resume', phoneNumberId?: string): Promise<void>;
  /** The customer is at WhatsApp's per-user marketing cap: marketing templates to them fail with 131049. */
  setMarketingCap(waId: string, capped: boolean): void;
  /** The business writes from the WhatsApp Business app on its phone: an `smb_message_echoes` webhook. */
  echo(waId: string, text: string, phoneNumberId?: string): Promise<{ id: string; webhook: WebhookRecord }>;
}

export interface Sandbox {
  /** e.g. http://127.0.0.1:PORT/v26.0: what GRAPH_API_URL should be. */
  baseUrl: string;
  /** http://127.0.0.1:PORT: control endpoints live under /_sandbox. */
  origin: string;
  account: SandboxAccount;
  customers: SandboxCustomers;
  /** Accepted outbound messages, oldest first. */
  readonly sent: readonly SentMessage[];
  /** Messages customers sent. */
  readonly received: readonly ReceivedMessage[];
  /** Typing indicators shown to customers. */
  readonly typingIndicators: readonly { phoneNumberId: string; waId: string; messageId: string; at: Date }[];
  readonly templates: readonly SandboxTemplate[];
  readonly flows: readonly SandboxFlow[];
  readonly media: ReadonlyMap<string, SandboxMedia>;
  /** Every webhook sent, with its delivery outcome. */
  readonly webhooks: readonly WebhookRecord[];
  setWebhookUrl(url: string | undefined): void;
  /** Another number with its own WABA, app and token (tests needing several workspaces). */
  addAccount(partial?: Partial<SandboxAccount>): SandboxAccount;
  addToken(token: string): void;
  expireToken(token: string): void;
  injectFailure(failure: InjectedFailure): void;
  /** A number's throughput tier (messages per second) from now on. */
  setThroughput(phoneNumberId: string, perSecond: number): void;
  /** Refuses a share (0..1) of the following sends with a Graph error code; share 0 stops. */
  refuseShare(refusal: RefusedShare): void;
  /** Messages per recipient and duplicates (the same message twice to one customer). */
  deliveries(phoneNumberId?: string): DeliveryCounts;
  interruptNextUpload(bytes: number): void;
  /** Moves the sandbox clock (24-hour windows, media URL expiry) forward. */
  advanceTime(ms: number): void;
  /** The business portfolio's messaging limit, shared by the numbers of that number's WABA (their webhooks follow). */
  setPortfolioLimit(phoneNumberId: string, tier: string): Promise<{ tier: string; numbers: string[] }>;
  /** Changes a number's health and sends Meta's phone_number_quality_update webhook; resolves once delivered. */
  setNumberHealth(phoneNumberId: string, change: NumberHealthChange): Promise<NumberHealthState>;
  /** A template made in WhatsApp Manager (at Meta, unknown to Parley until a sync), no webhook. */
  seedTemplate(phoneNumberId: string, t: { name: string; language?: string; category?: string; status?: TemplateStatus; components?: Record<string, unknown>[] }): SandboxTemplate;
  /** Changes a template's status now and sends its webhook. */
  setTemplateStatus(nameOrId: string, status: TemplateStatus, reason?: string): Promise<void>;
  /** The bytes of a resumable upload by its handle. */
  uploadedFile(handle: string): Buffer | undefined;
  /** Resolves once every scheduled status webhook, template review and delivery has run. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export async function startSandbox(opts: StartSandboxOptions): Promise<Sandbox> {
  const core = new SandboxCore(opts);
  let origin = '';
  const app = buildSandboxServer(core, () => origin);
  await app.listen({ port: opts.port ?? 0, host: opts.host ?? '127.0.0.1' });
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  origin = `http://${host}:${address.port}`;
  core.log(`sandbox Graph API on ${origin}/${SANDBOX_GRAPH_VERSION}`);

  return {
    baseUrl: `${origin}/${SANDBOX_GRAPH_VERSION}`,
    origin,
    account: sandboxAccount,
    customers: {
      send: (waId, message, o) => core.customers.customerSend(waId, message, o),
      say: (waId, text, o) => core.customers.customerSend(waId, { type: 'text', text }, o),
      restoreWindow: (waId, at, phoneNumberId = sandboxAccount.phoneNumberId) => core.messaging.restoreWindow(phoneNumberId, waId, at),
      windowOpen: (waId, phoneNumberId = sandboxAccount.phoneNumberId) => core.messaging.windowOpen(phoneNumberId, waId.replace(/\D/g, '')),
      identity: (waId) => core.state.identities.of(waId.replace(/\D/g, '')),
      changeUserId: (waId, phoneNumberId) => core.customers.changeUserId(waId, { phoneNumberId }),
      setMarketingPreference: (waId, value, phoneNumberId = sandboxAccount.phoneNumberId) => {
        const account = core.state.accounts.get(phoneNumberId);
        if (!account) throw new Error(`no number ${phoneNumberId}`);
        return core.messaging.setMarketingPreference(account, waId.replace(/\D/g, ''), value);
      },
      setMarketingCap: (waId, capped) => core.messaging.setMarketingCap(waId, capped),
      echo: (waId, text, phoneNumberId) => core.customers.businessAppSend(waId, text, { phoneNumberId }),
    },
    get sent() {
      return core.state.sent;
    },
    get received() {
      return core.state.received;
    },
    get typingIndicators() {
      return core.state.typingIndicators;
    },
    get templates() {
      return core.state.templates;
    },
    get flows() {
      return core.state.flows;
    },
    get media() {
      return core.state.media;
    },
    get webhooks() {
      return core.state.webhooks.records;
    },
    setWebhookUrl: (url) => core.state.webhooks.setWebhookUrl(url),
    addAccount: (partial) => core.addAccount(partial),
    addToken: (token) => core.state.addToken(token),
    expireToken: (token) => core.state.expireToken(token),
    injectFailure: (f) => core.messaging.injectFailure(f),
    setThroughput: (id, perSecond) => core.messaging.setThroughput(id, perSecond),
    refuseShare: (r) => core.messaging.refuseShare(r),
    deliveries: (id) => core.messaging.deliveries(id),
    interruptNextUpload: (bytes) => core.media.interruptNextUpload(bytes),
    advanceTime: (ms) => core.state.advanceTime(ms),
    async setTemplateStatus(nameOrId, status, reason) {
      const matches = core.state.templates.filter((t) => t.id === nameOrId || t.name === nameOrId);
      if (matches.length === 0) throw new Error(`no template ${nameOrId}`);
      for (const t of matches) await core.templates.setTemplateStatus(t, status, reason);
    },
    async setPortfolioLimit(phoneNumberId, tier) {
      const account = core.state.accounts.get(phoneNumberId);
      if (!account) throw new Error(`no number ${phoneNumberId}`);
      return core.health.portfolioLimit(account.wabaAccountId, tier, [...core.state.accounts.values()]);
    },
    async setNumberHealth(phoneNumberId, change) {
      const account = core.state.accounts.get(phoneNumberId);
      if (!account) throw new Error(`no number ${phoneNumberId}`);
      return core.health.change(account, change);
    },
    seedTemplate(phoneNumberId, t) {
      const account = core.state.accounts.get(phoneNumberId);
      if (!account) throw new Error(`no number ${phoneNumberId}`);
      return core.templates.seedTemplate(account, t);
    },
    uploadedFile: (handle) => core.media.uploadedFile(handle),
    settle: () => core.state.settle(),
    async close() {
      core.state.close();
      await app.close();
    },
  };
}
