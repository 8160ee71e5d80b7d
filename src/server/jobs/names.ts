/**
 * Every durable job this server runs: its name, the zod schema of its payload and its options. `jobs.send` is
 * typed by this map and validates the payload before queuing; the worker validates it again before the handler
 * runs (a job queued by an older build may not match any more). Handlers are registered by name in one place,
 * src/server/jobs/handlers.ts, and the app refuses to start while a name listed here has no handler.
 *
 * Options override the defaults of the configuration (`config.jobs`):
 * - retryLimit: how many times a failed run is retried (at-least-once: a handler may also run again after a
 *   crash, so every handler must be idempotent — e.g. skip a webhook message whose wamid is already stored).
 * - expireInSeconds: a run that has not finished by then counts as failed and is retried.
 * - concurrency: how many jobs (or batches) of this name one server process runs at once.
 * - batchSize: a worker fetches up to this many jobs at once and hands them to one batch handler
 *   (`deps.jobs.registerBatch`), which can store them in one transaction.
 * - runInSenderSeconds: the process that queued the job runs it as soon as the job is committed, from memory
 *   (no poll, no fetch: a lone webhook is stored within milliseconds); workers of any process take it only
 *   after this many seconds, if the sender did not finish it (it crashed, or the run failed). Deliveries
 *   committed while a run is under way are taken together by the next run, so a burst is still batched.
 */
import { z } from 'zod';
import { OutboundRequest } from '../messaging/outbound-request';

export interface JobOptions {
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  expireInSeconds?: number;
  concurrency?: number;
  batchSize?: number;
  runInSenderSeconds?: number;
}

export interface JobDefinition<S extends z.ZodType = z.ZodType> extends JobOptions {
  /** The payload's schema: `send` takes its input type, the handler receives its output type. */
  payload: S;
}

/** A map from job name to its definition (the product's below; tests add their own). */
export type JobMap = Record<string, JobDefinition>;

const job = <S extends z.ZodType>(payload: S, options: JobOptions = {}): JobDefinition<S> => ({ payload, ...options });

const uuid = z.uuid();

export const jobDefinitions = {
  /**
   * One verified WhatsApp webhook delivery (src/server/whatsapp/ingest.ts); idempotent by wamid. Taken in
   * batches: a burst of deliveries is stored a batch per transaction.
   */
  'whatsapp.webhook': job(z.object({ payload: z.unknown(), receivedAt: z.number().optional() }), {
    retryLimit: 8,
    concurrency: 2,
    batchSize: 100,
    runInSenderSeconds: 30,
  }),
  /** Read receipt for a conversation an agent answered (src/server/whatsapp/channel.ts); repeating it is harmless. */
  'whatsapp.mark-read': job(z.object({ workspaceId: uuid, conversationId: uuid }), { retryLimit: 3, retryDelaySeconds: 5, concurrency: 2 }),
  /** Daily pruning of the workspace event log (src/server/realtime/retention.ts); reschedules itself. */
  'events.prune': job(z.object({}), { retryLimit: 3 }),
  /** One contact import (src/server/imports); resumes after the rows already committed. */
  'contacts.import': job(z.object({ importId: uuid, workspaceId: uuid }), {
    retryLimit: 3,
    retryDelaySeconds: 2,
    expireInSeconds: 3600,
    concurrency: 1,
  }),
  /**
   * One message through the outbound path (src/server/messaging/outbound.ts) on behalf of a bot, campaign or the
   * system; idempotent by its key: a retry never sends twice.
   */
  'messages.send': job(OutboundRequest, { retryLimit: 5, retryDelaySeconds: 2, retryBackoff: true, concurrency: 8 }),
  /**
   * Campaigns (issue 17): starts scheduled campaigns and resumes paused ones whose time has come. Queued for each
   * such time (startAfter); each run claims every due campaign once across processes (src/server/campaigns).
   */
  'campaigns.due': job(z.object({}), { retryLimit: 5, retryDelaySeconds: 2 }),
  // ---- bots (issue 18: src/server/bots/session-runtime.ts) ----
  /** A conversation's new inbound messages for its bot session (queued after the inbound batch commits). */
  'bots.turn': job(z.object({ workspaceId: uuid, conversationId: uuid, from: z.string(), upTo: z.string() }), {
    retryLimit: 5,
    retryDelaySeconds: 2,
    concurrency: 4,
    runInSenderSeconds: 20,
  }),
  /**
   * A conversation an agent handed to a bot from live chat (queued in the assignment's transaction, run at once by
   * the sender): starts a session at Start on the bot's published version; does nothing if the conversation has
   * moved on (assigned elsewhere, a session already running).
   */
  'bots.assigned': job(z.object({ workspaceId: uuid, conversationId: uuid, botId: uuid }), {
    retryLimit: 5,
    retryDelaySeconds: 2,
    concurrency: 4,
    runInSenderSeconds: 20,
  }),
  /** A session's no-answer timeout or expiry, due at its time; does nothing when the session moved on. */
  'bots.timeout': job(z.object({ workspaceId: uuid, sessionId: uuid, step: z.number().int(), kind: z.enum(['noAnswer', 'expire']) }), { retryLimit: 5 }),
  /** The durable path of a bot turn's sends, in order, each keyed (a send done already is not repeated). */
  'bots.deliver': job(z.object({ workspaceId: uuid, requests: z.array(OutboundRequest) }), {
    retryLimit: 5,
    retryDelaySeconds: 5,
    retryBackoff: true,
    concurrency: 8,
    runInSenderSeconds: 20,
  }),
  /** A SendEmail node's e-mail. */
  'bots.email': job(
    z.object({ workspaceId: uuid, to: z.array(z.string()), cc: z.array(z.string()), bcc: z.array(z.string()), subject: z.string(), text: z.string() }),
    { retryLimit: 3, retryDelaySeconds: 30 },
  ),
} satisfies JobMap;

export type ProductJobs = typeof jobDefinitions;
export type JobName<M extends JobMap = ProductJobs> = Extract<keyof M, string>;
/** What `send` takes for a job. */
export type JobInput<N extends JobName<M>, M extends JobMap = ProductJobs> = z.input<M[N]['payload']>;
/** What the handler receives. */
export type JobData<N extends JobName<M>, M extends JobMap = ProductJobs> = z.output<M[N]['payload']>;
