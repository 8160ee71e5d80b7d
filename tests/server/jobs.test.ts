/**
 * Durable jobs (pg-boss) on the database the server runs on: PGlite here, PostgreSQL with DATABASE_URL.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../../src/server/app';
import { type Database, rowsOf } from '../../src/server/db/client';
import type { JobDefinition } from '../../src/server/jobs/names';
import { jobDefinitions } from '../../src/server/app/jobs';
import type { JobInfo, JobQueue } from '../../src/server/jobs/queue';
import type { JobHandler } from '../../src/server/jobs/handler-types';
import { type Config } from '../../src/server/config';
import { openTestDatabase, testConfig } from '../support/server';

const anything = { payload: z.record(z.string(), z.unknown()) } satisfies JobDefinition;
const ownJobs = {
  'test.echo': anything,
  'test.flaky': anything,
  'test.doomed': { ...anything, retryLimit: 1 },
  'test.restart': anything,
  'test.slow': anything,
  /** A typed payload: what `send` takes is checked, the handler receives the parsed value. */
  'test.typed': { payload: z.object({ orderId: z.uuid(), amount: z.coerce.number().int().positive(), note: z.string().default('none') }) },
  /** Run by the process that queued it; workers only after a minute (so a run within seconds is the sender's). */
  'test.here': { ...anything, runInSenderSeconds: 60 },
  /** Run by the sender too, but its first run fails: a worker retries it after the retry delay, not the minute. */
  'test.here-flaky': { ...anything, runInSenderSeconds: 60 },
};
// The product's jobs stay listed: their handlers are registered by the app as usual (src/server/app/jobs.ts).
const testJobs = { ...jobDefinitions, ...ownJobs };
type TestJobs = typeof testJobs;
/** The app's queue, seen with the test jobs' names and payloads. */
const jobsOf = (app: FastifyInstance) => app.parley.jobs as unknown as JobQueue<TestJobs>;

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
    jobsOf(app).register(name, (handlers[name] ?? (async () => undefined)) as never);
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
      'test.typed': async (data, info) => void runs.push({ name: 'test.typed', data, info }),
      'test.doomed': async (data, info) => {
        runs.push({ name: 'test.doomed', data, info });
        throw new Error('always fails');
      },
    });
  });
  // Its workers would otherwise take the next tests' jobs.
  afterAll(() => app.close());

  it('runs a sent job with its data', async () => {
    const id = await jobsOf(app).send('test.echo', { conversationId: 'c-1', text: 'Hello' });
    expect(id).toEqual(expect.any(String));
    await app.parley.jobs.drain();
    const run = runs.find((r) => r.info.id === id);
    expect(run?.data).toEqual({ conversationId: 'c-1', text: 'Hello' });
    expect(run?.info).toMatchObject({ name: 'test.echo', retryCount: 0 });
    expect(await stateOf(id!)).toBe('completed');
  });

  it('retries a failing job until it succeeds', async () => {
    const id = await jobsOf(app).send('test.flaky', { n: 1 });
    await app.parley.jobs.drain();
    const attempts = runs.filter((r) => r.info.id === id).map((r) => r.info.retryCount);
    expect(attempts).toEqual([0, 1, 2]);
    expect(await stateOf(id!)).toBe('completed');
  });

  it('gives up after the retry limit and keeps the job as failed', async () => {
    const id = await jobsOf(app).send('test.doomed', {});
    await app.parley.jobs.drain();
    expect(runs.filter((r) => r.info.id === id)).toHaveLength(2);
    expect(await stateOf(id!)).toBe('failed');
  });

  it('queues one job per singletonKey while it waits', async () => {
    const first = await jobsOf(app).send('test.echo', { v: 1 }, { singletonKey: 'import:42', startAfter: 1 });
    const second = await jobsOf(app).send('test.echo', { v: 2 }, { singletonKey: 'import:42', startAfter: 1 });
    const other = await jobsOf(app).send('test.echo', { v: 3 }, { singletonKey: 'import:43', startAfter: 1 });
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
        await jobsOf(app).send('test.echo', { tx: 'rolled back' }, { tx });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    const id = await database.transaction((tx) => jobsOf(app).send('test.echo', { tx: 'committed' }, { tx }));
    await app.parley.jobs.drain();
    expect(runs.filter((r) => (r.data as { tx?: string }).tx).map((r) => r.data)).toEqual([{ tx: 'committed' }]);
    expect(await stateOf(id!)).toBe('completed');
  });

  it('refuses an unlisted job name', async () => {
    const untyped = app.parley.jobs as unknown as JobQueue<Record<string, JobDefinition>>;
    await expect(untyped.send('test.nobody', {})).rejects.toThrow('Unknown job test.nobody');
    expect(() => untyped.register('test.nobody', async () => undefined)).toThrow('Unknown job test.nobody');
  });

  it('checks a payload against its schema when it is sent: a bad one is refused and nothing is queued', async () => {
    const queued = async () =>
      rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from pgboss.job where name = 'test.typed'`))[0].n;
    const before = await queued();
    await expect(jobsOf(app).send('test.typed', { orderId: 'not-a-uuid', amount: 3 })).rejects.toThrow(z.ZodError);
    await expect(jobsOf(app).send('test.typed', { orderId: '0b7c4a8e-8f0e-4a5e-9a55-1d2f6b9e0c11', amount: -1 })).rejects.toThrow(z.ZodError);
    // The product's own jobs are checked the same way.
    await expect(app.parley.jobs.send('whatsapp.mark-read', { workspaceId: 'w', conversationId: 'c' })).rejects.toThrow(z.ZodError);
    expect(await queued()).toBe(before);
  });

  it('hands the handler the parsed payload (defaults filled, values coerced)', async () => {
    const id = await jobsOf(app).send('test.typed', { orderId: '0b7c4a8e-8f0e-4a5e-9a55-1d2f6b9e0c11', amount: '12' });
    await app.parley.jobs.drain();
    expect(runs.find((r) => r.info.id === id)?.data).toEqual({ orderId: '0b7c4a8e-8f0e-4a5e-9a55-1d2f6b9e0c11', amount: 12, note: 'none' });
  });

  it('sends inside a transaction with a key, a delay and a nested payload the same way on every database', async () => {
    const payload = { text: 'Grüße 👋 "quoted" \\ back', list: [1, 'two', { three: [3] }], none: null, nested: { deep: { er: true } } };
    const first = await database.transaction((tx) => jobsOf(app).send('test.echo', payload, { tx, singletonKey: 'tx-key-1', startAfter: 1 }));
    // The key holds inside a transaction too: a second job with it waits for nobody.
    const second = await database.transaction((tx) => jobsOf(app).send('test.echo', { other: 1 }, { tx, singletonKey: 'tx-key-1', startAfter: 1 }));
    expect(first).toEqual(expect.any(String));
    expect(second).toBeNull();
    const [row] = rowsOf<{ data: unknown; delayed: boolean }>(
      await database.db.execute(sql`select data, start_after > created_on as delayed from pgboss.job where id = ${first}`),
    );
    expect(row).toEqual({ data: payload, delayed: true });
    await app.parley.jobs.drain({ timeoutMs: 20_000 });
    expect(runs.find((r) => r.info.id === first)?.data).toEqual(payload);
  });
});

describe('a job sent inside a transaction before the queue has started', () => {
  it('is refused at once with a clear error on every database (never waits for its own transaction)', async () => {
    const app = await buildApp({ config: testConfig(), database, logger: false, jobs: { definitions: testJobs, stopTimeoutMs: 1000 } });
    await expect(
      database.transaction((tx) => jobsOf(app).send('test.echo', { early: true }, { tx })),
    ).rejects.toThrow('The job queue has not started');
    await app.close();
  });
});

describe('start and stop', () => {
  it('refuses to start while a listed job has no handler', async () => {
    const app = await buildApp({
      config: testConfig(),
      database,
      logger: false,
      jobs: { definitions: { ...jobDefinitions, 'test.orphan': anything } },
    });
    await expect(app.ready()).rejects.toThrow('Job test.orphan has no handler');
    await app.close();
  });

  it('runs a job sent before a restart after the next start', async () => {
    const before: unknown[] = [];
    const first = await startApp({ 'test.restart': async (data) => void before.push(data) });
    const id = await jobsOf(first).send('test.restart', { order: 'A-17' }, { startAfter: 1 });
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
    const id = await jobsOf(first).send('test.slow', { campaign: 'spring' });
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

describe('jobs run in the process that queued them (runInSenderSeconds)', () => {
  it('runs the job from memory right after its commit, then deletes it; no worker runs it again', async () => {
    const runs: { data: unknown; at: number }[] = [];
    const app = await startApp({ 'test.here': async (data) => void runs.push({ data, at: Date.now() }) });
    const sentAt = Date.now();
    const id = await jobsOf(app).send('test.here', { wamid: 'wamid.1' });
    await expect.poll(() => runs.length, { timeout: 5000 }).toBe(1);
    // Workers could not have fetched it: its startAfter is a minute away.
    expect(runs[0].at - sentAt).toBeLessThan(5000);
    expect(runs[0].data).toEqual({ wamid: 'wamid.1' });
    await expect.poll(() => stateOf(id!), { timeout: 5000 }).toBe('missing');
    await app.close();
  });

  it('counts a failed run here as the first attempt: a worker retries it after the retry delay', async () => {
    const runs: unknown[] = [];
    let failures = 1;
    const app = await startApp({
      'test.here-flaky': async (data) => {
        runs.push(data);
        if (failures-- > 0) throw new Error('the database went away for a moment');
      },
    });
    const id = await jobsOf(app).send('test.here-flaky', { wamid: 'wamid.2' });
    await expect.poll(() => stateOf(id!), { timeout: 15_000 }).toBe('completed');
    expect(runs).toEqual([{ wamid: 'wamid.2' }, { wamid: 'wamid.2' }]);
    await app.close();
  });
});
