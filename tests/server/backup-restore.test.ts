/**
 * The backup drill: a workspace with a row of every kind is backed up (pg_dump and the file store's tar), restored
 * into a new, empty database and an empty data folder, and a second server on them answers every read of the
 * contract exactly as the first one did. Restore refuses what it must not touch, and a damaged backup, in words.
 * The drill needs PostgreSQL (pg_dump); the refusals that need no database run on PGlite too.
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { shippedMigrations } from '../../src/server/db/client';
import { backup } from '../../src/server/ops/backup';
import { restore } from '../../src/server/ops/restore';
import { type RouteDef, buildPath, routeNames, routes } from '../../src/shared/api/routes';
import { exampleQueryString } from '../support/route-examples';
import { type FullWorkspace, seedFullWorkspace } from '../support/full-workspace';
import { testAppSecret, testSecretsKey, testVerifyToken } from '../support/sandbox-webhooks';
import { type Session, TestApp, buildTestApp, onPostgres, testConfig } from '../support/server';
import packageJson from '../../package.json';

const root = path.resolve(import.meta.dirname, '../..');
const sha256Of = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const scratchDirs: string[] = [];
const scratch = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-backup-'));
  scratchDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of scratchDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * No field is left out of the comparison: every read answers from the database and the file store alone, so a
 * faithful restore answers byte for byte the same (the contract's reads carry no signed, clock-dependent links).
 */

/** Every GET of the route table, with this workspace's ids (each conversation and contact for their routes). */
function contractReads(fw: FullWorkspace): string[] {
  const urls: string[] = [];
  for (const name of routeNames) {
    const def = routes[name] as RouteDef;
    if (def.method !== 'GET') continue;
    const keys = Object.keys(def.params?.shape ?? {});
    const variants = keys.includes('conversationId')
      ? fw.conversationIds.map((conversationId) => ({ ...fw.params, conversationId }))
      : keys.includes('contactId')
        ? fw.contactIds.map((contactId) => ({ ...fw.params, contactId }))
        : [fw.params];
    for (const params of variants) urls.push(buildPath(def.path, params) + exampleQueryString(def));
  }
  return urls;
}

/** What each read answers to the admin and to the agent, and each stored file's bytes. */
async function answersOf(ta: TestApp, fw: FullWorkspace): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const sessions: [string, Session][] = [['admin', fw.admin], ['agent', fw.agent]];
  for (const url of contractReads(fw)) {
    for (const [who, session] of sessions) {
      const res = await ta.call('GET', url, { token: session.token });
      out[`${who} GET ${url}`] = { status: res.statusCode, type: res.headers['content-type'], body: res.body };
    }
  }
  for (const fileUrl of fw.fileUrls) {
    const res = await ta.call('GET', new URL(fileUrl, 'http://parley.test').pathname, { token: fw.agent.token });
    out[`file ${fileUrl}`] = { status: res.statusCode, type: res.headers['content-type'], bytes: res.rawPayload.toString('base64') };
  }
  return out;
}

/** A new, empty database on the test's PostgreSQL server, dropped by `drop`. */
async function emptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL!;
  const name = `parley_restore_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  await admin(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

describe.runIf(onPostgres)('a backup restored into an empty database and file store', () => {
  let ta: TestApp;
  let fw: FullWorkspace;
  let before: Record<string, unknown>;
  let backupDir: string;
  let restored: { url: string; drop(): Promise<void> } | undefined;
  let second: TestApp | undefined;
  const sourceUrl = () => (ta.database.raw as { url: string }).url;

  beforeAll(async () => {
    ta = await buildTestApp();
    fw = await seedFullWorkspace(ta);
    before = await answersOf(ta, fw);
    backupDir = path.join(scratch(), 'backup');
  }, 300_000);
  afterAll(async () => {
    await second?.app.close();
    await restored?.drop();
    await ta?.close();
  });

  it('answers every read of the contract, and serves every file, as the server it was taken from', async () => {
    const { manifest } = await backup({ databaseUrl: sourceUrl(), dataDir: ta.app.parley.config.dataDir }, { outDir: backupDir });
    expect(manifest).toMatchObject({ format: 1, parleyVersion: packageJson.version, migrationCount: shippedMigrations().length });
    expect(manifest.fileCount).toBeGreaterThanOrEqual(fw.fileUrls.length);
    expect(fs.readdirSync(backupDir).sort()).toEqual(['database.dump', 'files.tar', 'manifest.json']);

    restored = await emptyDatabase();
    const dataDir = scratch();
    const result = await restore({ databaseUrl: restored.url, dataDir }, { fromDir: backupDir });
    expect(result.pendingMigrations).toBe(0);

    // The second server starts as an operator's would: it opens the restored database and migrates it (nothing to do).
    const config = testConfig({
      databaseUrl: restored.url,
      dataDir,
      graphApiUrl: ta.sandbox.baseUrl,
      whatsappAppSecret: testAppSecret,
      whatsappVerifyToken: testVerifyToken,
      secretsKey: testSecretsKey,
    });
    const app = await buildApp({ config, logger: false });
    second = new TestApp(app, app.parley.db, async () => undefined);
    const after = await answersOf(second, fw);
    expect(Object.keys(after).length).toBeGreaterThan(60);
    expect(after).toEqual(before);
  }, 120_000);

  it('refuses, in words, a database that holds Parley already and a file store that is not empty', async () => {
    await expect(restore({ databaseUrl: sourceUrl(), dataDir: scratch() }, { fromDir: backupDir })).rejects.toThrow(
      /is not empty \(it holds drizzle, pgboss, public\.[a-z_]+, public\.[a-z_]+, …\): restore fills an empty database only/,
    );
    const fresh = await emptyDatabase();
    try {
      await expect(restore({ databaseUrl: fresh.url, dataDir: ta.app.parley.config.dataDir }, { fromDir: backupDir })).rejects.toThrow(
        /The file store .* is not empty: restore fills an empty one only/,
      );
      const c = new pg.Client({ connectionString: fresh.url });
      await c.connect();
      const { rows } = await c.query(`select count(*)::int as n from pg_tables where schemaname = 'public'`);
      await c.end();
      expect(rows[0].n).toBe(0);
    } finally {
      await fresh.drop();
    }
  });

  it('refuses a backup folder that is not empty to write into', async () => {
    await expect(backup({ databaseUrl: sourceUrl(), dataDir: ta.app.parley.config.dataDir }, { outDir: backupDir })).rejects.toThrow(
      /The backup folder .* is not empty \(database\.dump, files\.tar, manifest\.json\): name a new folder/,
    );
  });
});

describe('backup and restore refusals that need no database', () => {
  const fakeUrl = 'postgres://parley:secret@127.0.0.1:1/nowhere';

  it('says that a backup needs PostgreSQL when the server runs on PGlite, and writes nothing', () => {
    const out = path.join(scratch(), 'never');
    const env: NodeJS.ProcessEnv = { ...process.env, PARLEY_DATA_DIR: scratch() };
    delete env.DATABASE_URL;
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/cli/main.ts', 'backup', '--out', out], { cwd: root, env, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Backups need PostgreSQL: DATABASE_URL is not set');
    expect(fs.existsSync(out)).toBe(false);
  });

  it('checks the manifest and the checksums before it touches the database', async () => {
    const dir = scratch();
    fs.writeFileSync(path.join(dir, 'database.dump'), 'not really a dump');
    fs.writeFileSync(path.join(dir, 'files.tar'), Buffer.alloc(1024));
    const manifest = {
      format: 1, createdAt: new Date().toISOString(), parleyVersion: packageJson.version, migrationCount: 1, fileCount: 0,
      database: { file: 'database.dump', format: 'pg_dump custom', sha256: '0'.repeat(64) },
      files: { file: 'files.tar', sha256: '0'.repeat(64) },
    };
    const attempt = () => restore({ databaseUrl: fakeUrl, dataDir: scratch() }, { fromDir: dir });

    await expect(attempt()).rejects.toThrow(/is not a finished Parley backup: it has no manifest\.json/);
    fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ ...manifest, format: 2 }));
    await expect(attempt()).rejects.toThrow(/manifest\.json is not a Parley backup manifest \(format: /);
    fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
    await expect(attempt()).rejects.toThrow(/database\.dump does not match its sha256 in manifest\.json: the backup is damaged or was changed; nothing was restored/);

    const sums = { database: { ...manifest.database, sha256: sha256Of(path.join(dir, 'database.dump')) }, files: { ...manifest.files, sha256: sha256Of(path.join(dir, 'files.tar')) } };
    fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ ...manifest, ...sums, parleyVersion: '9.9.9', migrationCount: shippedMigrations().length + 1 }));
    await expect(attempt()).rejects.toThrow(/This backup was made by a newer Parley \(9\.9\.9, \d+ migrations; this one knows \d+\)/);

    // Checks passed, the database is asked next: its password stays out of the words.
    fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ ...manifest, ...sums }));
    const failure = await attempt().then(() => null, (err: Error) => err.message);
    expect(failure).toMatch(/^Could not read 127\.0\.0\.1:1\/nowhere: /);
    expect(failure).not.toContain('secret');
  });

  it('prints its usage for a missing folder', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/cli/main.ts', 'restore'], { cwd: root, encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('usage: restore --from DIR');
  });
});
