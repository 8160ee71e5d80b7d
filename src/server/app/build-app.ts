/**
 * The composition root: builds the Parley server (no listen). The only place that opens the database and the
 * job queue, builds the services, engines and inbound pipeline (services.ts, inbound.ts), registers the job
 * handlers (jobs.ts) and the routes, and ties their lifetimes together.
 */
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import multipart from '@fastify/multipart';
import type { Config } from '../config';
import { type Database, openDatabase } from '../db/client';
import { type IdentityProvider, assertSafeIdentityConfig, firebaseIdentity } from '../identity/identity-provider';
import { registerRoutes } from '../http/register';
import { registerWhatsappWebhook } from '../http/whatsapp-webhook';
import type { Services } from '../http/services';
import { buildHandlers } from '../routes';
import { createMailer, type Mailer } from '../services/mailer';
import { createJobQueue, type JobQueue } from '../jobs/queue';
import type { JobMap } from '../jobs/names';
import { type FileStore, createFileStore } from '../storage/file-store';
import { createS3FileStore } from '../storage/s3-file-store';
import { registerFileRoutes } from '../routes/files';
import { createRealtime } from '../realtime/stream';
import { createEventRetention } from '../realtime/retention';
import { createServer, installCors, installJsonBodies, installSecurityHeaders, registerDocs, registerHealthChecks } from './http-setup';
import { buildServices } from './services';
import { jobDefinitions, registerJobHandlers } from './jobs';
import { createMetrics, type Metrics } from '../metrics/metrics';
import { installRequestMetrics, registerMetricsRoute } from './metrics';

export interface AppOptions {
  config: Config;
  /** An already open database (tests share one); otherwise opened from the config and closed with the app. */
  database?: Database;
  identity?: IdentityProvider;
  mailer?: Mailer;
  /** pino options; false silences the log (tests). */
  logger?: boolean | object;
  /** Durable jobs: tests list extra jobs (defaults to the product's, app/jobs.ts) and shorten the stop wait. */
  jobs?: { definitions?: JobMap; stopTimeoutMs?: number };
  /**
   * What this process runs (docs/operations.md, "Several processes"): 'all' (the default); 'no-jobs' serves HTTP
   * and sends jobs but runs no job workers and no campaign claim loops; 'jobs-only' runs them and answers only
   * its health checks (and metrics) on HTTP.
   */
  mode?: ServerMode;
}

type ServerMode = 'all' | 'no-jobs' | 'jobs-only';

/** What a jobs-only process still answers: the load balancer's and the monitoring's checks. */
const jobsOnlyPaths = new Set(['/healthz', '/readyz', '/metrics']);

declare module 'fastify' {
  interface FastifyInstance {
    parley: { db: Database; services: Services; mailer: Mailer; config: Config; jobs: JobQueue; metrics: Metrics };
  }
}

/** The database (migrated when the app opens it), the job queue and the event streams, stopped in order. */
async function openRuntime(app: FastifyInstance, opts: AppOptions) {
  const { config } = opts;
  const database =
    opts.database ?? (await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'pgdata') }));
  if (!opts.database) await database.migrate();
  const jobs = createJobQueue({ database, config, log: app.log, definitions: jobDefinitions, work: opts.mode !== 'no-jobs', ...opts.jobs });
  const realtime = createRealtime({ database, log: app.log, heartbeatMs: config.realtime.heartbeatMs, recheckMs: config.realtime.recheckMs });
  // Event streams never finish on their own: end them first, or closing would wait for them forever.
  app.addHook('preClose', async () => realtime.closeStreams());
  // One hook, in order: finish running jobs before the database they write to goes away.
  app.addHook('onClose', async () => {
    await jobs.stop();
    await realtime.stop();
    if (!opts.database) await database.close();
  });
  return { database, jobs, realtime };
}

/** Files in the S3 bucket when one is configured (S3_BUCKET), else on disk under PARLEY_DATA_DIR/files. */
async function openFileStore(app: FastifyInstance, config: Config) {
  if (!config.s3) return createFileStore({ dataDir: config.dataDir, publicUrl: config.publicUrl, secret: config.secretsKey });
  const s3 = await createS3FileStore({ s3: config.s3, publicUrl: config.publicUrl, secret: config.secretsKey });
  app.addHook('onClose', async () => s3.close());
  return s3.store;
}

/** The services and engines with what they use, and the job handlers. */
function buildParley(app: FastifyInstance, opts: AppOptions, runtime: Awaited<ReturnType<typeof openRuntime>>, files: FileStore, metrics: Metrics) {
  const { config } = opts;
  const { database, jobs, realtime } = runtime;
  const identity = opts.identity ?? firebaseIdentity(config.firebaseProjectId, config.firebaseAuthEmulatorHost);
  if (!opts.identity) app.addHook('onClose', () => identity.close());
  const mailer = opts.mailer ?? createMailer(config.smtpUrl, app.log, config.smtpFrom);
  const services = buildServices({ config, db: database, identity, mailer, log: app.log, jobs, files, realtime, metrics });
  const retention = createEventRetention({ db: database, jobs, log: app.log, retentionDays: config.realtime.retentionDays ?? 30 });
  registerJobHandlers(jobs, services, retention);
  // Each process runs the campaigns' claim loops; they stop before the jobs and the database.
  app.addHook('preClose', async () => services.campaignRunner.stop());
  app.decorate('parley', { db: database, services, mailer, config, jobs, metrics });
  return { identity, services, retention };
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { config } = opts;
  const app = createServer(config, opts.logger);
  assertSafeIdentityConfig(config.firebaseProjectId, config.firebaseAuthEmulatorHost);
  await installSecurityHeaders(app, config);
  installCors(app, config);
  installJsonBodies(app);
  // One registry per app (tests build many in one process), handed to the parts that count.
  const metrics = createMetrics();
  installRequestMetrics(app, metrics);
  // Opened before the runtime: onClose hooks run last-registered first, so the bucket's client closes after the jobs.
  const files = await openFileStore(app, config);
  if (opts.mode === 'jobs-only') {
    app.addHook('onRequest', async (request, reply) => {
      if (!jobsOnlyPaths.has(request.url.split('?')[0])) return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: 'This process runs jobs only' });
    });
  }
  const runtime = await openRuntime(app, opts);
  const { identity, services, retention } = buildParley(app, opts, runtime, files, metrics);

  await app.register(rateLimit, { global: false, max: 100, timeWindow: '1 minute' });
  // Uploads are read as streams by their handlers (src/server/routes/files.ts), with per-route size limits.
  await app.register(multipart, { limits: { fileSize: 200 * 1024 * 1024, files: 1 } });
  const tokenFailureLimit = app.createRateLimit({ max: config.rateLimits.tokenFailuresPerMinute, timeWindow: '1 minute' });
  await registerDocs(app);
  registerHealthChecks(app, config, runtime.database, { jobs: runtime.jobs, stream: runtime.realtime.hub });
  registerMetricsRoute(app, config, metrics, runtime);

  const accessDeps = {
    db: runtime.database,
    identity,
    onTokenFailure: async (request: FastifyRequest) => {
      const r = await tokenFailureLimit(request);
      return !r.isAllowed && r.isExceeded;
    },
  };
  registerRoutes(app, buildHandlers(services, config.rateLimits), accessDeps, config.rateLimits);
  registerFileRoutes(app, files, accessDeps);
  // Meta's callback URL for every connected number (outside the REST table: Meta calls it, not a member).
  await registerWhatsappWebhook(app, {
    verifyToken: config.whatsappVerifyToken,
    appSecret: config.whatsappAppSecret,
    enqueue: (payload) => services.channel.enqueueWebhook(payload),
    onVerified: () => services.webhookSetup.verified(),
    metrics,
  });
  // Job workers start once everything is registered; a listed job without a handler makes ready() fail.
  app.addHook('onReady', async () => {
    await runtime.jobs.start();
    void retention.schedule();
    if (opts.mode !== 'no-jobs') services.campaignRunner.start();
  });
  return app;
}
