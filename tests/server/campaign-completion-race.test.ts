/**
 * Two claim loops (or two servers) that finish the last recipients of one run at the same moment: the run must
 * still complete. Each commits its moves in its own transaction, so on PostgreSQL (READ COMMITTED) each
 * statement's snapshot saw the other's recipients still `sending` and neither completed it: the campaign stayed
 * "in progress" for ever (it once failed CI's campaign tests that way). PGlite is one session, where two
 * transactions cannot overlap, so the interleavings run on PostgreSQL only; the sweep that completes a run the
 * claim loops left (they do not wait for a run another transaction holds) runs on both.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import * as runs from '../../src/server/repositories/campaign-runs';
import { buildTestApp, onPostgres, type Session, type TestApp } from '../support/server';
import { until } from '../support/until';

let ta: TestApp;
let admin: Session;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Race Shop');
});

afterAll(async () => {
  await ta?.close();
});

let phones = 0;
/** A one-time campaign in progress whose run has two recipients left, both claimed (`sending`). */
async function twoClaimedRecipients() {
  const ws = admin.workspaceId;
  const contacts = await ta.db
    .insert(t.contacts)
    .values([0, 1].map(() => ({ workspaceId: ws, phoneNumber: `+1415555${String(1000 + phones++)}`, name: `Racer ${phones}` })))
    .returning();
  const [campaign] = await ta.db
    .insert(t.campaigns)
    .values({ workspaceId: ws, name: 'Race', type: 'oneTime', status: 'inProgress', rfInstance: { nodes: [], edges: [] }, memberId: admin.member.id })
    .returning();
  const [run] = await ta.db.insert(t.campaignRuns).values({ workspaceId: ws, campaignId: campaign.id, snapshotDone: true, recipientCount: 2 }).returning();
  // Leased far ahead, so the server's own runner leaves them alone.
  const lease = new Date(Date.now() + 3_600_000);
  const recipients = await ta.db
    .insert(t.campaignRecipients)
    .values(contacts.map((c) => ({ workspaceId: ws, runId: run.id, campaignId: campaign.id, contactId: c.id, stepId: 'send', status: 'sending' as const, nextAt: lease })))
    .returning();
  return { ws, campaign, run, recipients };
}
const done = (id: string): runs.RecipientMove => ({ id, status: 'done', stepId: null, nextAt: null, attempts: 0 });
const runStatus = async (id: string) => (await ta.db.select().from(t.campaignRuns).where(eq(t.campaignRuns.id, id)))[0].status;
const campaignStatus = async (id: string) => (await ta.db.select().from(t.campaigns).where(eq(t.campaigns.id, id)))[0].status;

it.runIf(onPostgres)('completes a run whose last two recipients two transactions finish at the same moment', async () => {
  const { ws, campaign, run, recipients } = await twoClaimedRecipients();
  const database = ta.app.parley.db;
  let secondMoved!: () => void;
  const moved = new Promise<void>((resolve) => (secondMoved = resolve));
  // The first checks after the second moved its recipient, and holds its commit long enough for the second to
  // check before it: the interleaving two loops finishing together produce.
  const first = database.transaction(async (tx) => {
    await runs.moveRecipients(tx, ws, [done(recipients[0].id)]);
    await moved;
    const completed = await runs.completeFinishedRuns(tx, [run.id]);
    await new Promise((r) => setTimeout(r, 300));
    return completed;
  });
  const second = database.transaction(async (tx) => {
    await runs.moveRecipients(tx, ws, [done(recipients[1].id)]);
    secondMoved();
    await new Promise((r) => setTimeout(r, 50));
    return runs.completeFinishedRuns(tx, [run.id]);
  });
  const [a, b] = await Promise.all([first, second]);

  expect(a.length + b.length).toBe(1);
  expect(await runStatus(run.id)).toBe('completed');
  expect(await campaignStatus(campaign.id)).toBe('inProgress'); // completing the campaign is the caller's next step
}, 30_000);

it.runIf(onPostgres)("a claim loop does not wait for a run another transaction holds; the runner's sweep completes it", async () => {
  const { ws, campaign, run, recipients } = await twoClaimedRecipients();
  const database = ta.app.parley.db;
  let firstHolds!: () => void;
  const held = new Promise<void>((resolve) => (firstHolds = resolve));
  const first = database.transaction(async (tx) => {
    await runs.moveRecipients(tx, ws, [done(recipients[0].id)]);
    const completed = await runs.completeFinishedRuns(tx, [run.id], { wait: false });
    firstHolds();
    await new Promise((r) => setTimeout(r, 500));
    return completed;
  });
  await held;
  const started = Date.now();
  const second = await database.transaction(async (tx) => {
    await runs.moveRecipients(tx, ws, [done(recipients[1].id)]);
    return runs.completeFinishedRuns(tx, [run.id], { wait: false });
  });
  // The second did not wait for the first's 500 ms, and neither could complete the run.
  expect(Date.now() - started).toBeLessThan(400);
  expect([...(await first), ...second]).toEqual([]);
  await until(async () => (await campaignStatus(campaign.id)) === 'completed', 20_000);
  expect(await runStatus(run.id)).toBe('completed');
}, 40_000);

it("completes a finished run no claim loop completed, and its one-time campaign (the runner's sweep)", async () => {
  const { ws, campaign, run, recipients } = await twoClaimedRecipients();
  await runs.moveRecipients(ta.db, ws, recipients.map((r) => done(r.id)));
  expect(await runStatus(run.id)).toBe('running');
  await until(async () => (await campaignStatus(campaign.id)) === 'completed', 20_000);
  expect(await runStatus(run.id)).toBe('completed');
}, 40_000);
