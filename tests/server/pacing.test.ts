/**
 * Pacing per WhatsApp number across server processes: two app instances on one database send to one number at
 * once, and the sandbox's token bucket (which answers 130429 above the number's rate) never refuses them.
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox';
import { buildApp } from '../../src/server/app';
import { type Database, openDatabase } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import { backoffCount } from '../support/outbound-state';
import { testAppSecret, testSecretsKey, testVerifyToken } from '../support/sandbox-webhooks';
import { TestApp, openTestDatabase, testConfig, type Session } from '../support/server';

/** The number's tier in this test: low, so a few seconds of sending cross Meta's bucket several times. */
const rate = 10;
const perApp = 15;

let sandbox: Sandbox;
let database: Database;
let second: Database;
let dispose: () => Promise<void>;
let apps: FastifyInstance[] = [];
let ta: TestApp;
let admin: Session;
let accountId: string;
let conversationId: string;
let phoneNumberId: string;

beforeAll(async () => {
  const opened = await openTestDatabase();
  database = opened.database;
  dispose = opened.dispose;
  // A second process on PostgreSQL has its own pool; PGlite is one in-process database both share.
  second = opened.url ? await openDatabase({ url: opened.url, poolSize: 5 }) : database;
  sandbox = await startSandbox({
    port: 0,
    appSecret: testAppSecret,
    throughputPerSecond: rate,
    statusDelayMs: 20,
    webhookRetryDelayMs: 50,
    deliver: async (rawBody, headers) => (await apps[0].inject({ method: 'POST', url: '/webhooks/whatsapp', headers, payload: rawBody })).statusCode,
  });
  const config = testConfig({ graphApiUrl: sandbox.baseUrl, whatsappAppSecret: testAppSecret, whatsappVerifyToken: testVerifyToken, secretsKey: testSecretsKey });
  apps = [await buildApp({ config, database, logger: false }), await buildApp({ config, database: second, logger: false })];
  // One after the other: on PGlite both job queues share one session, and pg-boss's start is a multi-statement text.
  for (const a of apps) await a.ready();
  ta = new TestApp(apps[0], database, async () => undefined);
  ta.sandbox = sandbox;
  admin = await ta.newAdmin('Pacing Shop');
  const number = sandbox.addAccount();
  phoneNumberId = number.phoneNumberId;
  const res = await ta.call('POST', '/whatsapp', {
    token: admin.token,
    body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId, throughputPerSecond: rate },
  });
  expect(res.statusCode).toBe(201);
  expect(res.json().throughputPerSecond).toBe(rate);
  accountId = res.json().id;
  await sandbox.customers.say('16505558001', 'Tell me about the sale', { phoneNumberId });
  await apps[0].parley.jobs.drain();
  const [c] = await database.db.select().from(t.conversations).where(eq(t.conversations.whatsappAccountId, accountId));
  conversationId = c.id;
}, 180_000);

afterAll(async () => {
  for (const a of apps) await a.close();
  if (second && second !== database) await second.close();
  await sandbox?.close();
  await dispose?.();
});

describe('the pacer of a number', () => {
  it('keeps two server processes together under the number’s rate: no 130429 from WhatsApp', async () => {
    // Let Meta's bucket fill, as after a quiet minute.
    await new Promise((r) => setTimeout(r, 1100));
    const before = sandbox.sent.length;
    const started = Date.now();
    const sends = apps.flatMap((app, a) =>
      Array.from({ length: perApp }, (_, i) =>
        app.parley.services.outbound.send({
          workspaceId: admin.workspaceId,
          actor: { type: 'system' },
          target: { conversationId },
          content: { type: 'text', text: `Sale update ${a}-${i}` },
          idempotencyKey: `pacing:${a}:${i}`,
        }),
      ),
    );
    const results = await Promise.allSettled(sends);
    const elapsed = (Date.now() - started) / 1000;
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(sandbox.sent.length - before).toBe(2 * perApp);

    // Not one send met a 130429, so the number never had to back off.
    const rows = await database.db
      .select()
      .from(t.outboundSends)
      .where(and(eq(t.outboundSends.workspaceId, admin.workspaceId), eq(t.outboundSends.whatsappAccountId, accountId)));
    expect(rows.filter((r) => r.idempotencyKey.startsWith('pacing:')).map((r) => [r.status, r.throttled])).toEqual(
      Array.from({ length: 2 * perApp }, () => ['sent', 0]),
    );
    expect(await backoffCount(database.db, admin.workspaceId, accountId)).toBe(0);
    // 30 sends at 10/s with a half-second burst cannot finish sooner than (30 - 5) / 10 s.
    expect(elapsed).toBeGreaterThanOrEqual((2 * perApp - rate / 2) / rate - 0.1);
  }, 180_000);

  it('claims a send only when its slot comes: a send still waiting for the pacer is not claimed (a crash would not make it unknown)', async () => {
    await new Promise((r) => setTimeout(r, 1100));
    const n = 20;
    const sends = Array.from({ length: n }, (_, i) =>
      apps[0].parley.services.outbound.send({
        workspaceId: admin.workspaceId,
        actor: { type: 'system' },
        target: { conversationId },
        content: { type: 'text', text: `Slot check ${i}` },
        idempotencyKey: `slot:${i}`,
      }),
    );
    // 20 sends at 10/s: half a second of burst, then one every 100 ms. 300 ms in, most still wait for a slot.
    await new Promise((r) => setTimeout(r, 300));
    const keys = async () =>
      (await database.db.select().from(t.outboundSends).where(eq(t.outboundSends.workspaceId, admin.workspaceId))).filter((r) => r.idempotencyKey.startsWith('slot:'));
    const early = await keys();
    expect(early.length).toBeLessThanOrEqual(12);
    expect((await Promise.allSettled(sends)).filter((r) => r.status === 'rejected')).toEqual([]);
    expect((await keys()).map((r) => r.status)).toEqual(Array(n).fill('sent'));
  }, 60_000);

  it('(control) the same burst straight to the Graph API, without the pacer, is refused with 130429', async () => {
    await new Promise((r) => setTimeout(r, 1100));
    const [account] = await database.db.select().from(t.whatsappAccounts).where(eq(t.whatsappAccounts.id, accountId));
    const creds = apps[0].parley.services.channel.credsOf(account);
    const answers = await Promise.all(
      Array.from({ length: 2 * perApp }, (_, i) =>
        fetch(`${sandbox.baseUrl}/${phoneNumberId}/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${creds.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ messaging_product: 'whatsapp', to: '16505558001', type: 'text', text: { body: `raw ${i}` } }),
        }).then(async (r) => ((await r.json()) as { error?: { code: number } }).error?.code ?? 0),
      ),
    );
    expect(answers.filter((c) => c === 130429).length).toBeGreaterThan(0);
  });
});
