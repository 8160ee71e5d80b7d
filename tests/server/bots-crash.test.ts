/**
 * A bot session across real server processes, on PostgreSQL (a second process cannot open the first
 * one's PGlite): the server handling a session is killed with SIGKILL while the session waits for the customer;
 * a new server process carries the session on from where it waits (no new greeting, nothing sent twice).
 * The test process seeds through its own app (its job workers stopped) and hosts the sandbox, whose webhooks go
 * to the current child process.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import * as t from '../../src/server/db/schema';
import type { SandboxAccount } from '../../src/sandbox';
import { startSandbox } from '../../src/sandbox';
import { TestApp, onPostgres, openTestDatabase, serverProcessEnv, testConfig, type Session } from '../support/server';
import { testAppSecret, testSecretsKey, testVerifyToken } from '../support/sandbox-webhooks';
import { answers, killAllServerProcesses, killHard, startServerProcess, type ServerProcess } from '../support/server-process';
import { until } from '../support/until';
import { seedWishBot } from '../support/wish-bot';

let ta: TestApp;
let url: string;
let admin: Session;
let number: SandboxAccount;
let childPort = 0;

/** A real server process (its pid is the server: SIGKILL kills it), webhooks pointed at it. */
async function startServer(): Promise<ServerProcess> {
  const server = await startServerProcess(serverProcessEnv(url, ta.sandbox.baseUrl), { readyMs: 120_000 });
  childPort = server.port;
  return server;
}

describe.skipIf(!onPostgres)('a bot session across processes (PostgreSQL)', () => {
  beforeAll(async () => {
    const opened = await openTestDatabase();
    url = opened.url!;
    const sandbox = await startSandbox({
      port: 0,
      appSecret: testAppSecret,
      statusDelayMs: 20,
      webhookRetryDelayMs: 200,
      // Webhooks go to the server process of the moment.
      deliver: async (rawBody, headers) => {
        if (!childPort) return 503;
        const res = await fetch(`http://127.0.0.1:${childPort}/webhooks/whatsapp`, { method: 'POST', headers: headers as Record<string, string>, body: rawBody }).catch(() => null);
        return res?.status ?? 503;
      },
    });
    const app = await buildApp({
      config: testConfig({ graphApiUrl: sandbox.baseUrl, whatsappAppSecret: testAppSecret, whatsappVerifyToken: testVerifyToken, secretsKey: testSecretsKey }),
      database: opened.database,
      logger: false,
    });
    ta = new TestApp(app, opened.database, async () => {
      await sandbox.close();
      await opened.dispose();
    });
    ta.sandbox = sandbox;
    await app.ready();
    admin = await ta.newAdmin('Bot Crash Shop');
    number = ta.sandbox.addAccount();
    const acc = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId } });
    await seedWishBot(ta, admin, acc.json().id);
    // Only the children run jobs.
    await app.parley.jobs.stop();
  }, 180_000);
  afterAll(async () => {
    await killAllServerProcesses();
    await ta?.close();
  });

  it('resumes a waiting session in a new process after SIGKILL, with nothing sent twice', async () => {
    const waId = '16289990001';
    const sent = () => ta.sandbox.sent.filter((m) => m.waId === waId).map((m) => JSON.stringify(m.body));
    const first = await startServer();
    await ta.sandbox.customers.say(waId, 'hi', { phoneNumberId: number.phoneNumberId });
    await until(() => sent().some((b) => b.includes('What do you wish for?')), 60_000);
    await killHard(first);
    // The server itself is gone (not only a wrapper process): nothing answers on its port any more.
    expect(await answers(first)).toBe(false);

    await startServer();
    await ta.sandbox.customers.say(waId, 'a bicycle', { phoneNumberId: number.phoneNumberId });
    await until(() => sent().some((b) => b.includes('Wish noted: a bicycle')), 90_000);
    const all = sent();
    expect(all.filter((b) => b.includes('Hello from the bot'))).toHaveLength(1);
    expect(all.filter((b) => b.includes('What do you wish for?'))).toHaveLength(1);
    expect(all).toHaveLength(3);
    const sessions = await ta.db.select().from(t.botSessions).where(eq(t.botSessions.workspaceId, admin.workspaceId));
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ status: 'ended', endReason: 'completed' });
  }, 300_000);
});
