/**
 * Builds the real server app (no listen) against a fresh database: PGlite in memory by default, or a new
 * database on the PostgreSQL server named by DATABASE_URL (dropped afterwards). Identity is the Auth
 * emulator started by the global setup.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/server/app';
import { loadConfig, type Config } from '../../src/server/config';
import { type Database, openDatabase } from '../../src/server/db/client';
import type { Member, Role } from '../../src/shared';
import { type RouteDef, routeNames, routes } from '../../src/shared/api/routes';
import { signInWithPassword } from '../../scripts/lib/identity-rest';
import type { Sandbox } from '../../src/sandbox';
import { startTestSandbox } from './sandbox';
import { testAppSecret, testSecretsKey, testVerifyToken } from './sandbox-webhooks';

export const onPostgres = !!process.env.DATABASE_URL;

/** A fresh database, migrated unless `migrate: false` (tests that apply migrations one by one). */
export async function openTestDatabase(opts: { migrate?: boolean } = {}): Promise<{ database: Database; url?: string; dispose(): Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  const migrate = opts.migrate ?? true;
  if (!serverUrl) {
    const database = await openDatabase({});
    if (migrate) await database.migrate();
    return { database, dispose: () => database.close() };
  }
  const name = `parley_t_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 5 });
  if (migrate) await database.migrate();
  return {
    database,
    url: url.toString(),
    async dispose() {
      await database.close();
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export function emulatorHost(): string {
  const host = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  if (!host) throw new Error('FIREBASE_AUTH_EMULATOR_HOST is not set: the vitest global setup starts the Auth emulator');
  return host;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return loadConfig(
    {
      FIREBASE_AUTH_EMULATOR_HOST: emulatorHost(),
      FIREBASE_PROJECT_ID: 'demo-parley',
      PARLEY_DATA_DIR: `/tmp/parley-test-${randomUUID()}`,
      PUBLIC_URL: 'http://parley.test',
      APP_URL: 'http://app.parley.test',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_SIGNUP: '1000',
      RATE_LIMIT_INVITE: '1000',
      RATE_LIMIT_TOKEN_FAILURES: '1000',
    } as NodeJS.ProcessEnv,
    // Jobs: poll at pg-boss's minimum and retry at once, so tests that wait for jobs stay fast.
    { jobs: { pollingIntervalSeconds: 0.5, retryLimit: 5, retryDelaySeconds: 0, retryBackoff: false }, ...overrides },
  );
}

/**
 * The environment of a real server process (server-process.ts) that shares the test's PostgreSQL database and
 * sandbox: the test app's secrets and the Auth emulator, so the process serves the same workspaces.
 */
export function serverProcessEnv(databaseUrl: string, graphApiUrl: string): NodeJS.ProcessEnv {
  return {
    DATABASE_URL: databaseUrl,
    GRAPH_API_URL: graphApiUrl,
    WHATSAPP_APP_SECRET: testAppSecret,
    WHATSAPP_VERIFY_TOKEN: testVerifyToken,
    SECRETS_KEY: testSecretsKey,
    FIREBASE_AUTH_EMULATOR_HOST: emulatorHost(),
    FIREBASE_PROJECT_ID: 'demo-parley',
  };
}

/**
 * Marks an identity's e-mail address verified at the Auth emulator (as clicking the link in the verification
 * e-mail does): calls that create or change data need a verified address.
 */
export async function markEmailVerified(uid: string, emailVerified = true): Promise<void> {
  const res = await fetch(`http://${emulatorHost()}/identitytoolkit.googleapis.com/v1/projects/demo-parley/accounts:update`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
    body: JSON.stringify({ localId: uid, emailVerified }),
  });
  if (!res.ok) throw new Error(`could not mark ${uid} verified: ${res.status} ${await res.text()}`);
}

export interface Session {
  email: string;
  password: string;
  token: string;
  member: Member;
  workspaceId: string;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

export class TestApp {
  constructor(
    readonly app: FastifyInstance,
    readonly database: Database,
    private readonly disposeDb: () => Promise<void>,
  ) {}

  get db() {
    return this.database.db;
  }

  call(method: InjectOptions['method'], url: string, opts: CallOptions = {}): Promise<LightMyRequestResponse> {
    const options: InjectOptions = {
      method,
      url,
      query: opts.query,
      headers: { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...opts.headers },
      ...(opts.body !== undefined ? { payload: opts.body as InjectOptions['payload'] } : {}),
    };
    const path = url.split('?')[0];
    if (streamRoutes.some((r) => r.method === method && r.path.test(path))) return this.callStream(options);
    return this.app.inject(options);
  }

  /** An event stream never ends: answers its status, headers and first message, then disconnects. */
  private async callStream(options: InjectOptions): Promise<LightMyRequestResponse> {
    const controller = new AbortController();
    const res = await this.app.inject({ ...options, payloadAsStream: true, signal: controller.signal });
    const events = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
    let body = '';
    for await (const chunk of res.stream()) {
      body += String(chunk);
      if (events && body.includes('\n\n')) break;
    }
    controller.abort();
    return { statusCode: res.statusCode, headers: res.headers, body, payload: body, json: () => JSON.parse(body) } as LightMyRequestResponse;
  }

  /** Signs up a new admin with a workspace of its own, and signs in. */
  async newAdmin(organizationName = 'Acme Trading'): Promise<Session> {
    const email = `admin-${randomUUID()}@acme-test.com`;
    const password = 'correct horse 1';
    const res = await this.call('POST', '/auth/sign-up', { body: { email, password, name: 'Ada Admin', organizationName } });
    if (res.statusCode !== 201) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
    const member = res.json() as Member;
    await markEmailVerified(member.uid);
    const { idToken } = await signInWithPassword(emulatorHost(), email, password);
    return { email, password, token: idToken, member, workspaceId: member.currentWorkspaceId! };
  }

  /** Invites a new person into the admin's workspace with a role; they sign up by the invitation. */
  async newMember(admin: Session, role: Role): Promise<Session> {
    const email = `${role}-${randomUUID()}@acme-test.com`;
    const password = 'correct horse 2';
    const inv = await this.call('POST', '/invitee', { token: admin.token, body: { email, role, workspaceId: admin.workspaceId } });
    if (inv.statusCode !== 201) throw new Error(`invite failed: ${inv.statusCode} ${inv.body}`);
    const token = await this.inviteToken(admin, email);
    const res = await this.call('POST', `/auth/sign-up/${token}`, { body: { email, password } });
    if (res.statusCode !== 201) throw new Error(`invite sign-up failed: ${res.statusCode} ${res.body}`);
    const member = res.json() as Member;
    await markEmailVerified(member.uid);
    const { idToken } = await signInWithPassword(emulatorHost(), email, password);
    return { email, password, token: idToken, member, workspaceId: admin.workspaceId };
  }

  /** The invitation token for an e-mail, as the invitee finds it through the link in the e-mail. */
  async inviteToken(admin: Session, email: string): Promise<string> {
    const list = await this.call('GET', `/workspace/${admin.workspaceId}/invitees`, { token: admin.token });
    const found = (list.json().items as { email: string; token: string }[]).find((i) => i.email === email.toLowerCase());
    if (!found) throw new Error(`no invitation for ${email}`);
    return found.token;
  }

  /** The WhatsApp sandbox this app talks to (GRAPH_API_URL), set by buildTestApp. */
  sandbox!: Sandbox;

  async close(): Promise<void> {
    await this.app.close();
    await this.disposeDb();
  }
}

/** Routes that answer a server-sent event stream (the walk of the route table calls them too). */
const streamRoutes = routeNames
  .map((n) => routes[n] as RouteDef)
  .filter((d) => d.stream)
  .map((d) => ({ method: d.method, path: new RegExp(`^${d.path.replace(/:[A-Za-z]+/g, '[^/]+')}$`) }));

export async function buildTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const { database, dispose } = await openTestDatabase();
  // The WhatsApp sandbox is the app's Graph API; its webhooks go into this app (tests/support/sandbox.ts).
  const target: { app?: FastifyInstance } = {};
  const sandbox = await startTestSandbox(() => target.app);
  const channel: Partial<Config> = {
    graphApiUrl: sandbox.baseUrl,
    whatsappAppSecret: testAppSecret,
    whatsappVerifyToken: testVerifyToken,
    secretsKey: testSecretsKey,
  };
  const app = await buildApp({ config: testConfig({ ...channel, ...overrides }), database, logger: false });
  target.app = app;
  const ta = new TestApp(app, database, async () => {
    await sandbox.close();
    await dispose();
  });
  ta.sandbox = sandbox;
  return ta;
}
