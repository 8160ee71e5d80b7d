/**
 * The production build as an operator runs it: `npm run build:server`, then `node dist/server/server.js` from a
 * read-only copy holding only the production packages, as a non-root user, with NODE_ENV=production. A contract
 * probe signs up, imports a CSV (a durable job and the reader thread) and walks the REST calls of the spec;
 * `migrate` run twice at once migrates once; `doctor` and `serve` say in words what is missing. PostgreSQL when
 * DATABASE_URL is set, else PGlite.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../src/shared/api/routes';
import { shippedMigrations } from '../../src/server/db/client';
import { signInWithPassword } from '../../scripts/lib/identity-rest';
import { asRoot, buildProductionLayout, bundleImports, type Layout, repoRoot, runBundle, serveBundle } from '../support/production-bundle';
import { multipartBody } from '../support/multipart';
import { emulatorHost, markEmailVerified, onPostgres, openTestDatabase } from '../support/server';
import { until } from '../support/until';

const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  bin: Record<string, string>;
};
const user = asRoot ? 'as nobody' : 'as the current user (the tests do not run as root, so they cannot switch to nobody)';

let layout: Layout;
beforeAll(() => {
  layout = buildProductionLayout();
}, 120_000);
afterAll(() => layout?.dispose());

/** The secrets production requires, and the suite's Auth emulator (a demo- project may trust it). */
const productionEnv = () => ({
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  FIREBASE_PROJECT_ID: 'demo-parley',
  FIREBASE_AUTH_EMULATOR_HOST: emulatorHost(),
  WHATSAPP_APP_SECRET: 'production-build-test-app-secret',
  WHATSAPP_VERIFY_TOKEN: 'production-build-test-verify-token',
  SECRETS_KEY: 'production-build-test-secrets-key-of-some-length',
});

async function call(baseUrl: string, method: string, url: string, token?: string, body?: unknown) {
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : undefined) as unknown, text };
}

/** A CSV import through the bundle: the upload, the durable job and the reader thread; answers the contacts' names. */
async function importContacts(baseUrl: string, token: string, workspaceId: string): Promise<string[]> {
  const csv = 'phone,name\n+14155550181,Ann Bundle\n+14155550182,Ben Bundle\n';
  const { payload, headers } = multipartBody({ fileName: 'contacts.csv', mimeType: 'text/csv', content: csv });
  const upload = await fetch(`${baseUrl}/import-history/upload`, { method: 'POST', headers: { ...headers, authorization: `Bearer ${token}` }, body: new Blob([new Uint8Array(payload)]) });
  expect(upload.status).toBe(201);
  const { fileUrl } = routes.uploadImportFile.response.parse(await upload.json());
  const columnAttributeMap = [
    { columnName: 'phone', attribute: 'phoneNumber' },
    { columnName: 'name', attribute: 'name' },
  ];
  const started = await call(baseUrl, 'POST', '/import-history', token, { fileName: 'contacts.csv', fileUrl, workspaceId, columnAttributeMap });
  expect(started.status, started.text).toBe(201);
  await until(async () => {
    const history = await call(baseUrl, 'GET', `/workspace/${workspaceId}/import-history`, token);
    const entries = routes.listImportHistory.response.parse(history.json).items;
    if (entries.some((e) => e.status === 'failed')) throw new Error(`the import failed: ${history.text}`);
    return entries.some((e) => e.status === 'completed');
  }, 60_000);
  const contacts = await call(baseUrl, 'GET', `/workspace/${workspaceId}/contacts`, token);
  return routes.listContacts.response.parse(contacts.json).items.map((c) => c.name ?? '').sort();
}

describe('the production bundle', () => {
  it('imports at run time only packages that are runtime dependencies of package.json', () => {
    const imported = [...bundleImports(path.join(repoRoot, 'dist/server'))].sort();
    expect(imported).toContain('fastify');
    expect(imported).toContain('pg');
    expect(imported.filter((name) => !(name in pkg.dependencies))).toEqual([]);
    expect(pkg.bin['parley-server']).toBe('dist/server/server.js');
  });

  it(`serves the REST contract from a read-only copy ${user}, writing only to PARLEY_DATA_DIR`, async () => {
    const db = onPostgres ? await openTestDatabase({ migrate: false }) : undefined;
    const dataDir = layout.dataDir();
    const server = await serveBundle(layout, { ...productionEnv(), PARLEY_DATA_DIR: dataDir, DATABASE_URL: db?.url });
    try {
      const health = await call(server.baseUrl, 'GET', '/healthz');
      expect(health.json).toMatchObject({ status: 'ok', projectId: 'demo-parley' });

      const email = `owner-${Date.now()}@prod-build.test`;
      const password = 'correct horse 3';
      const signUp = await call(server.baseUrl, 'POST', '/auth/sign-up', undefined, { email, password, name: 'Olga Owner', organizationName: 'Bundle Bakery' });
      expect(signUp.status, signUp.text).toBe(201);
      const member = routes.signUp.response.parse(signUp.json);
      await markEmailVerified(member.uid);
      const { idToken } = await signInWithPassword(emulatorHost(), email, password);
      expect(await importContacts(server.baseUrl, idToken, member.currentWorkspaceId!)).toEqual(['Ann Bundle', 'Ben Bundle']);

      const created = await call(server.baseUrl, 'POST', '/workspace', idToken, { name: 'Bundle Bakery North' });
      expect(created.status, created.text).toBe(201);
      const workspace = routes.createWorkspace.response.parse(created.json);
      const read = await call(server.baseUrl, 'GET', `/workspace/${workspace.id}`, idToken);
      expect(read.status, read.text).toBe(200);
      const detail = routes.getWorkspace.response.parse(read.json);
      expect(detail).toMatchObject({ id: workspace.id, name: 'Bundle Bakery North' });
      expect(detail.Member.map((m) => m.email)).toEqual([email.toLowerCase()]);

      const members = await call(server.baseUrl, 'GET', `/workspace/${workspace.id}/members`, idToken);
      expect(members.status, members.text).toBe(200);
      const memberList = routes.listMembers.response.parse(members.json);
      expect(memberList.items.map((m) => [m.email, m.role])).toEqual([[email.toLowerCase(), 'admin']]);
      for (const listing of ['listContacts', 'listConversations'] as const) {
        const res = await call(server.baseUrl, 'GET', routes[listing].path.replace(':workspaceId', workspace.id), idToken);
        expect(res.status, res.text).toBe(200);
        expect(routes[listing].response.parse(res.json).items).toEqual([]);
      }
      // The database and the files live in PARLEY_DATA_DIR; nothing was written beside the bundle.
      if (!onPostgres) expect(fs.existsSync(path.join(dataDir, 'pgdata'))).toBe(true);
      expect(fs.readdirSync(layout.appDir).sort()).toEqual(['dist', 'node_modules', 'package-lock.json', 'package.json']);
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      await db?.dispose();
    }
  }, 180_000);

  it.runIf(onPostgres)('migrate run twice at once on PostgreSQL migrates once, with no error', async () => {
    const db = await openTestDatabase({ migrate: false });
    try {
      const env = { ...productionEnv(), DATABASE_URL: db.url };
      const runs = [runBundle(layout, ['migrate'], env), runBundle(layout, ['migrate'], env)];
      expect(await Promise.all(runs.map((r) => r.exited))).toEqual([0, 0]);
      const outputs = runs.map((r) => r.output()).sort();
      const shipped = shippedMigrations().length;
      expect(outputs).toEqual([
        `Applied ${shipped} migrations to PostgreSQL; ${shipped} of ${shipped} are applied.\n`,
        `PostgreSQL is up to date: all ${shipped} migrations were already applied.\n`,
      ]);
    } finally {
      await db.dispose();
    }
  }, 120_000);

  it('doctor names a missing SECRETS_KEY in words and exits with 1', async () => {
    const env: Record<string, string | undefined> = { ...productionEnv(), PARLEY_DATA_DIR: layout.dataDir(), SECRETS_KEY: undefined };
    const run = runBundle(layout, ['doctor'], env);
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(/^FAIL +SECRETS_KEY +SECRETS_KEY is not set: no WhatsApp number can be connected/m);
    expect(run.output()).toMatch(/problems?, .*fix what FAIL says/);
  }, 60_000);

  it('serve refuses to start in production without WHATSAPP_APP_SECRET or SECRETS_KEY, saying which', async () => {
    for (const missing of ['WHATSAPP_APP_SECRET', 'SECRETS_KEY'] as const) {
      const run = runBundle(layout, ['serve'], { ...productionEnv(), PARLEY_DATA_DIR: layout.dataDir(), [missing]: undefined });
      expect(await run.exited).toBe(1);
      expect(run.output()).toContain(`${missing} is not set`);
      expect(run.output()).toContain('NODE_ENV is production, so the server does not start');
    }
  }, 60_000);
});
