/**
 * The app's metrics: request durations by route, the readers of state run at each scrape (job queue, campaign
 * recipients, event streams, the database pool), and /metrics behind METRICS_TOKEN (Bearer). Without the token
 * configured there is no /metrics at all (404, as any unknown path). docs/operations.md lists every metric.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { JobQueue } from '../jobs/queue';
import type { Realtime } from '../realtime/stream';
import { campaignTotals, sendOutcomes } from '../repositories/campaign-totals';
import { type Metrics, statusClass } from '../metrics/metrics';
import { haltingCodes } from '../messaging/send-outcomes';
import { haltScope } from '../campaigns/halts';

/** Every answer's duration by route pattern (never the raw URL), method and status class. */
export function installRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpRequestSeconds.observe({ route, method: request.method, status_class: statusClass(reply.statusCode) }, reply.elapsedTime / 1000);
  });
}

interface ScrapeParts {
  database: Database;
  jobs: Pick<JobQueue, 'backlog'>;
  realtime: Pick<Realtime, 'openStreams'>;
}

/** The gauges read at each scrape: one query for the job queue, one for campaign recipients and sends, the rest from memory. */
function readStateAtScrape(metrics: Metrics, { database, jobs, realtime }: ScrapeParts): void {
  metrics.onScrape(async () => {
    const backlog = await jobs.backlog();
    metrics.jobQueueDepth.reset();
    metrics.jobQueueOldestSeconds.reset();
    for (const b of backlog) {
      metrics.jobQueueDepth.set({ job: b.name }, b.waiting);
      metrics.jobQueueOldestSeconds.set({ job: b.name }, b.oldestSeconds);
    }
  });
  metrics.onScrape(async () => {
    const totals = await campaignTotals(database.db);
    metrics.campaignRecipients.set({ state: 'pending' }, totals.recipients.pending);
    metrics.campaignRecipients.set({ state: 'finished' }, totals.recipients.finished);
    for (const outcome of sendOutcomes) metrics.campaignSends.set({ outcome }, totals.sends[outcome]);
  });
  metrics.onScrape(() => {
    metrics.streamClients.set(realtime.openStreams);
    const pool = database.pool();
    metrics.dbPoolTotal.set(pool.total);
    metrics.dbPoolIdle.set(pool.idle);
    metrics.dbPoolWaiting.set(pool.waiting);
  });
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The series the alerts watch start at 0: Prometheus's increase() sees no rise in a series whose first sample is
 * already 1, so the first 131048 or halt would otherwise go unalerted.
 */
function zeroAlertedSeries(metrics: Metrics): void {
  for (const code of haltingCodes) {
    metrics.graphErrors.inc({ code: String(code) }, 0);
    metrics.campaignHalts.inc({ code: String(code), scope: haltScope(code) }, 0);
  }
}

/** GET /metrics (Prometheus text format) for a caller with `Authorization: Bearer <METRICS_TOKEN>`. */
export function registerMetricsRoute(app: FastifyInstance, config: Config, metrics: Metrics, parts: ScrapeParts): void {
  readStateAtScrape(metrics, parts);
  zeroAlertedSeries(metrics);
  const token = config.metricsToken;
  if (!token) return;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!given || !sameToken(given, token)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send({ statusCode: 401, message: 'A valid metrics token is required', error: 'Unauthorized' });
    }
    const { contentType, text } = await metrics.scrape((err) => request.log.warn({ err }, 'a metric could not be read; its last value is served'));
    return reply.header('cache-control', 'no-store').type(contentType).send(text);
  });
}
