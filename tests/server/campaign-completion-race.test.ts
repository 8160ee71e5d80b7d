/**
 * Two claim loops (or two servers) that finish the last recipients of one run at the same moment: one of them
 * must complete the run. Each commits its moves in its own transaction, so on PostgreSQL (READ COMMITTED) each
 * statement's snapshot saw the other's recipients still `sending` and neither completed it: the campaign stayed
 * "in progress" for ever (it once failed CI's campaign tests that way). PGlite is one session, where two
 * transactions cannot overlap, so this runs on PostgreSQL only.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import * as runs from '../../src/server/repositories/campaign-runs';
import { buildTestApp, onPostgres, type Session, type TestApp } from '../support/server';

let ta: TestApp;
let admin: Session;

beforeAll(async () => {
  if (!onPostgres) return;
  ta = await buildTestApp();
  admin = await ta.newAdmin('Race Shop');
});

afterAll(async () => {
  await ta?.close();
});

it.runIf(onPostgres)('completes a run whose last two recipients two transactions finish at the same moment', async () => {
  const ws = admin.workspaceId;
  const contacts = await ta.db
    .insert(t.contacts)
    .values([0, 1].map((i) => ({ workspaceId: ws, phoneNumber: `+1415555010${i}`, name: `Racer ${i}` })))
    .returning();
  const [campaign] = await ta.db
    .insert(t.campaigns)
    .values({ workspaceId: ws, name: 'Race', type: 'oneTime', status: 'inProgress', rfInstance: { nodes: [], edges: [] }, memberId: admin.member.id })
    .returning();
  const [run] = await ta.db.insert(t.campaignRuns).values({ workspaceId: ws, campaignId: campaign.id, snapshotDone: true, recipientCount: 2 }).returning();
  // Both claimed (`sending`, leased far ahead so the server's own runner leaves them alone).
  const lease = new Date(Date.now() + 3_600_000);
  const recipients = await ta.db
    .insert(t.campaignRecipients)
    .values(contacts.map((c) => ({ workspaceId: ws, runId: run.id, campaignId: campaign.id, contactId: c.id, stepId: 'send', status: 'sending' as const, nextAt: lease })))
    .returning();
  const done = (id: string): runs.RecipientMove => ({ id, status: 'done', stepId: null, nextAt: null, attempts: 0 });

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
  const [stored] = await ta.db.select().from(t.campaignRuns).where(eq(t.campaignRuns.id, run.id));
  expect(stored.status).toBe('completed');
}, 30_000);
