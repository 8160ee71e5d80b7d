/**
 * What each step of the inbound path costs per message, measured step by step on PostgreSQL: storing the batch
 * (whatsapp/inbound-batch.ts), then the engines' hooks after it commits (campaign replies and opt-out, bots,
 * auto-assignment). Each step runs over every batch on its own, so its statements, transactions and CPU (this
 * process and the database's backends) are its own. The workload is the inbound benchmark's: one message per
 * webhook, 80% distinct customers, batches as the webhook job takes them, a workspace without campaigns or bots
 * and nobody available; then the same with a campaign sent to a tenth of the customers and an available member
 * (`busy`), where the hooks have work to do.
 */
import os from 'node:os';
import { eq } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { buildApp } from '../../src/server/app';
import type { IdentityProvider } from '../../src/server/identity/identity-provider';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import { campaignInboundCommitted } from '../../src/server/campaigns/inbound-hooks';
import { botsInboundCommitted } from '../../src/server/bots/inbound-hook';
import { type InboundItem, storeInboundBatch } from '../../src/server/whatsapp/inbound-batch';
import type { AccountRow } from '../../src/server/repositories/channel';
import { backendCpu } from './lib-cpu';
import { countStatements } from './lib-statements';
import { type Benchmark, type Metric, round } from './types';

const MESSAGES = Number(process.env.BENCH_HOOK_MESSAGES ?? 2000);
const BATCH = Number(process.env.BENCH_HOOK_BATCH ?? 32);

const noIdentity = (uid: string): IdentityProvider => ({
  verifyIdToken: async () => {
    throw new Error('no sign-in in this benchmark');
  },
  createUser: async () => uid,
  deleteUser: async () => undefined,
  findUidByEmail: async () => null,
  profiles: async () => new Map(),
  close: async () => undefined,
});

interface StepCost {
  statements: number;
  transactions: number;
  nodeMs: number;
  dbMs: number;
}

export const benchmark: Benchmark = {
  name: 'hook-costs',
  needsDatabase: true,
  async run(ctx) {
    const url = ctx.databaseUrl!;
    const database = await openDatabase({ url });
    const counter = countStatements(database);
    await database.migrate();
    const db = database.db;
    const [ws] = await db.insert(t.workspaces).values({ name: 'Hook costs' }).returning();
    const uid = `bench-${randomUUID()}`;
    const [member] = await db.insert(t.members).values({ uid, currentWorkspaceId: ws.id }).returning();
    await db.insert(t.workspaceMembers).values({ workspaceId: ws.id, memberId: member.id, role: 'admin' });
    const [account] = (await db
      .insert(t.whatsappAccounts)
      .values({
        workspaceId: ws.id,
        phoneNumber: '+16505550100',
        wabaAccountId: '102290129340398',
        appId: 'bench-app',
        phoneNumberId: '100000000000001',
        tokenCiphertext: 'unused',
        tokenLast4: '0000',
        memberId: member.id,
      })
      .returning()) as AccountRow[];
    const config = loadConfig({ LOG_LEVEL: 'warn', WHATSAPP_APP_SECRET: 'x', PARLEY_DATA_DIR: os.tmpdir() } as NodeJS.ProcessEnv);
    const app = await buildApp({ config, database, identity: noIdentity(uid), logger: { level: 'warn' } });
    const services = app.parley.services;
    const deps = services.deps;

    const batchesOf = (round: string, customerBase: number): InboundItem[][] => {
      const customers = Math.max(1, Math.floor(MESSAGES * 0.8));
      const items = Array.from({ length: MESSAGES }, (_, i): InboundItem => {
        const c = i % customers;
        const at = new Date(Date.now() + i);
        return {
          account,
          wamid: `wamid.${round}${i}`,
          customer: { phoneNumber: `+1415${String(customerBase + c)}`, userId: `US.${customerBase + c}`, parentUserId: null, username: null, name: `Customer ${c}` },
          content: { type: 'text', text: `${round} message ${i}`, mediaUrl: null, header: null, action: null, footer: null },
          at,
          sentAt: at,
        };
      });
      const out: InboundItem[][] = [];
      for (let i = 0; i < items.length; i += BATCH) out.push(items.slice(i, i + BATCH));
      return out;
    };

    const measure = async (fn: () => Promise<unknown>): Promise<StepCost> => {
      const before = { ...counter };
      const cpu = backendCpu(url);
      await cpu.start();
      const node = process.cpuUsage();
      await fn();
      const nodeUsed = process.cpuUsage(node);
      const dbS = await cpu.stop();
      return {
        statements: counter.statements - before.statements,
        transactions: counter.transactions - before.transactions,
        nodeMs: (nodeUsed.user + nodeUsed.system) / 1000,
        dbMs: dbS * 1000,
      };
    };

    const scenario = async (label: string, batches: InboundItem[][]) => {
      const stored: Awaited<ReturnType<typeof storeInboundBatch>>[] = [];
      const steps: Record<string, StepCost> = {
        store: await measure(async () => {
          for (const b of batches) stored.push(await database.transaction((tx) => storeInboundBatch(tx, ws.id, b)));
        }),
        campaigns: await measure(async () => {
          for (const s of stored) await campaignInboundCommitted(deps, ws.id, s.items);
        }),
        bots: await measure(async () => {
          for (const s of stored) await botsInboundCommitted(deps, ws.id, s.items);
        }),
        routing: await measure(async () => {
          for (const s of stored) await services.routing.afterInbound(ws.id, [...s.stored]);
        }),
      };
      const metrics: Record<string, Metric> = {};
      for (const [step, c] of Object.entries(steps)) {
        const per = (v: number) => round(v / MESSAGES, 3);
        ctx.log(
          `${label} ${step.padEnd(9)} per message: ${per(c.statements)} statements, ${per(c.transactions)} transactions, ` +
            `${per(c.nodeMs)} ms server CPU, ${per(c.dbMs)} ms database CPU`,
        );
        metrics[`${label}.${step}.statements`] = { value: per(c.statements), unit: 'count', description: `${step}: statements per message (${label})` };
        metrics[`${label}.${step}.transactions`] = { value: per(c.transactions), unit: 'count', description: `${step}: transactions per message (${label})` };
        metrics[`${label}.${step}.serverCpu`] = { value: per(c.nodeMs), unit: 'ms', description: `${step}: server CPU per message (${label})` };
        metrics[`${label}.${step}.databaseCpu`] = { value: per(c.dbMs), unit: 'ms', description: `${step}: database CPU per message (${label})` };
      }
      return metrics;
    };

    try {
      // Warm-up: connections and statement paths.
      for (const b of batchesOf('warm', 9_000_000).slice(0, 3)) {
        const s = await database.transaction((tx) => storeInboundBatch(tx, ws.id, b));
        await campaignInboundCommitted(deps, ws.id, s.items);
        await botsInboundCommitted(deps, ws.id, s.items);
        await services.routing.afterInbound(ws.id, [...s.stored]);
      }
      const quiet = await scenario('quiet', batchesOf('quiet', 5_000_000));

      // Busy: a campaign sent to a tenth of the next customers an hour ago, and a member taking up to 50 chats.
      const busyBatches = batchesOf('busy', 6_000_000);
      const phones = [...new Set(busyBatches.flat().map((i) => i.customer.phoneNumber!))].filter((_, i) => i % 10 === 0);
      const contacts = await db
        .insert(t.contacts)
        .values(phones.map((phoneNumber) => ({ workspaceId: ws.id, phoneNumber })))
        .returning({ id: t.contacts.id });
      const [campaign] = await db.insert(t.campaigns).values({ workspaceId: ws.id, name: 'Bench campaign', type: 'oneTime', status: 'inProgress', rfInstance: {}, memberId: member.id }).returning();
      await db.insert(t.campaignLogs).values(
        contacts.map((c, i) => ({
          workspaceId: ws.id,
          campaignId: campaign.id,
          contactId: c.id,
          stepId: 'send',
          phoneNumber: phones[i],
          templateName: 'bench_offer',
          messageStatus: 'success' as const,
          waMessageId: `wamid.sent${i}`,
          createdAt: new Date(Date.now() - 3_600_000),
        })),
      );
      await db.update(t.workspaceMembers).set({ available: true, chatCapacity: 50 }).where(eq(t.workspaceMembers.memberId, member.id));
      const busy = await scenario('busy', busyBatches);
      return {
        metrics: { ...quiet, ...busy },
        notes: [
          `${MESSAGES} messages in batches of ${BATCH}, each step over all batches in turn; PostgreSQL on this machine.`,
          `Load average at the end: ${os.loadavg().map((l) => round(l)).join(', ')} on ${os.cpus().length} CPUs (shared machine).`,
        ],
      };
    } finally {
      await app.close();
      await database.close();
    }
  },
};
