/**
 * The inbound path after verification (http/whatsapp-webhook.ts queues each signed delivery as a
 * `whatsapp.webhook` job): a batch of deliveries is read once, and the changes of each webhook field go to that
 * field's handler, which takes them all at once. The messages field has handlers of its own, one phase per step
 * of its batch (the engines' hooks: campaigns, bots, routing).
 *
 * Handlers are registered at the composition root (src/server/app/inbound.ts); this folder never imports an
 * engine. A new webhook field is one FieldHandler module and one registration line there.
 *
 * Every step is idempotent (a delivery seen twice is stored once, statuses never move backwards), so a retried
 * job or a re-sent delivery changes nothing the second time.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Database, Executor } from '../db/client';
import * as ch from '../repositories/channel';
import type { StoredItem } from './inbound-batch';
import { type StatusPricing, WebhookPayload } from './webhook-payload';

/** One webhook delivery as queued: the verified payload, when it arrived, how many times it waited for a send. */
export interface WebhookDelivery {
  payload: unknown;
  receivedAt?: number;
  waits?: number;
}

/**
 * A delivery about something not stored yet (a status that overtook its send): queued again to run after
 * `afterSeconds`, instead of being retried as a failure on the job's retry delay.
 */
export class DeliveryWaits extends Error {
  constructor(
    message: string,
    readonly afterSeconds: number,
  ) {
    super(message);
  }
}

/** One change of a delivery (`entry[].changes[]`), for the handler of its field. */
export interface FieldChange {
  /** The delivery's position in the batch: handlers answer the deliveries to retry by it. */
  index: number;
  /** `entry.id`: the WhatsApp Business Account the change is about. */
  wabaId: string;
  /** `entry.time`, when Meta says the change happened. */
  at: Date | undefined;
  value: unknown;
  /** When the delivery reached Parley (epoch ms). */
  receivedAt: number;
  /** How many times the delivery was put back to wait for a send it reports on (a status that overtook it). */
  waits: number;
}

/** The deliveries to retry, by index, with the error to retry each with. */
export type Retries = Map<number, unknown>;

/** Handles one webhook field: the changes of a whole batch of deliveries, in delivery order. */
export interface FieldHandler {
  field: string;
  handle(changes: FieldChange[]): Promise<Retries>;
}

/** A workspace's inbound messages of one batch, once committed. */
export interface StoredInbound {
  /** The messages this run stored, each with its contact. */
  items: StoredItem[];
  /** The wamids this run stored (a message stored meanwhile by another delivery is not among them). */
  stored: Set<string>;
}

/** A delivery status applied to a workspace's message (sent, delivered, read or failed). */
export interface AppliedStatus {
  wamid: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  failure: { code: number | null; reason: string | null };
  /** The status's `pricing`, when it has one, and the status time (unix seconds). */
  pricing?: { value: StatusPricing; at: number };
  /** When Meta says it happened (the status's timestamp). */
  at: Date;
}

/** What another part of Parley does with the messages field's batches (campaigns, bots, routing). */
export interface InboundHandler {
  /**
   * After a workspace's inbound messages commit. Logged (warn, with the error and the workspace) as
   * `failureMessage` when it fails: its failure never fails the stored messages.
   */
  onMessagesStored?(workspaceId: string, batch: StoredInbound): Promise<unknown>;
  failureMessage: string;
  /**
   * Inside the transaction of a workspace's statuses, once they are applied (in wamid order, before their
   * events): what it writes commits with them, and its failure retries them.
   */
  onStatuses?(tx: Executor, workspaceId: string, statuses: AppliedStatus[]): Promise<unknown>;
}

/** A field handler's `handle` for changes handled one at a time: a change that throws retries its delivery. */
export function eachChange(handleOne: (change: FieldChange) => Promise<void>): FieldHandler['handle'] {
  return async (changes) => {
    const retry: Retries = new Map();
    for (const change of changes) {
      try {
        await handleOne(change);
      } catch (err) {
        retry.set(change.index, err);
      }
    }
    return retry;
  };
}

/** A change's value that names its business number (`metadata.phone_number_id`), as every field but templates' does. */
type NumberValue = { metadata: { phone_number_id: string } };

/**
 * A field handler's `handle` for changes about one business number each: the value is parsed with `schema` and
 * the number's account found by `phone_number_id`; a malformed value or an unknown number is logged and dropped
 * (`what` names the field in those lines). A change that throws retries its delivery.
 */
export function eachAccountChange<S extends z.ZodType<NumberValue>>(
  d: { db: Database; log: Pick<FastifyBaseLogger, 'warn'> },
  what: string,
  schema: S,
  handleOne: (account: ch.AccountRow, value: z.infer<S>, change: FieldChange) => Promise<void>,
): FieldHandler['handle'] {
  return eachChange(async (change) => {
    const parsed = schema.safeParse(change.value);
    if (!parsed.success) {
      d.log.warn({ issues: parsed.error.issues.slice(0, 5) }, `malformed ${what} dropped`);
      return;
    }
    const phoneNumberId = parsed.data.metadata.phone_number_id;
    const account = await ch.accountByPhoneNumberId(d.db.db, phoneNumberId);
    if (!account) {
      d.log.warn({ phoneNumberId }, `${what} for an unknown phone number id dropped`);
      return;
    }
    await handleOne(account, parsed.data, change);
  });
}

interface PipelineDeps {
  log: Pick<FastifyBaseLogger, 'warn' | 'debug'>;
  /**
   * Queues a delivery again to run after a delay (the `whatsapp.webhook` job with startAfter). Without it, a
   * delivery waiting for a send is retried as a failure, on the job's retry delay.
   */
  requeue?: (delivery: Required<WebhookDelivery>, afterSeconds: number) => Promise<unknown>;
}

/** The changes of a batch of deliveries by field, in delivery order; what no handler takes is logged. */
function changesByField(d: PipelineDeps, fields: Set<string>, deliveries: WebhookDelivery[]): Map<string, FieldChange[]> {
  const byField = new Map<string, FieldChange[]>();
  for (const [index, delivery] of deliveries.entries()) {
    const parsed = WebhookPayload.safeParse(delivery.payload);
    if (!parsed.success) {
      d.log.warn('webhook delivery that is not a WhatsApp Business payload dropped');
      continue;
    }
    const receivedAt = delivery.receivedAt ?? Date.now();
    for (const entry of parsed.data.entry) {
      const at = entry.time ? new Date(entry.time * 1000) : undefined;
      for (const change of entry.changes) {
        if (!fields.has(change.field)) {
          d.log.debug({ field: change.field }, 'webhook field not used by Parley');
          continue;
        }
        const list = byField.get(change.field) ?? [];
        list.push({ index, wabaId: entry.id, at, value: change.value, receivedAt, waits: delivery.waits ?? 0 });
        byField.set(change.field, list);
      }
    }
  }
  return byField;
}

/** Runs the registered field handlers, in registration order, over every batch of webhook deliveries. */
export function createInboundPipeline(d: PipelineDeps, handlers: FieldHandler[]) {
  const fields = new Set(handlers.map((h) => h.field));
  if (fields.size !== handlers.length) throw new Error('two inbound handlers are registered for the same webhook field');

  /**
   * Webhook deliveries, already verified by their signatures, handled together. Answers the deliveries to
   * retry, by index (a later handler's error replaces an earlier one's). Everything else is stored; a retry
   * re-runs the whole delivery, which skips what is stored already.
   */
  async function processDeliveries(deliveries: WebhookDelivery[]): Promise<Retries> {
    const byField = changesByField(d, fields, deliveries);
    const retry: Retries = new Map();
    for (const handler of handlers) {
      const changes = byField.get(handler.field);
      if (!changes) continue;
      for (const [index, err] of await handler.handle(changes)) retry.set(index, err);
    }
    return retry;
  }

  return {
    processDeliveries,
    /** One delivery; throws when it should be retried (see processDeliveries). */
    async processWebhook(payload: unknown, receivedAt = Date.now(), waits = 0): Promise<void> {
      const retry = await processDeliveries([{ payload, receivedAt, waits }]);
      if (retry.size > 0) throw retry.get(0);
    },
    /**
     * The `whatsapp.webhook` batch job: a burst of deliveries is stored a batch per transaction; answers the jobs
     * that must be retried (job id -> error), the others count as done. A delivery that waits (DeliveryWaits) is
     * queued again after its wait and counts as done.
     */
    async processWebhookBatch(
      jobs: { data: { payload: unknown; receivedAt?: number; waits?: number }; job: { id: string } }[],
    ): Promise<Map<string, unknown>> {
      const deliveries = jobs.map(({ data }) => ({ payload: data.payload, receivedAt: data.receivedAt ?? Date.now(), waits: data.waits ?? 0 }));
      const retry = await processDeliveries(deliveries);
      const failed = new Map<string, unknown>();
      for (const [index, err] of retry) {
        const delivery = deliveries[index];
        if (err instanceof DeliveryWaits && d.requeue) {
          try {
            await d.requeue({ ...delivery, waits: delivery.waits + 1 }, err.afterSeconds);
            continue;
          } catch (requeueErr) {
            failed.set(jobs[index].job.id, requeueErr);
            continue;
          }
        }
        failed.set(jobs[index].job.id, err);
      }
      return failed;
    },
  };
}
export type InboundPipeline = ReturnType<typeof createInboundPipeline>;
