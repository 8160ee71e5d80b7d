/**
 * What a process may be told to skip (BuildAppOptions.mode, `--no-jobs` / `--jobs-only`), on PostgreSQL (two apps
 * on one database): a no-jobs process accepts a webhook and leaves its job queued, and the message appears only
 * once a jobs-only process runs it; a jobs-only process answers its health checks and nothing else.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { rowsOf } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import type { SandboxAccount } from '../../src/sandbox';
import { TestApp, buildTestApp, testConfig, type Session } from '../support/server';
import { inbound, postWebhook, testAppSecret, testSecretsKey, testVerifyToken } from '../support/sandbox-webhooks';
import { until } from '../support/until';

let ta: TestApp;
let admin: Session;
let number: SandboxAccount;
const apps: FastifyInstance[] = [];

/** Another process on the same database and sandbox, told what to skip. */
async function otherProcess(mode: 'no-jobs' | 'jobs-only'): Promise<TestApp> {
  const config = testConfig({ graphApiUrl: ta.sandbox.baseUrl, whatsappAppSecret: testAppSecret, whatsappVerifyToken: testVerifyToken, secretsKey: testSecretsKey });
  const app = await buildApp({ config, database: ta.database, logger: false, mode, jobs: { stopTimeoutMs: 1000 } });
  apps.push(app);
  await app.ready();
  return new TestApp(app, ta.database, () => Promise.resolve());
}

const stored = async (text: string) =>
  (await ta.db.select({ id: t.messages.id }).from(t.messages).where(eq(t.messages.text, text))).length;

async function webhookJobStates(): Promise<string[]> {
  const res = await ta.db.execute(sql`select state::text as state from pgboss.job where name = 'whatsapp.webhook'`);
  return rowsOf<{ state: string }>(res).map((r) => r.state);
}

describe.runIf(!!process.env.DATABASE_URL)('processes told to skip work (PostgreSQL)', () => {
  beforeAll(async () => {
    ta = await buildTestApp();
    await ta.app.ready();
    admin = await ta.newAdmin('Modes Shop');
    number = ta.sandbox.addAccount();
    const acc = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId } });
    expect(acc.statusCode, acc.body).toBe(201);
    await ta.sandbox.settle();
    await ta.app.parley.jobs.drain();
    // From here on the seeding app runs nothing: only the processes under test may.
    await ta.app.parley.services.campaignRunner.stop();
    await ta.app.parley.jobs.stop();
  }, 120_000);
  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
    await ta?.close();
  });

  it('a no-jobs process queues a received webhook; the message is stored only once a jobs-only process runs it', async () => {
    const web = await otherProcess('no-jobs');
    const res = await postWebhook(web, inbound(number.phoneNumberId, '16505550101', { type: 'text', text: { body: 'left for the workers' } }));
    expect(res.statusCode).toBe(200);
    // Several polling intervals (0.5 s in tests): nobody takes the job.
    await new Promise((r) => setTimeout(r, 3000));
    expect(await stored('left for the workers')).toBe(0);
    expect(await webhookJobStates()).toEqual(['created']);

    await otherProcess('jobs-only');
    await until(async () => (await stored('left for the workers')) === 1, 20_000);
    // The no-jobs process still serves the API: the member sees the message through it.
    const list = await web.call('GET', `/workspace/${admin.workspaceId}/conversations`, { token: admin.token });
    expect(list.statusCode, list.body).toBe(200);
  }, 60_000);

  it('a jobs-only process answers its health checks and nothing else', async () => {
    const worker = await otherProcess('jobs-only');
    expect((await worker.call('GET', '/healthz')).statusCode).toBe(200);
    expect((await worker.call('GET', '/readyz')).json()).toMatchObject({ status: 'ready' });
    expect((await worker.call('GET', `/workspace/${admin.workspaceId}/conversations`, { token: admin.token })).statusCode).toBe(404);
    const webhook = await postWebhook(worker, inbound(number.phoneNumberId, '16505550102', { type: 'text', text: { body: 'not here' } }));
    expect(webhook.statusCode).toBe(404);
    expect((await worker.call('GET', '/docs')).statusCode).toBe(404);
  }, 30_000);
});
