/**
 * The server's Prometheus metrics (prom-client), served at /metrics (src/server/app/metrics.ts). One registry per
 * app, never prom-client's global one: tests build many apps in one process, and each must count alone. The
 * composition root creates it and hands it to the parts that count, through their deps.
 *
 * Labels stay few-valued: route patterns (never raw URLs), methods, status classes, business phone number ids,
 * outcomes, Meta's error codes, job names. Never a workspace, user, contact or message id.
 *
 * Gauges of state (job queue, campaign recipients, streams, the database pool) are read when scraped: `onScrape`
 * registers a reader, `scrape` runs them all and answers the text.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds: HTTP answers and bot turns (milliseconds to tens of seconds). */
const fastBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds: webhook lag and pacer waits (from instant to an hour behind). */
const slowBuckets = [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900, 3600];

/** A reader run at each scrape; what it throws is handed to `onError` and the other readers still run. */
type ScrapeReader = () => Promise<void> | void;

function instruments(registry: Registry) {
  const registers = [registry];
  return {
    httpRequestSeconds: new Histogram({
      name: 'parley_http_request_duration_seconds',
      help: 'HTTP answers by route pattern, method and status class (2xx, 4xx, ...); event streams are not counted.',
      labelNames: ['route', 'method', 'status_class'] as const,
      buckets: fastBuckets,
      registers,
    }),
    webhookAckSeconds: new Histogram({
      name: 'parley_webhook_ack_duration_seconds',
      help: "Time from a signed WhatsApp webhook's arrival to its 200 (the delivery durably queued).",
      buckets: fastBuckets,
      registers,
    }),
    webhookLagSeconds: new Histogram({
      name: 'parley_webhook_lag_seconds',
      help: "Time from Meta's timestamp of an inbound message or status to it being stored.",
      labelNames: ['kind'] as const,
      buckets: slowBuckets,
      registers,
    }),
    messages: new Counter({
      name: 'parley_messages_total',
      help: 'Messages in (webhooks) and out (sends), by business phone number id and outcome.',
      labelNames: ['direction', 'number', 'outcome'] as const,
      registers,
    }),
    graphErrors: new Counter({
      name: 'parley_graph_errors_total',
      help: "Failed Graph API attempts, by Meta's error code (network, or http_<status> without one).",
      labelNames: ['code'] as const,
      registers,
    }),
    pacerWaitSeconds: new Histogram({
      name: 'parley_pacer_wait_seconds',
      help: "Time a send waited for its number's slot (the pacer's token bucket).",
      buckets: [0, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
      registers,
    }),
    botTurnSeconds: new Histogram({
      name: 'parley_bot_turn_duration_seconds',
      help: "Bot turns and how long each took (its transaction), by what began it and whether it committed.",
      labelNames: ['trigger', 'outcome'] as const,
      buckets: fastBuckets,
      registers,
    }),
    campaignHalts: new Counter({
      name: 'parley_campaign_halts_total',
      help: "Campaigns halted by WhatsApp's account-level refusals, by Meta's code and scope (number or template).",
      labelNames: ['code', 'scope'] as const,
      registers,
    }),
    jobQueueDepth: new Gauge({
      name: 'parley_job_queue_depth',
      help: 'Jobs due and waiting for a worker, by job name.',
      labelNames: ['job'] as const,
      registers,
    }),
    jobQueueOldestSeconds: new Gauge({
      name: 'parley_job_queue_oldest_seconds',
      help: 'How long the oldest job due and waiting has waited, by job name (0 when none waits).',
      labelNames: ['job'] as const,
      registers,
    }),
    campaignRecipients: new Gauge({
      name: 'parley_campaign_recipients',
      help: 'Campaign recipients of every campaign, by state: pending (still to go) or finished.',
      labelNames: ['state'] as const,
      registers,
    }),
    campaignSends: new Gauge({
      name: 'parley_campaign_sends',
      help: 'Campaign sends of every campaign (one per recipient and send step), by outcome as the campaign results count them.',
      labelNames: ['outcome'] as const,
      registers,
    }),
    streamClients: new Gauge({ name: 'parley_stream_clients', help: 'Open event streams (SSE) of this process.', registers }),
    dbPoolTotal: new Gauge({ name: 'parley_db_pool_total', help: "Connections of the app's database pool (PGlite: 1).", registers }),
    dbPoolIdle: new Gauge({ name: 'parley_db_pool_idle', help: "Idle connections of the app's database pool (PGlite: 0).", registers }),
    dbPoolWaiting: new Gauge({ name: 'parley_db_pool_waiting', help: 'Queries waiting for a connection of the pool (PGlite: 0).', registers }),
  };
}

export function createMetrics() {
  const registry = new Registry();
  const readers: ScrapeReader[] = [];
  return {
    ...instruments(registry),
    /** Registers a reader of state, run at each scrape before the text is written. */
    onScrape(reader: ScrapeReader): void {
      readers.push(reader);
    },
    /** Runs the readers (a failing one is reported to onError, its gauges keep their last values) and answers the text. */
    async scrape(onError: (err: unknown) => void): Promise<{ contentType: string; text: string }> {
      const results = await Promise.allSettled(readers.map(async (read) => read()));
      for (const r of results) if (r.status === 'rejected') onError(r.reason);
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;

/** `2xx`, `4xx`, ... of an HTTP status. */
export const statusClass = (status: number): string => `${Math.floor(status / 100)}xx`;
