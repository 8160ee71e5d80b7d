/**
 * The checks of `doctor`, each judged for a production server and each answering in words what is wrong and
 * what to do. They read the environment (what the operator set) besides the parsed configuration, since a
 * default (a demo Firebase project, an http PUBLIC_URL on loopback) is exactly what they look for.
 */
import net from 'node:net';
import type { Config } from '../config';
import { openDatabase, shippedMigrations } from '../db/client';
import { isPublicAddress } from '../bots/http-node';

export type CheckStatus = 'ok' | 'warn' | 'fail';
export interface CheckResult {
  status: CheckStatus;
  detail: string;
}
export interface Check {
  name: string;
  run(config: Config, env: NodeJS.ProcessEnv): Promise<CheckResult> | CheckResult;
}

const ok = (detail: string): CheckResult => ({ status: 'ok', detail });
const warn = (detail: string): CheckResult => ({ status: 'warn', detail });
const fail = (detail: string): CheckResult => ({ status: 'fail', detail });

/** Settles with `promise`, or rejects after `ms` with a sentence saying what did not answer. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A network error in words: the common codes said plainly, anything else as the error says it. */
function networkError(err: unknown): string {
  // drizzle wraps a driver's error in "Failed query: ..." with the driver's as its cause.
  const cause = (err as { cause?: unknown }).cause ?? err;
  const { code, message } = cause as { code?: string; message: string };
  if (code === 'ECONNREFUSED') return 'nothing accepts connections there (connection refused)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name does not resolve';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'the host cannot be reached from here';
  return message;
}

/** host:port/database of a PostgreSQL URL, without its user name or password. */
function databaseLabel(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'DATABASE_URL (not a valid URL)';
  }
}

async function databaseCheck(config: Config): Promise<CheckResult> {
  if (!config.databaseUrl) {
    return warn(
      `DATABASE_URL is not set, so the server keeps its data in PGlite under ${config.dataDir}/pgdata: one process on one machine. ` +
        'Use PostgreSQL for a business. (doctor does not open PGlite, which a running server may hold.)',
    );
  }
  const label = databaseLabel(config.databaseUrl);
  let database: Awaited<ReturnType<typeof openDatabase>> | undefined;
  try {
    database = await openDatabase({ url: config.databaseUrl, poolSize: 1 });
    await within(database.ping(), 10_000, `PostgreSQL at ${label}`);
    const applied = await database.appliedMigrationCount();
    const shipped = shippedMigrations().length;
    if (applied > shipped) {
      return fail(`PostgreSQL at ${label} has ${applied} migrations applied but this build knows only ${shipped}: a newer Parley migrated it. Run that version.`);
    }
    if (applied < shipped) {
      return warn(`PostgreSQL at ${label} is reachable; ${shipped - applied} of ${shipped} migrations are not applied yet: \`serve\` applies them when it starts, or run \`migrate\`.`);
    }
    return ok(`PostgreSQL at ${label} is reachable and all ${shipped} migrations are applied.`);
  } catch (err) {
    return fail(`cannot reach PostgreSQL at ${label}: ${networkError(err)}. Check DATABASE_URL, the network and the credentials.`);
  } finally {
    void database?.close().catch(() => undefined);
  }
}

function firebaseCheck(config: Config, env: NodeJS.ProcessEnv): CheckResult {
  const id = env.FIREBASE_PROJECT_ID;
  if (!id) return fail(`FIREBASE_PROJECT_ID is not set: the server would use ${config.firebaseProjectId}, a demo project nobody can really sign in to. Set your Firebase project id.`);
  if (env.FIREBASE_AUTH_EMULATOR_HOST) return fail('FIREBASE_AUTH_EMULATOR_HOST is set: the server would trust the Auth emulator instead of Firebase. Unset it.');
  if (id.startsWith('demo-')) return fail(`FIREBASE_PROJECT_ID is ${id}, a demo project: it accepts only the Auth emulator's tokens. Set your real Firebase project id.`);
  if (!/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/.test(id)) return fail(`FIREBASE_PROJECT_ID "${id}" does not look like a Firebase project id (6 to 30 lowercase letters, digits and hyphens).`);
  return ok(`Firebase project ${id}.`);
}

function appSecretCheck(config: Config): CheckResult {
  const secret = config.whatsappAppSecret;
  if (!secret) return fail('WHATSAPP_APP_SECRET is not set: webhooks from Meta are refused, so no message or status from WhatsApp arrives. Set the app secret of your Meta app.');
  if (!/^[0-9a-f]{32}$/i.test(secret)) {
    return warn("WHATSAPP_APP_SECRET does not look like a Meta app secret (32 hexadecimal characters, from the Meta app's Basic settings): webhooks Meta signs would fail the check.");
  }
  return ok('WHATSAPP_APP_SECRET is set.');
}

function verifyTokenCheck(config: Config): CheckResult {
  if (!config.whatsappVerifyToken) return fail("WHATSAPP_VERIFY_TOKEN is not set: Meta cannot verify the webhook's callback URL. Set the token you give Meta.");
  return ok('WHATSAPP_VERIFY_TOKEN is set.');
}

function secretsKeyCheck(config: Config): CheckResult {
  const key = config.secretsKey;
  if (!key) {
    return fail('SECRETS_KEY is not set: no WhatsApp number can be connected (its access token is stored encrypted with this key). Set a long random value and keep it.');
  }
  if (key.length < 32) return warn(`SECRETS_KEY is short (${key.length} characters): use 32 random characters or more, e.g. \`openssl rand -base64 32\`.`);
  return ok('SECRETS_KEY is set.');
}

/** Opens a TCP connection to the SMTP server and closes it again (no greeting, no sign-in, no mail). */
function connects(host: string, port: number, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(ms, () => socket.destroy(new Error(`no answer within ${ms / 1000} s`)));
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}

async function smtpCheck(config: Config): Promise<CheckResult> {
  if (!config.smtpUrl) return warn('SMTP_URL is not set: invitations and bot e-mails are not sent (the server only logs the recipient).');
  let url: URL;
  try {
    url = new URL(config.smtpUrl);
  } catch {
    return fail('SMTP_URL is not a valid URL: write it as smtp://user:password@host:587 or smtps://user:password@host:465.');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') return fail(`SMTP_URL starts with ${url.protocol} but must start with smtp: or smtps:.`);
  const port = Number(url.port || (url.protocol === 'smtps:' ? 465 : 587));
  const where = `${url.hostname}:${port}`;
  try {
    await connects(url.hostname, port, 5_000);
    return ok(`the SMTP server at ${where} accepts connections (doctor neither signs in nor sends).`);
  } catch (err) {
    return fail(`cannot connect to the SMTP server at ${where}: ${networkError(err)}.`);
  }
}

/** Host names that never reach the public internet (RFC 6761 and the usual private suffixes). */
const privateNames = /(^|\.)(localhost|local|internal|lan|home|test|example|invalid)$/i;

function publicUrlCheck(_config: Config, env: NodeJS.ProcessEnv): CheckResult {
  const raw = env.PUBLIC_URL;
  if (!raw) return fail("PUBLIC_URL is not set: file links, invitation links and the webhook's address would point at http://HOST:PORT. Set the server's public https address.");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail(`PUBLIC_URL "${raw}" is not a valid URL: write it as https://parley.example.com.`);
  }
  if (url.protocol !== 'https:') return fail(`PUBLIC_URL ${raw} is not https: Meta sends webhooks to https addresses only, and links would travel unencrypted.`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) {
    if (!isPublicAddress(host)) return fail(`PUBLIC_URL ${raw} is a private or loopback address: Meta and members outside your network cannot reach it.`);
  } else if (!host.includes('.') || privateNames.test(host)) {
    return fail(`PUBLIC_URL ${raw} is not a public host name: Meta and members outside your network cannot reach it.`);
  }
  return ok(`PUBLIC_URL ${raw} is a public https address.`);
}

export const doctorChecks: Check[] = [
  { name: 'database', run: databaseCheck },
  { name: 'Firebase project', run: firebaseCheck },
  { name: 'webhook app secret', run: appSecretCheck },
  { name: 'webhook verify token', run: verifyTokenCheck },
  { name: 'SECRETS_KEY', run: secretsKeyCheck },
  { name: 'SMTP', run: smtpCheck },
  { name: 'PUBLIC_URL', run: publicUrlCheck },
];
