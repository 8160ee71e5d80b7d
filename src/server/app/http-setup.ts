/**
 * The HTTP server's own parts, before any route: Fastify with its logger, security headers, CORS for the app's
 * own origins, JSON bodies, the API reference and the health checks.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { badRequest } from '../errors';
import { frameworkError, installErrorHandler } from '../http/error-handler';
import { errorForLog, requestForLog } from '../http/log-safety';
import { jsonNestsDeeperThan, tooDeepMessage } from '../http/json-depth';

/** Log fields that may carry secrets are never written. */
const redactPaths = [
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

/** Fastify with the server's logger, request ids, zod schemas and one error handler. */
export function createServer(config: Config, logger: boolean | object | undefined): FastifyInstance {
  const app = Fastify({
    logger:
      logger === false
        ? false
        : {
            level: config.logLevel,
            redact: { paths: redactPaths, censor: '[redacted]' },
            serializers: { req: requestForLog, err: errorForLog },
            ...(typeof logger === 'object' ? logger : {}),
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
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  return app;
}

export async function installSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
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
}

/**
 * CORS for the renderer (web mode on another port, the desktop app's file:// page sends Origin: null).
 * Calls carry a bearer token, never cookies, so a page of another origin gains nothing it could not do itself;
 * still, only the app's own origins are let in: loopback, APP_URL's origin, and the desktop app. The packaged
 * desktop app loads its page from file:// (src/main/window.ts), whose requests carry `Origin: null`: without
 * it the app cannot call the server. What `null` also lets in (sandboxed frames, other local files) holds no
 * token of ours, and no answer is readable without one (README, Security).
 */
export function installCors(app: FastifyInstance, config: Config): void {
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
}

/** An empty JSON body (a DELETE sent with a JSON content type) counts as no body; deep nesting is refused. */
export function installJsonBodies(app: FastifyInstance): void {
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    if (jsonNestsDeeperThan(body as string)) return done(badRequest(tooDeepMessage), undefined);
    return defaultJson(req, body as string, done);
  });
}

/** The OpenAPI reference at /docs, generated from the shared route table. */
export async function registerDocs(app: FastifyInstance): Promise<void> {
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
}

/** What /readyz asks beyond the database: the job workers run, and the event stream's listener hears NOTIFYs. */
interface ReadinessParts {
  jobs: { running(): boolean };
  stream: { listening(): Promise<boolean> };
}

/** A check that does not answer within `ms` counts as failed (a readiness probe must answer). */
const within = (ms: number, check: Promise<boolean>) =>
  Promise.race([check, new Promise<boolean>((resolve) => setTimeout(resolve, ms, false).unref())]);

export function registerHealthChecks(app: FastifyInstance, config: Config, database: Database, parts: ReadinessParts): void {
  // projectId: the desktop app checks it is a Parley server of its own Firebase project before it sends tokens.
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok', projectId: config.firebaseProjectId }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    // Each failing part is named (`failing`), the first one in words (`status`).
    const failing: { part: string; status: string }[] = [];
    try {
      await database.ping();
      if (!(await database.migrationsApplied())) failing.push({ part: 'migrations', status: 'migrations pending' });
    } catch {
      failing.push({ part: 'database', status: 'database unreachable' });
    }
    if (!parts.jobs.running()) failing.push({ part: 'jobs', status: 'job workers not running' });
    if (!(await within(5000, parts.stream.listening()))) failing.push({ part: 'stream', status: 'event stream listener down' });
    if (failing.length === 0) return { status: 'ready', database: database.kind };
    return reply.code(503).send({ status: failing[0].status, failing: failing.map((f) => f.part) });
  });
}
