/**
 * Every durable job this server runs. The app refuses to start while a name listed here has no handler
 * (`deps.jobs.register(name, handler)`), so add a name in the same change as its handler.
 *
 * Per-job options override the defaults of the configuration (`config.jobs`):
 * - retryLimit: how many times a failed run is retried (at-least-once: a handler may also run again after a
 *   crash, so every handler must be idempotent — e.g. skip a webhook message whose wamid is already stored).
 * - expireInSeconds: a run that has not finished by then counts as failed and is retried.
 * - concurrency: how many jobs (or batches) of this name one server process runs at once.
 * - batchSize: a worker fetches up to this many jobs at once and hands them to one batch handler
 *   (`deps.jobs.registerBatch`), which can store them in one transaction.
 */
export interface JobDefinition {
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  expireInSeconds?: number;
  concurrency?: number;
  batchSize?: number;
}

/** E.g. `'whatsapp.webhook': { retryLimit: 8, concurrency: 4 }`, `'contacts.import': { expireInSeconds: 3600 }`. */
export const jobDefinitions: Record<string, JobDefinition> = {
  /**
   * One verified WhatsApp webhook delivery (src/server/whatsapp/ingest.ts); idempotent by wamid. Taken in
   * batches: a burst of deliveries is stored a batch per transaction.
   */
  'whatsapp.webhook': { retryLimit: 8, concurrency: 2, batchSize: 100 },
  /** Read receipt for a conversation an agent answered (src/server/whatsapp/channel.ts); repeating it is harmless. */
  'whatsapp.mark-read': { retryLimit: 3, retryDelaySeconds: 5, concurrency: 2 },
  /** Daily pruning of the workspace event log (src/server/realtime/retention.ts); reschedules itself. */
  'events.prune': { retryLimit: 3 },
  /** One contact import (src/server/imports); resumes after the rows already committed. */
  'contacts.import': { retryLimit: 3, retryDelaySeconds: 2, expireInSeconds: 3600, concurrency: 1 },
};

export const jobNames = (): string[] => Object.keys(jobDefinitions);
