/**
 * Durable jobs (pg-boss) on the database the server runs on: PGlite here, PostgreSQL with DATABASE_URL.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { type Database, rowsOf } from '../../src/server/db/client';
import { jobDefinitions } from '../../src/server/jobs/names';
import type { JobHandler, JobInfo } from '../../src/server/jobs/queue';
import { type Config } from '../../src/server/config';
import { openTestDatabase, testConfig } from '../support/server';

const ownJobs = {
  'test.echo': {},
  'test.flaky': {},
  'test.doomed': { retryLimit: 1 },
  'test.restart': {},
  'test.slow': {},
};
// The product's jobs stay listed: their handlers are registered by the services as usual.
const testJobs = { ...jobDefinitions, ...ownJobs };

let database: Database;
let dispose: () => Promise<void>;
const open: FastifyInstance[] = [];

beforeAll(async () => {
  ({ database, dispose } = await openTestDatabase());
});
afterAll(async () => {
  for (const app of open) await app.close();
  await dispose?.();
});

/** A server on the shared test database with these handlers (the other test jobs get a no-op), started. */
async function startApp(handlers: Partial<Record<keyof typeof ownJobs, JobHandler<never>>>, config?: Partial<Config>) {
  const app = await buildApp({ config: testConfig(config), database, logger: false, jobs: { definitions: testJobs, stopTimeoutMs: 1000 } });
  open.push(app);
  for (const name of Object.keys(ownJobs) as (keyof typeof ownJobs)[]) {
    app.parley.jobs.register(name, handlers[name] ?? (async () => undefined));
  }
  await app.ready();
  return app;
}

async function stateOf(id: string): Promise<string> {
  const rows = rowsOf<{ state: string }>(await database.db.execute(sql`select state::text as state from pgboss.job where id = ${id}`));
  return rows[0]?.state ?? 'missing';
}

describe('durable jobs', () => {
  let app: FastifyInstance;
  const runs: { name: string; data: unknown; info: JobInfo }[] = [];
  let flakyFailures = 2;

  beforeAll(async () => {
    app = await startApp({
      'test.echo': async (data, info) => void runs.push({ name: 'test.echo', data, info }),
      'test.flaky': async (data, info) => {
        runs.push({ name: 'test.flaky', data, info });
        if (flakyFailures-- > 0) throw new Error('the Graph API is down');
      },
      'test.doomed': async (data, info) => {
        runs.push({ name: 'test.doomed', data, info });
        throw new Error('always fails');
      },
    });
  });
  // Its workers would otherwise take the next tests' jobs.
  afterAll(() => app.close());

  it('runs a sent job with its data', async () => {
    const id = await app.parley.jobs.send('test.echo', { conversationId: 'c-1', text: 'Hello' });
    expect(id).toEqual(expect.any(String));
    await app.parley.jobs.drain();
    const run = runs.find((r) => r.info.id === id);
    expect(run?.data).toEqual({ conversationId: 'c-1', text: 'Hello' });
    expect(run?.info).toMatchObject({ name: 'test.echo', retryCount: 0 });
    expect(await stateOf(id!)).toBe('completed');
  });

  it('retries a failing job until it succeeds', async () => {
    const id = await app.parley.jobs.send('test.flaky', { n: 1 });
    await app.parley.jobs.drain();
    const attempts = runs.filter((r) => r.info.id === id).map((r) => r.info.retryCount);
    expect(attempts).toEqual([0, 1, 2]);
    expect(await stateOf(id!)).toBe('completed');
  });

  it('gives up after the retry limit and keeps the job as failed', async () => {
    const id = await app.parley.jobs.send('test.doomed', {});
    await app.parley.jobs.drain();
    expect(runs.filter((r) => r.info.id === id)).toHaveLength(2);
    expect(await stateOf(id!)).toBe('failed');
  });

  it('queues one job per singletonKey while it waits', async () => {
    const first = await app.parley.jobs.send('test.echo', { v: 1 }, { singletonKey: 'import:42', startAfter: 1 });
    const second = await app.parley.jobs.send('test.echo', { v: 2 }, { singletonKey: 'import:42', startAfter: 1 });
    const other = await app.parley.jobs.send('test.echo', { v: 3 }, { singletonKey: 'import:43', startAfter: 1 });
    expect(first).toEqual(expect.any(String));
    expect(second).toBeNull();
    expect(other).toEqual(expect.any(String));
    await app.parley.jobs.drain();
    expect(runs.filter((r) => r.info.id === first || r.info.id === other).map((r) => r.data)).toEqual([{ v: 1 }, { v: 3 }]);
    expect(runs.some((r) => (r.data as { v?: number }).v === 2)).toBe(false);
  });

  it('sends inside a transaction: nothing on rollback, the job on commit', async () => {
    await expect(
      database.transaction(async (tx) => {
        await app.parley.jobs.send('test.echo', { tx: 'rolled back' }, { tx });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    const id = await database.transaction((tx) => app.parley.jobs.send('test.echo', { tx: 'committed' }, { tx }));
    await app.parley.jobs.drain();
    expect(runs.filter((r) => (r.data as { tx?: string }).tx).map((r) => r.data)).toEqual([{ tx: 'committed' }]);
    expect(await stateOf(id!)).toBe('completed');
  });

  it('refuses an unlisted job name', async () => {
    await expect(app.parley.jobs.send('test.nobody', {})).rejects.toThrow('Unknown job test.nobody');
    expect(() => app.parley.jobs.register('test.nobody', async () => undefined)).toThrow('Unknown job test.nobody');
  });
});

describe('start and stop', () => {
  it('refuses to start while a listed job has no handler', async () => {
    const app = await buildApp({
      config: testConfig(),
      database,
      logger: false,
      jobs: { definitions: { ...jobDefinitions, 'test.orphan': {} } },
    });
    await expect(app.ready()).rejects.toThrow('Job test.orphan has no handler');
    await app.close();
  });

  it('runs a job sent before a restart after the next start', async () => {
    const before: unknown[] = [];
    const first = await startApp({ 'test.restart': async (data) => void before.push(data) });
    const id = await first.parley.jobs.send('test.restart', { order: 'A-17' }, { startAfter: 1 });
    await first.close();
    expect(before).toEqual([]);

    const after: unknown[] = [];
    const second = await startApp({ 'test.restart': async (data) => void after.push(data) });
    await second.parley.jobs.drain();
    expect(after).toEqual([{ order: 'A-17' }]);
    expect(await stateOf(id!)).toBe('completed');
    await second.close();
  });

  it('closes without hanging while a job runs, and the interrupted job runs again on the next start', async () => {
    let release!: () => void;
    const started = new Promise<void>((r) => (release = r));
    const first = await startApp({
      'test.slow': async () => {
        release();
        await new Promise(() => undefined); // never finishes: the process "dies" with it
      },
    });
    const id = await first.parley.jobs.send('test.slow', { campaign: 'spring' });
    await started;
    const t0 = Date.now();
    await first.close();
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(await stateOf(id!)).toBe('retry');

    const done: unknown[] = [];
    const second = await startApp({ 'test.slow': async (data) => void done.push(data) });
    await second.parley.jobs.drain();
    expect(done).toEqual([{ campaign: 'spring' }]);
    await second.close();
  });
});
