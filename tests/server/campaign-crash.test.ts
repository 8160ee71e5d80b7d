/**
 * The campaign runner across real server processes, on PostgreSQL (a second process cannot
 * open the first one's PGlite): a server killed with SIGKILL in the middle of a campaign and started again
 * carries on with no recipient sent twice and every recipient one outcome; two servers share one campaign
 * with no recipient sent twice. The test process seeds through its own app (its runner stopped) and hosts
 * the sandbox; the children only run the campaign.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import * as t from '../../src/server/db/schema';
import type { SandboxAccount } from '../../src/sandbox';
import { TestApp, onPostgres, openTestDatabase, serverProcessEnv, testConfig, type Session } from '../support/server';
import { allowUsMarketing } from '../support/us-marketing';
import { startTestSandbox } from '../support/sandbox';
import { testAppSecret, testSecretsKey, testVerifyToken } from '../support/sandbox-webhooks';
import { type ServerProcess, answers, killAllServerProcesses, killHard, startServerProcess } from '../support/server-process';
import { until } from '../support/until';

let ta: TestApp;
let url: string;
let admin: Session;
let number: SandboxAccount;
let accountId: string;
let templateId: string;
let segmentId: string;

/** A server process on the shared database, with the default lease (renewed while a batch runs). */
const startServer = (): Promise<ServerProcess> => startServerProcess(serverProcessEnv(url, ta.sandbox.baseUrl));

async function deployed(n: number, batch: string) {
  await ta.db.insert(t.contacts).values(
    Array.from({ length: n }, (_, i) => ({
      workspaceId: admin.workspaceId,
      phoneNumber: `+1628${batch === 'K' ? 1 : 2}${String(100000 + i).padStart(6, '0')}`,
      name: `Crash ${i}`,
      attributes: { batch },
    })),
  );
  const seg = await ta.call('POST', '/segment', {
    token: admin.token,
    body: { name: `Batch ${batch}`, filters: [{ column: 'batch', operator: 'IS', value: batch, conjuction: 'AND' }], workspaceId: admin.workspaceId },
  });
  segmentId = seg.json().id;
  const created = await ta.call('POST', '/campaign', { token: admin.token, body: { workspaceId: admin.workspaceId, type: 'oneTime' } });
  const id = created.json().id as string;
  const rfInstance = {
    nodes: [
      { id: 'trigger', type: 'OneTimeTriggerNode', position: { x: 0, y: 0 }, data: { label: 'Start', segmentId } },
      { id: 'send', type: 'SendWhatsappNode', position: { x: 0, y: 100 }, data: { label: 'Send', whatsappAccountId: accountId, whatsappTemplateId: templateId } },
    ],
    edges: [{ id: 'e', source: 'trigger', target: 'send' }],
  };
  expect((await ta.call('PATCH', `/campaign/${id}`, { token: admin.token, body: { rfInstance } })).statusCode).toBe(200);
  const res = await ta.call('POST', `/campaign/${id}/deploy`, { token: admin.token, body: {} });
  expect(res.statusCode, res.body).toBe(200);
  return id;
}

async function outcomes(id: string) {
  const recipients = await ta.db.select().from(t.campaignRecipients).where(eq(t.campaignRecipients.campaignId, id));
  const logs = await ta.db.select().from(t.campaignLogs).where(eq(t.campaignLogs.campaignId, id));
  return { recipients, logs };
}

/** Waits for the campaign to complete; a timeout says where its recipients stand. */
async function completed(id: string, ms: number) {
  await until(async () => (await ta.db.select().from(t.campaigns).where(eq(t.campaigns.id, id)))[0].status === 'completed', ms).catch(async (err: Error) => {
    const left = (await outcomes(id)).recipients.map((r) => `${r.status}@${r.nextAt?.toISOString() ?? '-'}`);
    const counts = left.reduce<Record<string, number>>((acc, k) => ({ ...acc, [k.split('@')[0]]: (acc[k.split('@')[0]] ?? 0) + 1 }), {});
    const sends = await ta.db.select({ status: t.outboundSends.status }).from(t.outboundSends).where(eq(t.outboundSends.workspaceId, admin.workspaceId));
    const bySend = sends.reduce<Record<string, number>>((acc, x) => ({ ...acc, [x.status]: (acc[x.status] ?? 0) + 1 }), {});
    throw new Error(
      `${err.message}: recipients ${JSON.stringify(counts)}, pending ones due ${JSON.stringify(left.filter((k) => !k.startsWith('done')).slice(0, 5))}, ` +
        `outbound sends ${JSON.stringify(bySend)}, now ${new Date().toISOString()}`,
    );
  });
}

/** Sends per customer of this batch, from the sandbox's own record. */
function sentTo(prefix: string) {
  const per = ta.sandbox.deliveries(number.phoneNumberId).perRecipient;
  return Object.entries(per).filter(([waId]) => waId.startsWith(prefix));
}

describe.skipIf(!onPostgres)('the campaign runner across processes (PostgreSQL)', () => {
  beforeAll(async () => {
    const opened = await openTestDatabase();
    url = opened.url!;
    const target: { app?: FastifyInstance } = {};
    const sandbox = await startTestSandbox(() => target.app);
    const app = await buildApp({
      config: testConfig({ graphApiUrl: sandbox.baseUrl, whatsappAppSecret: testAppSecret, whatsappVerifyToken: testVerifyToken, secretsKey: testSecretsKey }),
      database: opened.database,
      logger: false,
    });
    target.app = app;
    ta = new TestApp(app, opened.database, async () => {
      await sandbox.close();
      await opened.dispose();
    });
    ta.sandbox = sandbox;
    await app.ready();
    // This process seeds and receives the webhooks; only the children run campaigns.
    await app.parley.services.campaignRunner.stop();
    admin = await ta.newAdmin('Crash Test Shop');
    await allowUsMarketing(ta, admin);
    number = ta.sandbox.addAccount();
    // Parley paces the number at its tier (20/s, as the sandbox is set below): the tests are about crashes, not
    // about 130429s (a pacer at 80/s against a 20/s number made most sends back off and the test slow and flaky).
    const acc = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId, throughputPerSecond: 20 } });
    expect(acc.json().throughputPerSecond).toBe(20);
    accountId = acc.json().id;
    await ta.call('POST', '/attribute', { token: admin.token, body: { name: 'batch', format: 'text', workspaceId: admin.workspaceId } });
    const tpl = await ta.call('POST', '/whatsapp-template', {
      token: admin.token,
      body: { name: 'crash_sale', language: 'en_US', category: 'MARKETING', components: [{ type: 'BODY', text: 'Sale today' }], whatsappAccountId: accountId, workspaceId: admin.workspaceId },
    });
    templateId = tpl.json().id;
    await ta.sandbox.settle();
    await ta.app.parley.jobs.drain();
  }, 120_000);
  afterAll(async () => {
    await killAllServerProcesses();
    await ta?.close();
  });

  it('a process killed with SIGKILL at a third: its claims go out again within 30 s of its death, no recipient twice, every recipient one outcome', async () => {
    ta.sandbox.setThroughput(number.phoneNumberId, 20);
    const first = await startServer();
    const id = await deployed(150, 'K');
    // The first process claims every recipient (one batch).
    await until(() => sentTo('16281').length >= 50, 60_000);
    await killHard(first);
    const killedAt = Date.now();
    // Started again at once.
    const second = startServer().then((p) => ({ p, readyAt: Date.now() }));
    await new Promise((r) => setTimeout(r, 300)); // requests that had fully left before the kill
    const atKill = sentTo('16281').length;
    // The server itself is gone (not a wrapper around it): nothing answers on its port, nothing more is sent.
    expect(await answers(first)).toBe(false);
    await new Promise((r) => setTimeout(r, 1500));
    expect(sentTo('16281').length).toBe(atKill);
    // In flight at the kill: sends claimed and never finished. Only these may end unknown (a send still waiting for
    // its pacer slot is not claimed yet, so it goes normally after the restart).
    const inFlight = (await ta.db.select().from(t.outboundSends).where(and(eq(t.outboundSends.workspaceId, admin.workspaceId), eq(t.outboundSends.status, 'claimed')))).length;
    expect(atKill).toBeLessThan(150);

    // The dead process's claims end within one lease of its death (20 s, renewed every 5 s while it lived); the new
    // process sends them from then on. Its own start-up counts only when a loaded machine makes it the later of
    // the two (then it sends within seconds of being ready).
    const { readyAt } = await second;
    await until(() => sentTo('16281').length > atKill, 120_000);
    expect(Date.now()).toBeLessThanOrEqual(Math.max(killedAt + 30_000, readyAt + 10_000));
    await completed(id, 120_000);
    const { recipients, logs } = await outcomes(id);
    expect(recipients).toHaveLength(150);
    expect(recipients.every((r) => r.status === 'done' || r.status === 'failed')).toBe(true);
    expect(logs).toHaveLength(150);
    const sent = sentTo('16281');
    expect(ta.sandbox.deliveries(number.phoneNumberId).duplicates).toBe(0);
    expect(sent.every(([, n]) => n === 1)).toBe(true);
    // A send in flight at the kill may be unknown (never resent); every other one was sent.
    const unknown = logs.filter((l) => l.deliveryState === 'unknown').length;
    expect(unknown).toBeLessThanOrEqual(inFlight);
    expect(logs.filter((l) => l.messageStatus === 'success').length + unknown).toBe(150);
    expect(sent.length).toBeGreaterThanOrEqual(150 - unknown);
  }, 420_000);

  it('two servers share one campaign with no recipient sent twice', async () => {
    await killAllServerProcesses();
    ta.sandbox.setThroughput(number.phoneNumberId, 40);
    await Promise.all([startServer(), startServer()]);
    const id = await deployed(200, 'S');
    await completed(id, 180_000);
    const { logs } = await outcomes(id);
    expect(logs).toHaveLength(200);
    expect(logs.every((l) => l.messageStatus === 'success')).toBe(true);
    const sent = sentTo('16282');
    expect(sent).toHaveLength(200);
    expect(sent.every(([, n]) => n === 1)).toBe(true);
  }, 300_000);
});
