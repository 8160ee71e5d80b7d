/**
 * Signed webhook delivery, one at a time, in the order the events happened (Meta does not promise order,
 * but a predictable sandbox makes the product's own ordering bugs reproducible; tests can still shuffle).
 */
import { createHmac } from 'node:crypto';

export type DeliverFn = (rawBody: string, headers: Record<string, string>) => Promise<number>;

export interface WebhookRecord {
  seq: number;
  /** The `field` of the change: messages, message_template_status_update, ... */
  field: string;
  body: object;
  rawBody: string;
  signature: string;
  /** Delivery outcome: HTTP status of the last attempt, 0 for a network error, undefined if not attempted. */
  status?: number;
  attempts: number;
  delivered: boolean;
}

export function sign(rawBody: string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody, 'utf8').digest('hex')}`;
}

/** Meta's envelope (reference §3): one entry per WABA, one change per event. */
export function envelope(wabaId: string, field: string, value: object): object {
  return { object: 'whatsapp_business_account', entry: [{ id: wabaId, changes: [{ value, field }] }] };
}

export interface WebhookQueueOptions {
  appSecret: string;
  webhookUrl?: string;
  deliver?: DeliverFn;
  /** Attempts per webhook (first try included). */
  attempts: number;
  retryDelayMs: number;
  log: (line: string) => void;
}

export class WebhookQueue {
  readonly records: WebhookRecord[] = [];
  private tail: Promise<void> = Promise.resolve();
  private seq = 0;
  private closed = false;

  constructor(private readonly opts: WebhookQueueOptions) {}

  get webhookUrl(): string | undefined {
    return this.opts.webhookUrl;
  }

  setWebhookUrl(url: string | undefined): void {
    this.opts.webhookUrl = url;
  }

  /** Queues one webhook; the promise settles once it was delivered or gave up (never rejects). */
  push(wabaId: string, field: string, value: object): Promise<WebhookRecord> {
    const body = envelope(wabaId, field, value);
    const rawBody = JSON.stringify(body);
    const record: WebhookRecord = {
      seq: ++this.seq,
      field,
      body,
      rawBody,
      signature: sign(rawBody, this.opts.appSecret),
      attempts: 0,
      delivered: false,
    };
    this.records.push(record);
    const done = this.tail.then(() => this.deliver(record));
    this.tail = done;
    return done.then(() => record);
  }

  /** Resolves once every queued webhook was delivered or given up on. */
  async idle(): Promise<void> {
    let tail: Promise<void>;
    do {
      tail = this.tail;
      await tail;
    } while (tail !== this.tail);
  }

  close(): void {
    this.closed = true;
    // Cut short a retry wait so nothing is posted after the sandbox stopped.
    this.wake?.();
  }

  private wake: (() => void) | undefined;

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        this.wake = undefined;
        resolve();
      };
      const t = setTimeout(done, ms);
      this.wake = done;
    });
  }

  private async deliver(record: WebhookRecord): Promise<void> {
    const { deliver, webhookUrl } = this.opts;
    if (!deliver && !webhookUrl) {
      this.opts.log(`webhook #${record.seq} (${record.field}) not delivered: no webhook URL configured`);
      return;
    }
    const headers = {
      'content-type': 'application/json',
      'x-hub-signature-256': record.signature,
      'user-agent': 'parley-sandbox (facebookexternalua)',
    };
    for (let attempt = 1; attempt <= this.opts.attempts && !this.closed; attempt++) {
      record.attempts = attempt;
      try {
        record.status = deliver ? await deliver(record.rawBody, headers) : await post(webhookUrl!, record.rawBody, headers);
      } catch (err) {
        record.status = 0;
        this.opts.log(`webhook #${record.seq} attempt ${attempt} failed: ${(err as Error).message}`);
      }
      if (record.status !== undefined && record.status >= 200 && record.status < 300) {
        record.delivered = true;
        return;
      }
      if (attempt < this.opts.attempts && !this.closed) await this.pause(this.opts.retryDelayMs * 2 ** (attempt - 1));
    }
    this.opts.log(`webhook #${record.seq} (${record.field}) given up after ${record.attempts} attempts (last status ${record.status})`);
  }
}

async function post(url: string, rawBody: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(url, { method: 'POST', body: rawBody, headers, signal: AbortSignal.timeout(10_000) });
  await res.arrayBuffer().catch(() => undefined);
  return res.status;
}

