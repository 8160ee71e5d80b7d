import path from 'node:path';
import { z } from 'zod';
import { limits } from '../shared/limits';

/** Server configuration from the environment (names fixed by ARCHITECTURE section 1). */
const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z.string().optional(),
  PARLEY_DATA_DIR: z.string().default(path.resolve('.parley')),
  FIREBASE_PROJECT_ID: z.string().default('demo-parley'),
  FIREBASE_AUTH_EMULATOR_HOST: z.string().optional(),
  /** Without a trailing `/vX.Y` the version below is appended; with one (the older form) that version is used. */
  GRAPH_API_URL: z.string().default('https://graph.facebook.com'),
  /** The Graph API version Parley speaks: the newest Meta had released when this default was set. */
  GRAPH_API_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/, 'GRAPH_API_VERSION must look like v26.0')
    .optional(),
  WHATSAPP_APP_SECRET: z.string().optional(),
  WHATSAPP_VERIFY_TOKEN: z.string().optional(),
  SECRETS_KEY: z.string().optional(),
  SMTP_URL: z.string().optional(),
  /** Ours: the From address of e-mails (invitations; bots' e-mails when their workspace set none). */
  SMTP_FROM: z.string().min(3).default('Parley <no-reply@parley.local>'),
  PUBLIC_URL: z.string().optional(),
  /** Ours: where invitation links point (the app's web address). Defaults to PUBLIC_URL. */
  APP_URL: z.string().optional(),
  /** Ours: per-client limits (per minute) of sign-up, invitation look-ups and failed tokens. */
  RATE_LIMIT_SIGNUP: z.coerce.number().int().positive().default(30),
  RATE_LIMIT_INVITE: z.coerce.number().int().positive().default(60),
  RATE_LIMIT_TOKEN_FAILURES: z.coerce.number().int().positive().default(30),
  /** Ours: durable jobs (pg-boss). Polling finds jobs sent by other processes and due retries; 0.5 s at least. */
  JOBS_POLLING_INTERVAL_SECONDS: z.coerce.number().min(0.5).default(2),
  JOBS_RETRY_LIMIT: z.coerce.number().int().min(0).default(5),
  JOBS_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).default(5),
  /** Ours: workspace events older than this are pruned daily; a client resuming from before them is told to reload. */
  EVENTS_RETENTION_DAYS: z.coerce.number().min(1).default(30),
  /** Campaigns: how long a claimed recipient or send stays claimed before a crash is assumed. */
  CAMPAIGN_LEASE_SECONDS: z.coerce.number().min(1).default(20),
  /** Ours: files on S3-compatible object storage when S3_BUCKET is set (docs/operations.md). */
  S3_BUCKET: z.string().min(3).optional(),
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false', '1', '0', '']).default('false'),
  /** Ours: the Bearer token /metrics asks for; unset, /metrics answers 404. */
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.string().optional(),
});

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  firebaseProjectId: string;
  firebaseAuthEmulatorHost: string | undefined;
  /** The Graph API base URL with its version, e.g. https://graph.facebook.com/v26.0. */
  graphApiUrl: string;
  whatsappAppSecret: string | undefined;
  whatsappVerifyToken: string | undefined;
  secretsKey: string | undefined;
  smtpUrl: string | undefined;
  smtpFrom: string;
  publicUrl: string;
  appUrl: string;
  logLevel: z.infer<typeof Env>['LOG_LEVEL'];
  /** Durable jobs: polling interval, and the default retries (exponential backoff from retryDelaySeconds). */
  jobs: { pollingIntervalSeconds: number; retryLimit: number; retryDelaySeconds: number; retryBackoff: boolean };
  /**
   * Event streams: how often an idle stream gets a keep-alive comment, and how often an open stream checks that
   * its user still exists (not deleted, disabled or revoked) and is still a member of the workspace; how many
   * days of events the log keeps (EVENTS_RETENTION_DAYS, 30 when absent).
   */
  realtime: { heartbeatMs: number; recheckMs?: number; retentionDays?: number };
  /** Rate limits; tests lower or raise them. */
  rateLimits: {
    signUpPerMinute: number;
    invitePerMinute: number;
    tokenFailuresPerMinute: number;
    /** Calls per 10 s per trigger key (the product's limit, 100; not read from the environment). */
    triggerCallsPer10s: number;
  };
  /**
   * Campaigns: after `leaseSeconds` a recipient claimed by a process that died is claimed again, and
   * a send claimed but never finished counts as unknown (never resent). Absent: 300 s.
   */
  campaigns?: { leaseSeconds: number };
  /** Files in an S3-compatible bucket instead of under dataDir (S3_BUCKET); absent: on local disk. */
  s3?: S3Config;
  /** The Bearer token of /metrics (METRICS_TOKEN); absent, /metrics answers 404. */
  metricsToken?: string;
}

export interface S3Config {
  bucket: string;
  /** An S3-compatible server's address; absent: AWS's own for the region. */
  endpoint?: string;
  region: string;
  /** Both or neither; neither means the SDK's default chain (environment, profile, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  forcePathStyle: boolean;
}

/** The S3_ variables as one setting; half a key pair is refused rather than silently falling back. */
function s3ConfigOf(e: z.infer<typeof Env>): S3Config | undefined {
  if (!e.S3_BUCKET) return undefined;
  if (!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY) {
    throw new Error('Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (the AWS default credential chain)');
  }
  return {
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    credentials: e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY } : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true' || e.S3_FORCE_PATH_STYLE === '1',
  };
}

/** Meta's newest Graph API version when this default was set (v23.0 ends 8 Oct 2027, v26.0's end is not set yet). */
const DEFAULT_GRAPH_API_VERSION = 'v26.0';

/** GRAPH_API_URL with its version: its own trailing `/vX.Y`, else GRAPH_API_VERSION; two different ones are refused. */
function graphApiUrlOf(url: string, version: string | undefined): string {
  const base = url.replace(/\/+$/, '');
  const own = /\/(v\d+\.\d+)$/.exec(base)?.[1];
  if (own && version && own !== version) {
    throw new Error(`GRAPH_API_URL names version ${own} but GRAPH_API_VERSION is ${version}: set one of them`);
  }
  return own ? base : `${base}/${version ?? DEFAULT_GRAPH_API_VERSION}`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const e = Env.parse(env);
  const publicUrl = e.PUBLIC_URL ?? `http://${e.HOST}:${e.PORT}`;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL || undefined,
    dataDir: e.PARLEY_DATA_DIR,
    firebaseProjectId: e.FIREBASE_PROJECT_ID,
    firebaseAuthEmulatorHost: e.FIREBASE_AUTH_EMULATOR_HOST,
    graphApiUrl: graphApiUrlOf(e.GRAPH_API_URL, e.GRAPH_API_VERSION),
    whatsappAppSecret: e.WHATSAPP_APP_SECRET,
    whatsappVerifyToken: e.WHATSAPP_VERIFY_TOKEN,
    secretsKey: e.SECRETS_KEY,
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM,
    publicUrl,
    appUrl: e.APP_URL ?? publicUrl,
    logLevel: e.LOG_LEVEL,
    metricsToken: e.METRICS_TOKEN,
    jobs: {
      pollingIntervalSeconds: e.JOBS_POLLING_INTERVAL_SECONDS,
      retryLimit: e.JOBS_RETRY_LIMIT,
      retryDelaySeconds: e.JOBS_RETRY_DELAY_SECONDS,
      retryBackoff: true,
    },
    realtime: { heartbeatMs: 15_000, recheckMs: 60_000, retentionDays: e.EVENTS_RETENTION_DAYS },
    campaigns: { leaseSeconds: e.CAMPAIGN_LEASE_SECONDS },
    s3: s3ConfigOf(e),
    rateLimits: {
      signUpPerMinute: e.RATE_LIMIT_SIGNUP,
      invitePerMinute: e.RATE_LIMIT_INVITE,
      tokenFailuresPerMinute: e.RATE_LIMIT_TOKEN_FAILURES,
      triggerCallsPer10s: limits.campaign.triggerCallsPer10s,
    },
    ...overrides,
  };
}

/**
 * With NODE_ENV=production the server refuses to start without the secrets a business cannot run without; each
 * problem is a sentence for the operator. Development and tests (any other NODE_ENV) start without them.
 */
export function productionConfigProblems(config: Config, env: NodeJS.ProcessEnv = process.env): string[] {
  if (env.NODE_ENV !== 'production') return [];
  const problems: string[] = [];
  if (!config.whatsappAppSecret) {
    problems.push('WHATSAPP_APP_SECRET is not set: without the Meta app secret no webhook can be checked, so no message or status from WhatsApp would be accepted.');
  }
  if (!config.secretsKey) {
    problems.push('SECRETS_KEY is not set: without it no WhatsApp number can be connected (access tokens are stored encrypted with it).');
  }
  return problems;
}
