/**
 * Outbound sends at Meta's top tier, on PostgreSQL: one WhatsApp number configured for 1,000 msg/s, sends through
 * the outbound path (claim, pacer, Graph API call against the sandbox, message + event + outcome) from concurrent
 * workers as a campaign would run them; achieved rate and 130429 answers. The floor, in the same run: the same
 * count of raw Graph calls to the same sandbox number, paced at 1,000/s in process without Parley's path.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { eq, sql } from 'drizzle-orm';
import { type Sandbox, startSandbox } from '../../src/sandbox';
import { buildApp } from '../../src/server/app';
import type { IdentityProvider } from '../../src/server/identity/identity-provider';
import { loadConfig } from '../../src/server/config';
import { openDatabase, rowsOf } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import { type Benchmark, percentile, round } from './types';

const RATE = 1000;
const SENDS = Number(process.env.BENCH_OUTBOUND_SENDS ?? 2000);
const RECIPIENTS = 1000;
const WORKERS = Number(process.env.BENCH_OUTBOUND_WORKERS ?? 64);
const secretsKey = 'bench-secrets-key-0123456789abcdef';

const noIdentity = {} as IdentityProvider;

/** Runs `count` tasks on `workers` concurrent workers; answers each task's duration (ms). */
async function pool(count: number, workers: number, task: (i: number) => Promise<void>): Promise<number[]> {
  const durations: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let i = next++; i < count; i = next++) {
        const t0 = performance.now();
        await task(i);
        durations.push(performance.now() - t0);
      }
    }),
  );
  return durations;
}

export const benchmark: Benchmark = {
  name: 'outbound',
  needsDatabase: true,
  async run({ databaseUrl, log }) {
    const url = databaseUrl!;
    const sandboxes: Sandbox[] = [];
    // Status webhooks are answered and dropped: this measures the sending side only.
    const newSandbox = async () => {
      const s = await startSandbox({ port: 0, appSecret: 'bench', throughputPerSecond: RATE, autoRead: false, statusDelayMs: 60_000, deliver: async () => 200 });
      sandboxes.push(s);
      return s;
    };
    const database = await openDatabase({ url, poolSize: 20 });
    await database.migrate();
    try {
      // ---- floor: raw Graph calls paced in process, no database ----
      const rawSandbox = await newSandbox();
      const rawNumber = rawSandbox.addAccount();
      const rawWaIds = Array.from({ length: RECIPIENTS }, (_, i) => `1650900${String(i).padStart(4, '0')}`);
      for (const w of rawWaIds) rawSandbox.customers.restoreWindow(w, new Date(), rawNumber.phoneNumberId);
      await new Promise((r) => setTimeout(r, 1100));
      let raw429 = 0;
      const rawStart = performance.now();
      await pool(SENDS, WORKERS, async (i) => {
        const due = rawStart + (i * 1000) / RATE;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const res = await fetch(`${rawSandbox.baseUrl}/${rawNumber.phoneNumberId}/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${rawNumber.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ messaging_product: 'whatsapp', to: rawWaIds[i % RECIPIENTS], type: 'text', text: { body: `Offer ${i}` } }),
        });
        const body = (await res.json()) as { error?: { code: number } };
        if (body.error?.code === 130429) raw429++;
      });
      const rawSeconds = (performance.now() - rawStart) / 1000;
      const rawRate = SENDS / rawSeconds;
      log(`floor: ${SENDS} raw Graph calls in ${round(rawSeconds, 2)} s = ${round(rawRate)} msg/s, 130429: ${raw429}`);

      // ---- Parley's outbound path ----
      const sandbox = await newSandbox();
      const number = sandbox.addAccount();
      const config = loadConfig(
        { LOG_LEVEL: 'silent', FIREBASE_PROJECT_ID: 'demo-parley', PARLEY_DATA_DIR: `/tmp/parley-bench-${randomUUID()}` } as NodeJS.ProcessEnv,
        { graphApiUrl: sandbox.baseUrl, secretsKey, whatsappAppSecret: 'bench', databaseUrl: url },
      );
      const app = await buildApp({ config, database, identity: noIdentity, logger: false });
      await app.ready();
      const { services } = app.parley;
      const [ws] = await database.db.insert(t.workspaces).values({ name: 'Bench Shop' }).returning();
      const memberId = randomUUID();
      const [account] = await database.db
        .insert(t.whatsappAccounts)
        .values({
          workspaceId: ws.id,
          phoneNumber: number.phoneNumber,
          wabaAccountId: number.wabaAccountId,
          appId: number.appId,
          phoneNumberId: number.phoneNumberId,
          tokenCiphertext: services.channel.sealToken(number.token, number.phoneNumberId),
          tokenLast4: number.token.slice(-4),
          throughputPerSecond: RATE,
          memberId,
        })
        .returning();
      // A campaign's recipients: each has a conversation whose 24-hour window is open.
      const waIds = Array.from({ length: RECIPIENTS }, (_, i) => `1650800${String(i).padStart(4, '0')}`);
      const contacts = await database.db
        .insert(t.contacts)
        .values(waIds.map((w) => ({ workspaceId: ws.id, phoneNumber: `+${w}` })))
        .returning();
      const conversations = await database.db
        .insert(t.conversations)
        .values(contacts.map((c) => ({ workspaceId: ws.id, contactId: c.id, whatsappAccountId: account.id, lastInboundAt: new Date() })))
        .returning();
      for (const w of waIds) sandbox.customers.restoreWindow(w, new Date(), number.phoneNumberId);
      await new Promise((r) => setTimeout(r, 1100));

      let failures = 0;
      const started = performance.now();
      const latencies = await pool(SENDS, WORKERS, async (i) => {
        try {
          await services.outbound.send({
            workspaceId: ws.id,
            actor: { type: 'system' },
            target: { conversationId: conversations[i % RECIPIENTS].id },
            content: { type: 'text', text: `Offer ${i}` },
            idempotencyKey: `bench:${i}`,
          });
        } catch {
          failures++;
        }
      });
      const seconds = (performance.now() - started) / 1000;
      const rate = SENDS / seconds;
      const [throttled] = rowsOf<{ n: number; sent: number }>(
        await database.db.execute(sql`select coalesce(sum(throttled), 0)::int as n, count(*) filter (where status = 'sent')::int as sent from outbound_sends`),
      );
      const [pacer] = await database.db.select().from(t.sendPacers).where(eq(t.sendPacers.whatsappAccountId, account.id));
      const stored = sandbox.sent.length;
      log(`Parley: ${SENDS} sends in ${round(seconds, 2)} s = ${round(rate)} msg/s, 130429: ${throttled.n}, failures: ${failures}, stored ${throttled.sent}`);
      await app.close();

      return {
        metrics: {
          parley_rate: { value: round(rate), unit: 'msg/s', description: `sends through the outbound path per second (${SENDS} sends, ${WORKERS} workers, number at ${RATE}/s)` },
          floor_rate: { value: round(rawRate), unit: 'msg/s', description: `raw Graph calls to the sandbox paced at ${RATE}/s in process, same count and workers` },
          floor_over_parley: { value: round(rawRate / rate, 2), unit: 'x', goal: 1.3, description: 'how much slower the outbound path is than the raw floor (goal: within 1.3x)' },
          parley_130429: { value: throttled.n, unit: 'count', goal: 0, description: '130429 answers met by the outbound path (each backs the number off)' },
          floor_130429: { value: raw429, unit: 'count', description: '130429 answers to the raw calls' },
          parley_failures: { value: failures + (SENDS - stored), unit: 'count', goal: 0, description: 'sends not accepted or not stored' },
          parley_send_p50: { value: round(percentile(latencies, 50)), unit: 'ms', description: 'one send, claim to stored, median (includes the wait for the pacer)' },
          parley_send_p99: { value: round(percentile(latencies, 99)), unit: 'ms', description: 'one send, claim to stored, p99' },
        },
        notes: [
          `Sandbox token bucket at ${RATE}/s per number (130429 above it); status webhooks dropped so only sending is measured.`,
          `The outbound path per send: target look-up, pacer reservation, claim, the Graph call, then message + conversation + workspace event + outcome; concurrent sends share each statement (a group's look-ups, its claims, a number's reservation, a workspace's final writes).`,
          `Pacer back-offs recorded on the number: ${pacer?.backoffs ?? 0}.`,
        ],
      };
    } finally {
      for (const s of sandboxes) await s.close();
      await database.close();
    }
  },
};
