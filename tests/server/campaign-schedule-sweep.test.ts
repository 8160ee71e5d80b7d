/**
 * Scheduled starts and timed resumes are durable: their times are the campaign's own columns, and every runner
 * sweeps for due ones at boot and each minute, with no cap per sweep. No job is queued here (as when a process
 * died between its commit and the queue): only the sweep can start them. Across two real server processes on
 * PostgreSQL, 1,000 campaigns scheduled for one minute all start within 60 s, each once.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import { createCampaignRunner } from '../../src/server/campaigns/runner';
import type { Progress } from '../../src/server/campaigns/events';
import type { Outbound } from '../../src/server/messaging/outbound';
import type { ServiceDeps } from '../../src/server/services/context';
import { onPostgres, openTestDatabase, serverProcessEnv } from '../support/server';
import { killAllServerProcesses, startServerProcess } from '../support/server-process';
import { until } from '../support/until';
import { recordingLogger } from '../support/recording-logger';

let database: Database;
let url: string | undefined;
let dispose: () => Promise<void>;
let ws = '';
let memberId = '';

/** A campaign whose canvas has no step: once started, its run has nothing to send and completes. */
const rf = { nodes: [{ id: 'trigger', type: 'OneTimeTriggerNode', position: { x: 0, y: 0 }, data: { label: 'Start' } }], edges: [], viewport: { x: 0, y: 0, zoom: 1 } };

async function scheduled(n: number, at: Date, name: string) {
  const rows = await database.db
    .insert(t.campaigns)
    .values(
      Array.from({ length: n }, (_, i) => ({
        workspaceId: ws,
        name: `${name} ${i}`,
        type: 'oneTime' as const,
        status: 'scheduled' as const,
        scheduledAt: at,
        rfInstance: rf,
        deployedRf: rf,
        deployedAt: new Date(),
        memberId,
      })),
    )
    .returning({ id: t.campaigns.id });
  return rows.map((r) => r.id);
}

/** Runs per campaign, and the first run's start. */
async function runsOf(ids: string[]) {
  const rows = await database.db
    .select({ campaignId: t.campaignRuns.campaignId, n: sql<number>`count(*)::int`, first: sql<string>`min(${t.campaignRuns.createdAt})` })
    .from(t.campaignRuns)
    .where(inArray(t.campaignRuns.campaignId, ids))
    .groupBy(t.campaignRuns.campaignId);
  return rows.map((r) => ({ ...r, first: new Date(r.first) }));
}

beforeAll(async () => {
  ({ database, url, dispose } = await openTestDatabase());
  const [w] = await database.db.insert(t.workspaces).values({ name: 'Schedule Shop' }).returning();
  ws = w.id;
  const [m] = await database.db.insert(t.members).values({ uid: `uid-schedule-${Date.now()}` }).returning();
  memberId = m.id;
});
afterAll(async () => {
  await killAllServerProcesses();
  await dispose?.();
});

describe('the schedule sweep', () => {
  it('at boot starts every campaign already due and resumes every pause whose time came, with no cap and no job', async () => {
    const past = new Date(Date.now() - 60_000);
    const due = await scheduled(150, past, 'Due');
    const notYet = await scheduled(3, new Date(Date.now() + 3_600_000), 'Later');
    const [paused] = await database.db
      .insert(t.campaigns)
      .values({ workspaceId: ws, name: 'Paused', type: 'recurring', status: 'paused', resumeAt: past, rfInstance: rf, deployedRf: rf, deployedAt: new Date(), memberId })
      .returning();
    const [pausedRun] = await database.db.insert(t.campaignRuns).values({ workspaceId: ws, campaignId: paused.id, status: 'paused' }).returning();

    const deps = { db: database, log: recordingLogger([]), files: {} } as unknown as ServiceDeps;
    const progress = { changed: () => undefined, stop: () => undefined } as unknown as Progress;
    const runner = createCampaignRunner(deps, {} as Outbound, progress, { loops: 0, idleMs: 3_600_000 });
    runner.start();
    // stop() waits for the sweep under way: the boot sweep is over once it answers.
    await runner.stop();

    const runs = await runsOf(due);
    expect(runs).toHaveLength(150);
    expect(runs.every((r) => r.n === 1)).toBe(true);
    expect(await runsOf(notYet)).toEqual([]);
    const statuses = await database.db.select({ status: t.campaigns.status }).from(t.campaigns).where(inArray(t.campaigns.id, notYet));
    expect(statuses.map((s) => s.status)).toEqual(['scheduled', 'scheduled', 'scheduled']);
    expect((await database.db.select().from(t.campaigns).where(eq(t.campaigns.id, paused.id)))[0]).toMatchObject({ status: 'active', resumeAt: null });
    expect((await database.db.select().from(t.campaignRuns).where(eq(t.campaignRuns.id, pausedRun.id)))[0].status).toBe('running');
  }, 120_000);

  it.skipIf(!onPostgres)('1,000 campaigns scheduled for one minute start within 60 s across two server processes, each once', async () => {
    // The next minute at least 25 s away (the servers start meanwhile, and their boot sweep finds nothing due).
    const minute = new Date(Math.ceil((Date.now() + 25_000) / 60_000) * 60_000);
    const ids = await scheduled(1000, minute, 'Minute');
    await Promise.all([startServerProcess(serverProcessEnv(url!, 'http://127.0.0.1:9')), startServerProcess(serverProcessEnv(url!, 'http://127.0.0.1:9'))]);
    expect(await runsOf(ids)).toEqual([]);
    await until(async () => (await runsOf(ids)).length === 1000, minute.getTime() + 90_000 - Date.now());
    const runs = await runsOf(ids);
    expect(runs.every((r) => r.n === 1)).toBe(true);
    const latest = Math.max(...runs.map((r) => r.first.getTime()));
    expect(latest - minute.getTime()).toBeLessThanOrEqual(60_000);
    expect(Math.min(...runs.map((r) => r.first.getTime()))).toBeGreaterThanOrEqual(minute.getTime());
  }, 240_000);
});
