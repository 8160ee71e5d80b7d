/**
 * A one-time run's snapshot, chunk by chunk (campaigns/completion.ts, repositories/campaign-runs.ts): the walk of
 * the workspace's contacts in (created_at, id) order from the cursor kept on the run. Chunk boundaries inside
 * contacts of one bulk insert (one created_at), a chunk whose transaction dies before it commits, a process that
 * stops between chunks and another that goes on, and a run written partly before the cursor was kept: each
 * audience contact a recipient exactly once, no one else, the run's count exact.
 */
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { Database } from '../../src/server/db/client';
import { deployedCanvasCache } from '../../src/server/campaigns/canvas-cache';
import { writeSnapshotChunk } from '../../src/server/campaigns/completion';
import { analyzeContactsIfStale, lockRecipientWrites, lockUnfinishedSnapshot, snapshotChunk } from '../../src/server/repositories/campaign-runs';
import { audienceOf } from '../../src/server/repositories/campaign-audience';
import { onPostgres, openTestDatabase } from '../support/server';
import { until } from '../support/until';

let database: Database;
let dispose: () => Promise<void>;
let ws = '';
let memberId = '';
let segmentId = '';
let seq = 0;

beforeAll(async () => {
  ({ database, dispose } = await openTestDatabase());
  const db = database.db;
  const [w] = await db.insert(t.workspaces).values({ name: 'Snapshot Shop' }).returning();
  ws = w.id;
  const [m] = await db.insert(t.members).values({ uid: `uid-snapshot-${Date.now()}` }).returning();
  memberId = m.id;
  await db.insert(t.attributes).values({ workspaceId: ws, name: 'batch', format: 'text' as const, memberId });
  const [seg] = await db.insert(t.segments).values({ workspaceId: ws, name: 'Batch S', filters: [{ column: 'batch', operator: 'IS', value: 'S', conjuction: 'AND' }], memberId }).returning();
  segmentId = seg.id;
});
afterAll(async () => {
  await dispose?.();
});

/** Contacts written in one statement (one created_at), their batches in the order given. */
async function addContacts(batches: string[]) {
  const rows = batches.map((batch) => ({ workspaceId: ws, phoneNumber: `+1415${String(5_200_000 + ++seq).padStart(7, '0')}`, name: `Customer ${seq}`, attributes: { batch } }));
  return database.db.insert(t.contacts).values(rows).returning();
}

/** A deployed one-time campaign of the segment and its run with the snapshot to write. */
async function campaignRun() {
  const rf = {
    nodes: [
      { id: 'trigger', type: 'OneTimeTriggerNode', position: { x: 0, y: 0 }, data: { label: 'Start', segmentId } },
      { id: 's1', type: 'DelayNode', position: { x: 0, y: 100 }, data: { label: 'Wait', waitFor: 1, waitForUnit: 'hours' } },
    ],
    edges: [{ id: 'e0', source: 'trigger', target: 's1' }],
    viewport: { x: 0, y: 0, zoom: 1 },
  };
  const [c] = await database.db
    .insert(t.campaigns)
    .values({ workspaceId: ws, name: `Campaign ${++seq}`, type: 'oneTime', status: 'inProgress', rfInstance: rf, memberId, deployedAt: new Date(), deployedRf: rf })
    .returning();
  const [run] = await database.db.insert(t.campaignRuns).values({ workspaceId: ws, campaignId: c.id, snapshotDone: false }).returning();
  return { c, run };
}

const runRow = async (id: string) => (await database.db.select().from(t.campaignRuns).where(eq(t.campaignRuns.id, id)))[0];
const recipientsOf = (runId: string) => database.db.select().from(t.campaignRecipients).where(eq(t.campaignRecipients.runId, runId)).orderBy(asc(t.campaignRecipients.contactId));
const step = (chunk: number) => writeSnapshotChunk({ db: database }, deployedCanvasCache(), chunk);
/** The audience in the walk's order: created_at, then id. */
const inWalkOrder = (rows: { id: string; createdAt: Date }[]) => [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/** Cancels the runs a test leaves unfinished, so the next test's step takes its own run. */
async function finishAll() {
  await database.db.update(t.campaignRuns).set({ status: 'cancelled' }).where(eq(t.campaignRuns.status, 'running'));
}

/** Every audience contact a recipient once at the first step, nobody else, and the run's count agrees. */
async function expectExact(runId: string, audience: { id: string }[]) {
  const rows = await recipientsOf(runId);
  expect(rows.map((r) => r.contactId).sort()).toEqual(audience.map((a) => a.id).sort());
  expect(rows.every((r) => r.status === 'pending' && r.stepId === 's1')).toBe(true);
  expect(await runRow(runId)).toMatchObject({ snapshotDone: true, recipientCount: audience.length });
}

describe('snapshot chunks', () => {
  it('cuts chunks inside contacts of one created_at: each chunk the next ones in (created_at, id) order, the cursor on its last', async () => {
    // One statement: one created_at for all nine, so the walk's order among them is their ids'.
    const first = await addContacts(['S', 'T', 'S', 'S', 'T', 'T', 'S', 'S', 'T']);
    const later = await addContacts(['T', 'S']);
    const audience = inWalkOrder([...first, ...later].filter((x) => x.attributes.batch === 'S'));
    const { run } = await campaignRun();
    const written: number[] = [];
    const cursors: (string | null)[] = [];
    while (await step(2)) {
      written.push((await recipientsOf(run.id)).length);
      cursors.push((await runRow(run.id)).snapshotAfterId);
    }
    // The cursor is each chunk's last audience contact; a chunk of fewer than 2 (here none) ends the snapshot.
    expect(written).toEqual([2, 4, 6, 6]);
    expect(cursors).toEqual([audience[1].id, audience[3].id, audience[5].id, audience[5].id]);
    await expectExact(run.id, audience);
    await finishAll();
  });

  it('a chunk whose transaction dies before it commits leaves nothing; the next step writes those contacts once', async () => {
    const contacts = await addContacts(['S', 'S', 'S', 'T', 'S']);
    await database.db.execute(sql`update contacts set attributes = '{"batch":"gone"}' where workspace_id = ${ws} and id <> all(${sql.param(contacts.map((c) => c.id))}::uuid[])`);
    const audience = inWalkOrder(contacts.filter((x) => x.attributes.batch === 'S'));
    const { c, run } = await campaignRun();
    expect(await step(2)).toBe(true);
    const before = await runRow(run.id);
    // A process killed mid-chunk: its statement ran, its transaction never committed.
    await expect(
      database.transaction(async (tx) => {
        const locked = await lockUnfinishedSnapshot(tx);
        expect(locked?.id).toBe(run.id);
        const audienceSql = (await audienceOf(tx, ws, { segmentId }))!;
        const after = { id: locked!.snapshotAfterId!, createdAt: locked!.snapshotAfterCreatedAt! };
        expect(await snapshotChunk(tx, { workspaceId: ws, runId: run.id, campaignId: c.id, firstStepId: 's1', audience: audienceSql, limit: 2, after })).toBe(2);
        throw new Error('killed');
      }),
    ).rejects.toThrow('killed');
    expect(await runRow(run.id)).toMatchObject({ recipientCount: 2, snapshotAfterId: before.snapshotAfterId, snapshotDone: false });
    expect(await recipientsOf(run.id)).toHaveLength(2);
    // Another process (its own canvas cache) goes on from the committed cursor.
    while (await step(2));
    await expectExact(run.id, audience);
    await finishAll();
  });

  it('a run written partly before its cursor was kept: the walk starts over and writes each missing contact once', async () => {
    const contacts = await addContacts(['S', 'S', 'T', 'S', 'S']);
    await database.db.execute(sql`update contacts set attributes = '{"batch":"gone"}' where workspace_id = ${ws} and id <> all(${sql.param(contacts.map((c) => c.id))}::uuid[])`);
    const audience = inWalkOrder(contacts.filter((x) => x.attributes.batch === 'S'));
    const { c, run } = await campaignRun();
    // Two recipients already there (the chunks of an older process), no cursor.
    const done = [audience[0], audience[2]];
    await database.db.insert(t.campaignRecipients).values(done.map((x) => ({ workspaceId: ws, runId: run.id, campaignId: c.id, contactId: x.id, stepId: 's1', status: 'pending' as const, nextAt: new Date() })));
    await database.db.update(t.campaignRuns).set({ recipientCount: 2 }).where(eq(t.campaignRuns.id, run.id));
    while (await step(2));
    await expectExact(run.id, audience);
    await finishAll();
  });

  it('refreshes stale statistics of the contacts before a chunk, and only when they are stale', async () => {
    await database.transaction((tx) => analyzeContactsIfStale(tx));
    await addContacts(Array.from({ length: 200 }, () => 'T'));
    // PostgreSQL publishes a backend's counts of changed rows within a second or so of its commit.
    await until(() => database.transaction((tx) => analyzeContactsIfStale(tx)), 10_000, 200);
    expect(await database.transaction((tx) => analyzeContactsIfStale(tx))).toBe(false);
  });
});

/**
 * Recipients keep a foreign key to their run only (migration 0031): a contact's, campaign's or workspace's delete
 * still takes them, and a contact deleted while a chunk that read it is open loses the recipient that chunk wrote.
 */
describe('deletes take their recipients', () => {
  it("a contact's delete takes its recipients, a campaign's all of its runs', a workspace's everything", async () => {
    const contacts = await addContacts(['S', 'S', 'S']);
    await database.db.execute(sql`update contacts set attributes = '{"batch":"gone"}' where workspace_id = ${ws} and id <> all(${sql.param(contacts.map((c) => c.id))}::uuid[])`);
    const one = await campaignRun();
    const two = await campaignRun();
    while (await step(10));
    expect(await recipientsOf(one.run.id)).toHaveLength(3);
    expect(await recipientsOf(two.run.id)).toHaveLength(3);

    await database.db.delete(t.contacts).where(eq(t.contacts.id, contacts[0].id));
    const left = [contacts[1].id, contacts[2].id].sort();
    expect((await recipientsOf(one.run.id)).map((r) => r.contactId)).toEqual(left);
    expect((await recipientsOf(two.run.id)).map((r) => r.contactId)).toEqual(left);

    await database.db.delete(t.campaigns).where(eq(t.campaigns.id, one.c.id));
    expect(await database.db.select().from(t.campaignRecipients).where(eq(t.campaignRecipients.campaignId, one.c.id))).toEqual([]);
    expect(await recipientsOf(two.run.id)).toHaveLength(2);

    // A workspace of its own, deleted with its campaign's recipients.
    const [w] = await database.db.insert(t.workspaces).values({ name: 'Gone Shop' }).returning();
    const [c] = await database.db.insert(t.campaigns).values({ workspaceId: w.id, name: 'Gone', type: 'oneTime', rfInstance: {}, memberId }).returning();
    const [contact] = await database.db.insert(t.contacts).values({ workspaceId: w.id, phoneNumber: '+14155559999', name: 'Gone' }).returning();
    const [run] = await database.db.insert(t.campaignRuns).values({ workspaceId: w.id, campaignId: c.id, recipientCount: 1 }).returning();
    await database.db.insert(t.campaignRecipients).values({ workspaceId: w.id, runId: run.id, contactId: contact.id, campaignId: c.id, stepId: 's1' });
    await database.db.delete(t.workspaces).where(eq(t.workspaces.id, w.id));
    expect(await database.db.select().from(t.campaignRecipients).where(eq(t.campaignRecipients.workspaceId, w.id))).toEqual([]);
  });

  it.runIf(onPostgres)('a contact deleted while a chunk that read it is open waits for the chunk, then takes the recipient it wrote', async () => {
    const [contact] = await addContacts(['S']);
    await database.db.execute(sql`update contacts set attributes = '{"batch":"gone"}' where workspace_id = ${ws} and id <> ${contact.id}`);
    const { c, run } = await campaignRun();
    let deleted = false;
    let deleting: Promise<unknown> = Promise.resolve();
    await database.transaction(async (tx) => {
      await lockUnfinishedSnapshot(tx);
      await lockRecipientWrites(tx, ws);
      const audienceSql = (await audienceOf(tx, ws, { segmentId }))!;
      expect(await snapshotChunk(tx, { workspaceId: ws, runId: run.id, campaignId: c.id, firstStepId: 's1', audience: audienceSql, limit: 10, after: null })).toBe(1);
      // Another connection deletes the contact the chunk just wrote a recipient for: it waits for the chunk.
      deleting = database.db
        .delete(t.contacts)
        .where(eq(t.contacts.id, contact.id))
        .then(() => (deleted = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(deleted).toBe(false);
    });
    await deleting;
    expect(await recipientsOf(run.id)).toEqual([]);
    await finishAll();
  });
});
