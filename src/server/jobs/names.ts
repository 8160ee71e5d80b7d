/**
 * The shape of a durable job: its name, the zod schema of its payload and its options. Each part of the server
 * declares its own jobs (e.g. src/server/whatsapp/jobs.ts) with `defineJob` and adds them to `JobRegistry` by
 * module augmentation, so `jobs.send` is typed by every job of the product while this layer imports none of
 * them. The composition root assembles the definitions (src/server/app/jobs.ts) and registers each job's
 * handler by name; the app refuses to start while a listed name has no handler. `jobs.send` validates the
 * payload before queuing; the worker validates it again before the handler runs (a job queued by an older build
 * may not match any more).
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
import type { z } from 'zod';

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

/** A map from job name to its definition (the product's are assembled in src/server/app/jobs.ts; tests add their own). */
export type JobMap = Record<string, JobDefinition>;

/** A job's definition: its payload's schema and its options. */
export const defineJob = <S extends z.ZodType>(payload: S, options: JobOptions = {}): JobDefinition<S> => ({ payload, ...options });

/**
 * Every job of the product, by name. Empty here: each owner adds its jobs, e.g.
 * `declare module '../jobs/names' { interface JobRegistry { 'whatsapp.webhook': typeof whatsappJobs['whatsapp.webhook'] } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface JobRegistry {}

export type ProductJobs = { [N in keyof JobRegistry]: JobRegistry[N] };
export type JobName<M extends JobMap = ProductJobs> = Extract<keyof M, string>;
/** What `send` takes for a job. */
export type JobInput<N extends JobName<M>, M extends JobMap = ProductJobs> = z.input<M[N]['payload']>;
/** What the handler receives. */
export type JobData<N extends JobName<M>, M extends JobMap = ProductJobs> = z.output<M[N]['payload']>;
