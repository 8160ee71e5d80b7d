/** Builds the Parley server (no listen): plugins, the route table, health checks, one error handler. */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { type Database, openDatabase } from './db/client';
import { type IdentityProvider, assertSafeIdentityConfig, firebaseIdentity } from './identity/identity-provider';
import { frameworkError, installErrorHandler } from './http/error-handler';
import { errorForLog, requestForLog } from './http/log-safety';
import { jsonNestsDeeperThan, tooDeepMessage } from './http/json-depth';
import { badRequest } from './errors';
import { registerRoutes } from './http/register';
import { buildHandlers } from './routes';
import { buildServices, type Services } from './services';
import { createMailer, type Mailer } from './services/mailer';
import { createJobQueue, type JobQueue } from './jobs/queue';
import multipart from '@fastify/multipart';
import helmet from '@fastify/helmet';
import { createFileStore } from './storage/file-store';
import { registerFileRoutes } from './routes/files';
import { registerWhatsappWebhook } from './whatsapp/webhook-route';
import type { JobMap } from './jobs/names';
import { registerJobHandlers } from './jobs/handlers';
import { createRealtime } from './realtime/stream';
import { createEventRetention } from './realtime/retention';

export interface AppOptions {
  config: Config;
  /** An already open database (tests share one); otherwise opened from the config and closed with the app. */
  database?: Database;
  identity?: IdentityProvider;
  mailer?: Mailer;
  /** pino options; false silences the log (tests). */
  logger?: boolean | object;
  /** Durable jobs: tests list extra jobs (defaults to src/server/jobs/names.ts) and shorten the stop wait. */
  jobs?: { definitions?: JobMap; stopTimeoutMs?: number };
}

declare module 'fastify' {
  interface FastifyInstance {
    parley: { db: Database; services: Services; mailer: Mailer; config: Config; jobs: JobQueue };
  }
}

/** Log fields that may carry secrets are never written. */
export const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-hub-signature-256"]',
  'headers.authorization',
  '*.password',
  '*.token',
  '*.idToken',
  '*.refreshToken',
  '*.secret',
];

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { config } = opts;
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: { paths: redactPaths, censor: '[redacted]' },
            serializers: { req: requestForLog, err: errorForLog },
            ...(typeof opts.logger === 'object' ? opts.logger : {}),
          },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: 5 * 1024 * 1024,
    return503OnClosing: true,
    frameworkErrors: frameworkError,
  });
  assertSafeIdentityConfig(config.firebaseProjectId, config.firebaseAuthEmulatorHost);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // Answers to a bearer token are the caller's own data: no shared or browser cache keeps them.
    if (request.headers.authorization && !reply.hasHeader('cache-control') && /json/.test(String(reply.getHeader('content-type')))) {
      reply.header('cache-control', 'no-store');
    }
  });
  // nosniff, frame options, referrer policy on every answer; HSTS only where the server is reached over https.
  // Files are shown by the app's own pages on other origins (web mode, the desktop app), so they stay
  // embeddable cross-origin; the API answers JSON only, and /docs needs its inline scripts, hence no global CSP
  // (stored files get their own sandboxing CSP in routes/files.ts).
  await app.register(helmet, {
    contentSecurityPolicy: false,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: config.publicUrl.startsWith('https://') ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });

  // CORS for the renderer (web mode on another port, the desktop app's file:// page sends Origin: null).
  // Calls carry a bearer token, never cookies, so a page of another origin gains nothing it could not do itself;
  // still, only the app's own origins are let in: loopback, APP_URL's origin, and the desktop app. The packaged
  // desktop app loads its page from file:// (src/main/window.ts), whose requests carry `Origin: null`: without
  // it the app cannot call the server. What `null` also lets in (sandboxed frames, other local files) holds no
  // token of ours, and no answer is readable without one (README, Security).
  const appOrigin = (() => {
    try {
      return new URL(config.appUrl).origin;
    } catch {
      return undefined;
    }
  })();
  // app://parley: the desktop app's page since it left file:// (src/main/app-protocol.ts); `null` stays for
  // installs of earlier versions until they have updated.
  const allowedOrigin = (origin: string) =>
    origin === 'app://parley' || origin === 'null' || origin === appOrigin || /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(origin);
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (!origin || !allowedOrigin(origin)) return;
    reply.header('access-control-allow-origin', origin);
    reply.header('vary', 'Origin');
    reply.header('access-control-expose-headers', 'x-request-id');
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
      reply
        .header('access-control-allow-methods', 'GET, POST, PATCH, PUT, DELETE')
        .header('access-control-allow-headers', 'authorization, content-type, x-request-id, last-event-id')
        .header('access-control-max-age', '600')
        .code(204)
        .send();
      return reply;
    }
  });

  // An empty JSON body (a DELETE sent with a JSON content type) counts as no body.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    if (jsonNestsDeeperThan(body as string)) return done(badRequest(tooDeepMessage), undefined);
    return defaultJson(req, body as string, done);
  });

  const database =
    opts.database ?? (await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'pgdata') }));
  if (!opts.database) await database.migrate();
  const jobs = createJobQueue({ database, config, log: app.log, ...opts.jobs });
  const realtime = createRealtime({ database, log: app.log, heartbeatMs: config.realtime.heartbeatMs, recheckMs: config.realtime.recheckMs });
  // Event streams never finish on their own: end them first, or closing would wait for them forever.
  app.addHook('preClose', async () => realtime.closeStreams());
  // One hook, in order: finish running jobs before the database they write to goes away.
  app.addHook('onClose', async () => {
    await jobs.stop();
    await realtime.stop();
    if (!opts.database) await database.close();
  });
  const identity = opts.identity ?? firebaseIdentity(config.firebaseProjectId, config.firebaseAuthEmulatorHost);
  if (!opts.identity) app.addHook('onClose', () => identity.close());
  const mailer = opts.mailer ?? createMailer(config.smtpUrl, app.log);
  const files = createFileStore({ dataDir: config.dataDir, publicUrl: config.publicUrl, secret: config.secretsKey });
  const services = buildServices({ config, db: database, identity, mailer, log: app.log, jobs, files, realtime });
  const retention = createEventRetention({ db: database, jobs, log: app.log, retentionDays: config.realtime.retentionDays ?? 30 });
  registerJobHandlers(jobs, services, retention);
  // Campaigns (issue 17): each process runs the claim loops; they stop before the jobs and the database.
  app.addHook('preClose', async () => services.campaignRunner.stop());
  app.decorate('parley', { db: database, services, mailer, config, jobs });

  await app.register(rateLimit, { global: false, max: 100, timeWindow: '1 minute' });
  // Uploads are read as streams by their handlers (src/server/services/uploads.ts), with per-route size limits.
  await app.register(multipart, { limits: { fileSize: 200 * 1024 * 1024, files: 1 } });
  const tokenFailureLimit = app.createRateLimit({ max: config.rateLimits.tokenFailuresPerMinute, timeWindow: '1 minute' });

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Parley API',
        version: '1',
        description: 'The REST contract of Parley, generated from the shared route table. Send a Firebase ID token as a Bearer token.',
      },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'Firebase ID token' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  // projectId: the desktop app checks it is a Parley server of its own Firebase project before it sends tokens.
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok', projectId: config.firebaseProjectId }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    try {
      await database.ping();
      if (!(await database.migrationsApplied())) return reply.code(503).send({ status: 'migrations pending' });
      return { status: 'ready', database: database.kind };
    } catch {
      return reply.code(503).send({ status: 'database unreachable' });
    }
  });

  const accessDeps = {
    db: database,
    identity,
    onTokenFailure: async (request: FastifyRequest) => {
      const r = await tokenFailureLimit(request);
      return !r.isAllowed && r.isExceeded;
    },
  };
  registerRoutes(app, buildHandlers(services), accessDeps, config.rateLimits);
  registerFileRoutes(app, files, accessDeps);
  // Meta's callback URL for every connected number (outside the REST table: Meta calls it, not a member).
  await registerWhatsappWebhook(app, {
    verifyToken: config.whatsappVerifyToken,
    appSecret: config.whatsappAppSecret,
    enqueue: (payload) => services.channel.enqueueWebhook(payload),
    onVerified: () => services.webhookSetup.verified(),
  });
  // Job workers start once everything is registered; a listed job without a handler makes ready() fail.
  app.addHook('onReady', async () => {
    await jobs.start();
    void retention.schedule();
    services.campaignRunner.start();
  });
  return app;
}
