/**
 * Three real server processes on one PostgreSQL database behind HAProxy (the layout of docs/operations.md,
 * "Several processes"): two web processes that also run jobs, behind the proxy, and one jobs-only process beside
 * them. Webhooks, event streams, a campaign and bot sessions go through the proxy and are spread across them;
 * the web process that is sending the campaign is killed with SIGKILL while the campaign runs and the bot
 * sessions wait for their customers. Nothing is sent twice, every campaign recipient gets one outcome, every
 * customer's answer is received once and answered once, and every stream reconnects through the proxy and
 * resumes from Last-Event-ID with contiguous ids. The three share one S3 bucket (s3rver): a file uploaded to one web
 * process is served by the other, and through the proxy after the kill.
 *
 * The test process hosts the sandbox (each server reaches it through a counting forwarder, which tells which
 * process sends) and seeds through an app of its own whose jobs and campaign runner stop before the servers start.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import * as t from '../../src/server/db/schema';
import { latestSeq } from '../../src/server/repositories/event-log';
import { type Sandbox, type SandboxAccount, startSandbox } from '../../src/sandbox';
import { TestApp, openTestDatabase, serverProcessEnv, testConfig, type Session } from '../support/server';
import { testAppSecret, testSecretsKey, testVerifyToken } from '../support/sandbox-webhooks';
import { allowUsMarketing } from '../support/us-marketing';
import { type ServerProcess, answers, killAllServerProcesses, killHard, startServerProcess } from '../support/server-process';
import { type GraphForwarder, startGraphForwarder } from '../support/graph-forwarder';
import { type Proxy, startHaproxy } from '../support/haproxy';
import { type ResumingStream, firstGap, openResumingStream } from '../support/sse-client';
import { until } from '../support/until';
import { seedWishBot } from '../support/wish-bot';
import { type TestBucket, startTestBucket } from '../support/s3';
import { multipartBody } from '../support/multipart';

// This helper's ports (loopback): the proxy, then the three servers.
const proxyPort = 47400;
const webPorts = [47401, 47402];
const workerPort = 47403;
const recipients = 450;
const customers = Array.from({ length: 20 }, (_, i) => `1629777${String(1000 + i)}`);
const campaignPrefix = '16283';

let ta: TestApp;
let sandbox: Sandbox;
let admin: Session;
let number: SandboxAccount;
let accountId: string;
let templateId: string;
let proxy: Proxy | undefined;
/** The file store the three processes share (a local S3-compatible server). */
let bucket: TestBucket;
const forwarders: GraphForwarder[] = [];
const streams: ResumingStream[] = [];

/** A one-time campaign of `recipients` contacts, ready to deploy (through the proxy). */
async function campaignDraft(): Promise<string> {
  await ta.call('POST', '/attribute', { token: admin.token, body: { name: 'batch', format: 'text', workspaceId: admin.workspaceId } });
  await ta.db.insert(t.contacts).values(
    Array.from({ length: recipients }, (_, i) => ({ workspaceId: admin.workspaceId, phoneNumber: `+${campaignPrefix}${String(100000 + i)}`, name: `Several ${i}`, attributes: { batch: 'P' } })),
  );
  const seg = await ta.call('POST', '/segment', {
    token: admin.token,
    body: { name: 'Batch P', filters: [{ column: 'batch', operator: 'IS', value: 'P', conjuction: 'AND' }], workspaceId: admin.workspaceId },
  });
  const id = (await ta.call('POST', '/campaign', { token: admin.token, body: { workspaceId: admin.workspaceId, type: 'oneTime' } })).json().id as string;
  const rfInstance = {
    nodes: [
      { id: 'trigger', type: 'OneTimeTriggerNode', position: { x: 0, y: 0 }, data: { label: 'Start', segmentId: seg.json().id } },
      { id: 'send', type: 'SendWhatsappNode', position: { x: 0, y: 100 }, data: { label: 'Send', whatsappAccountId: accountId, whatsappTemplateId: templateId } },
    ],
    edges: [{ id: 'e', source: 'trigger', target: 'send' }],
  };
  expect((await ta.call('PATCH', `/campaign/${id}`, { token: admin.token, body: { rfInstance } })).statusCode).toBe(200);
  return id;
}

const viaProxy = (method: string, url: string, body?: unknown) =>
  fetch(`${proxy!.baseUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${admin.token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

/** The sandbox's outbound messages to one customer, as text. */
const sentTo = (waId: string) => sandbox.sent.filter((m) => m.waId === waId).map((m) => JSON.stringify(m.body));
const campaignSends = () => Object.entries(sandbox.deliveries(number.phoneNumberId).perRecipient).filter(([waId]) => waId.startsWith(campaignPrefix));

describe.runIf(!!process.env.DATABASE_URL)('three server processes behind HAProxy (PostgreSQL)', () => {
  let web: ServerProcess[] = [];

  beforeAll(async () => {
    const opened = await openTestDatabase();
    bucket = await startTestBucket('parley-three-processes');
    const seeding: { app?: FastifyInstance } = {};
    sandbox = await startSandbox({
      port: 0,
      appSecret: testAppSecret,
      templateReviewDelayMs: 300,
      statusDelayMs: 20,
      webhookRetryDelayMs: 200,
      // Webhooks go through the proxy once it runs; before, to the seeding app (which queues them for the servers).
      deliver: async (rawBody, headers) => {
        if (proxy) {
          const res = await fetch(`${proxy.baseUrl}/webhooks/whatsapp`, { method: 'POST', headers: headers as Record<string, string>, body: rawBody }).catch(() => null);
          return res?.status ?? 503;
        }
        const res = await seeding.app?.inject({ method: 'POST', url: '/webhooks/whatsapp', headers, payload: rawBody });
        return res?.statusCode ?? 503;
      },
    });
    const config = testConfig({ graphApiUrl: sandbox.baseUrl, whatsappAppSecret: testAppSecret, whatsappVerifyToken: testVerifyToken, secretsKey: testSecretsKey });
    seeding.app = await buildApp({ config, database: opened.database, logger: false });
    ta = new TestApp(seeding.app, opened.database, async () => {
      await sandbox.close();
      await opened.dispose();
    });
    ta.sandbox = sandbox;
    await seeding.app.ready();
    admin = await ta.newAdmin('Several Processes Shop');
    await allowUsMarketing(ta, admin);
    number = sandbox.addAccount();
    sandbox.setThroughput(number.phoneNumberId, 40);
    const acc = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId, throughputPerSecond: 40 } });
    accountId = acc.json().id;
    const tpl = await ta.call('POST', '/whatsapp-template', {
      token: admin.token,
      body: { name: 'several_sale', language: 'en_US', category: 'MARKETING', components: [{ type: 'BODY', text: 'Sale today' }], whatsappAccountId: accountId, workspaceId: admin.workspaceId },
    });
    templateId = tpl.json().id;
    await seedWishBot(ta, admin, accountId);
    await sandbox.settle();
    await seeding.app.parley.jobs.drain();
    // From here on the seeding app runs nothing: only the three servers do.
    await seeding.app.parley.services.campaignRunner.stop();
    await seeding.app.parley.jobs.stop();

    // Two web processes that also run jobs, and one jobs-only process; each reaches the sandbox through a forwarder.
    for (let i = 0; i < 3; i++) forwarders.push(await startGraphForwarder(sandbox.baseUrl));
    const s3Env = {
      S3_BUCKET: bucket.s3.bucket,
      S3_ENDPOINT: bucket.s3.endpoint,
      S3_ACCESS_KEY_ID: bucket.s3.credentials!.accessKeyId,
      S3_SECRET_ACCESS_KEY: bucket.s3.credentials!.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    };
    const env = (i: number, port: number) => ({ ...serverProcessEnv(opened.url!, forwarders[i].baseUrl), ...s3Env, PORT: String(port), CAMPAIGN_LEASE_SECONDS: '10' });
    const started = await Promise.all([
      startServerProcess(env(0, webPorts[0]), { readyMs: 120_000 }),
      startServerProcess(env(1, webPorts[1]), { readyMs: 120_000 }),
      startServerProcess(env(2, workerPort), { readyMs: 120_000, args: ['--jobs-only'] }),
    ]);
    web = started.slice(0, 2);
    proxy = await startHaproxy(proxyPort, webPorts);
    await until(async () => (await ta.db.select().from(t.whatsappTemplates).where(eq(t.whatsappTemplates.id, templateId)))[0]?.status === 'APPROVED', 30_000);
  }, 170_000);

  afterAll(async () => {
    for (const s of streams) s.close();
    await killAllServerProcesses();
    await proxy?.stop();
    await Promise.all(forwarders.map((f) => f.close()));
    await ta?.close();
    await bucket?.close();
  });

  it('a web process killed with SIGKILL mid-campaign and mid-sessions: nothing lost or sent twice, streams resume without a gap', async () => {
    const eventsUrl = `${proxy!.baseUrl}/workspace/${admin.workspaceId}/events`;
    const from = await latestSeq(ta.db, admin.workspaceId);
    // Four streams, opened one after the other: round-robin puts two on each web process.
    for (let i = 0; i < 4; i++) {
      streams.push(openResumingStream(eventsUrl, admin.token, from));
      await until(() => streams[i].connected, 10_000);
    }

    // Bot sessions, their webhooks spread over both web processes: each waits for its customer's answer.
    await Promise.all(customers.map((waId) => sandbox.customers.say(waId, 'hi', { phoneNumberId: number.phoneNumberId })));
    await until(() => customers.every((waId) => sentTo(waId).some((b) => b.includes('What do you wish for?'))), 60_000);

    // Files: uploaded to one web process, served by the other from the shared bucket.
    const csv = 'phone,name\n+14155550177,Shared\n';
    const { payload, headers } = multipartBody({ fileName: 'shared.csv', mimeType: 'text/csv', content: csv });
    const uploaded = await fetch(`http://127.0.0.1:${webPorts[0]}/import-history/upload`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${admin.token}` },
      body: new Uint8Array(payload),
    });
    expect(uploaded.status).toBe(201);
    const filePath = new URL(((await uploaded.json()) as { fileUrl: string }).fileUrl).pathname;
    const readFrom = async (base: string) => {
      const res = await fetch(`${base}${filePath}`, { headers: { authorization: `Bearer ${admin.token}` } });
      return [res.status, await res.text()];
    };
    expect(await readFrom(`http://127.0.0.1:${webPorts[1]}`)).toEqual([200, csv]);
    expect(await bucket.keys(`${admin.workspaceId}/`)).toEqual([filePath.replace(/^\/files\//, '')]);

    const id = await campaignDraft();
    const deployed = await viaProxy('POST', `/campaign/${id}/deploy`, {});
    expect(deployed.status, await deployed.text()).toBe(200);
    await until(() => campaignSends().length >= recipients / 3, 60_000);

    // The victim: a web process that sends campaign messages now (it holds claimed recipients) if one does (the
    // jobs-only process may hold them all: which process claims a batch is a race), else the busier web process.
    const byRecent = [0, 1].sort((a, b) => forwarders[b].lastMessageAt - forwarders[a].lastMessageAt);
    const victim = byRecent[0];
    await killHard(web[victim]);
    const killedAt = Date.now();
    expect(await answers(web[victim])).toBe(false);
    await new Promise((r) => setTimeout(r, 300)); // requests that had fully left before the kill
    const atKill = campaignSends().length;
    expect(atKill).toBeLessThan(recipients);
    // Sends claimed and never finished: only these may end unknown (never resent).
    const inFlight = (await ta.db.select().from(t.outboundSends).where(and(eq(t.outboundSends.workspaceId, admin.workspaceId), eq(t.outboundSends.status, 'claimed')))).length;
    const othersAtKill = forwarders.map((f) => f.messages);

    // The customers answer at once, while the proxy may still think the dead process alive.
    await Promise.all(customers.map((waId, i) => sandbox.customers.say(waId, `wish ${i}`, { phoneNumberId: number.phoneNumberId })));

    // The campaign completes on the surviving processes, within one lease of the death.
    await until(async () => (await ta.db.select().from(t.campaigns).where(eq(t.campaigns.id, id)))[0].status === 'completed', 120_000);
    expect(Date.now() - killedAt).toBeLessThan(90_000);
    const logs = await ta.db.select().from(t.campaignLogs).where(eq(t.campaignLogs.campaignId, id));
    const rows = await ta.db.select().from(t.campaignRecipients).where(eq(t.campaignRecipients.campaignId, id));
    expect(rows).toHaveLength(recipients);
    expect(rows.every((r) => r.status === 'done' || r.status === 'failed')).toBe(true);
    expect(logs).toHaveLength(recipients);
    expect(sandbox.deliveries(number.phoneNumberId).duplicates).toBe(0);
    const sent = campaignSends();
    expect(sent.every(([, n]) => n === 1)).toBe(true);
    const unknown = logs.filter((l) => l.deliveryState === 'unknown').length;
    expect(unknown).toBeLessThanOrEqual(inFlight);
    expect(logs.filter((l) => l.messageStatus === 'success').length + unknown).toBe(recipients);
    expect(sent.length).toBeGreaterThanOrEqual(recipients - unknown);
    // The survivors did the rest (the dead one sent nothing more).
    expect(forwarders[victim].messages).toBe(othersAtKill[victim]);
    expect(forwarders.reduce((n, f) => n + f.messages, 0)).toBeGreaterThan(othersAtKill.reduce((n, m) => n + m, 0));

    // The file outlives whichever process died: the proxy's survivor serves it.
    expect(await readFrom(proxy!.baseUrl)).toEqual([200, csv]);

    // Every answer was received once and answered once; every session completed, nothing sent twice.
    await until(() => customers.every((waId, i) => sentTo(waId).some((b) => b.includes(`Wish noted: wish ${i}`))), 60_000);
    for (const [i, waId] of customers.entries()) {
      const all = sentTo(waId);
      expect(all.filter((b) => b.includes('Hello from the bot'))).toHaveLength(1);
      expect(all.filter((b) => b.includes('What do you wish for?'))).toHaveLength(1);
      expect(all.filter((b) => b.includes(`Wish noted: wish ${i}`))).toHaveLength(1);
      expect(all).toHaveLength(3);
      expect(await ta.db.select({ id: t.messages.id }).from(t.messages).where(eq(t.messages.text, `wish ${i}`))).toHaveLength(1);
    }
    const sessions = await ta.db.select().from(t.botSessions).where(eq(t.botSessions.workspaceId, admin.workspaceId));
    expect(sessions).toHaveLength(customers.length);
    expect(sessions.every((s) => s.status === 'ended' && s.endReason === 'completed')).toBe(true);

    // Streams: the victim's reconnected through the proxy; every stream has every event since `from`, once, in order.
    await sandbox.settle();
    let newest = 0;
    await until(async () => {
      newest = await latestSeq(ta.db, admin.workspaceId);
      return streams.every((s) => s.ids.at(-1) === newest);
    }, 30_000);
    expect(streams.filter((s) => s.reconnects > 0).length).toBeGreaterThan(0);
    expect(streams.filter((s) => s.reconnects === 0).length).toBeGreaterThan(0);
    for (const s of streams) {
      expect(firstGap(s.ids, from)).toBeNull();
      expect(s.ids).toHaveLength(newest - from);
    }
  }, 170_000);
});
