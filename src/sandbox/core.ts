/**
 * The sandbox's state and rules, independent of HTTP, assembled from its parts (server.ts maps Graph API
 * requests onto them):
 *   state.ts      records, state file, accounts and tokens, clock, background tasks
 *   messaging.ts  sends, 24-hour windows, throughput buckets, injected failures, status webhooks
 *   templates.ts  template creation, review, listing, deletion, send checks; the samples of a new WABA
 *   media.ts      media, download URLs, resumable uploads
 *   customers.ts  simulated customers writing to a business number
 *   health.ts     a number's quality rating, messaging-limit tier, throughput level and their webhook
 */
import { type SandboxAccount, sandboxAccount } from './account';
import { CustomerSimulator } from './customers';
import { NumberHealthBook } from './health';
import { MediaStore } from './media';
import { Messaging } from './messaging';
import { type SandboxOptions, SandboxState } from './state';
import { TemplateRegistry } from './templates';

export type { CustomerMessage, CustomerSendOptions } from './customers';
export type { NumberHealthChange, NumberHealthState } from './health';
export type { DeliveryCounts, InjectedFailure, RefusedShare } from './messaging';
export type { ReceivedMessage, SandboxFlow, SandboxMedia, SandboxOptions, SandboxTemplate, SentMessage, TemplateStatus } from './state';

export class SandboxCore {
  readonly state: SandboxState;
  readonly templates: TemplateRegistry;
  readonly messaging: Messaging;
  readonly media: MediaStore;
  readonly customers: CustomerSimulator;
  readonly health: NumberHealthBook;

  constructor(opts: SandboxOptions) {
    this.state = new SandboxState(opts);
    this.templates = new TemplateRegistry(this.state);
    this.messaging = new Messaging(this.state, this.templates);
    this.media = new MediaStore(this.state);
    this.customers = new CustomerSimulator(this.state, this.media);
    this.health = new NumberHealthBook(this.state);
    this.addAccount(sandboxAccount);
  }

  /** Registers another WhatsApp number (own WABA, app and token); a new WABA gets Meta's samples. */
  addAccount(partial: Partial<SandboxAccount> = {}): SandboxAccount {
    const account = this.state.addAccount(partial);
    if (!this.state.flows.some((f) => f.wabaId === account.wabaAccountId)) this.templates.seedWaba(account.wabaAccountId);
    return account;
  }

  log(line: string): void {
    this.state.log(line);
  }
}
