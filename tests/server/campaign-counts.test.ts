/**
 * A campaign's counts kept as its recipients and log lines change (campaign_counts, written by triggers in the
 * transaction of each change) against the sandbox: after a run with sends, a 131056 retry, a 131026 failure, an
 * opted-out skip, a delay, pause and resume, a deleted contact, status webhooks and a reply, the counts the list,
 * the results and the last progress event show equal a full count of the rows. Deleting a contact or a campaign
 * keeps them exact (or takes them away); progress events fold the deltas so a read sums a few rows.
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { countsOf } from '../../src/server/repositories/campaign-results';
import { recountOf } from '../support/campaign-recount';
import type { SandboxAccount } from '../../src/sandbox';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { allowUsMarketing } from '../support/us-marketing';
import { until } from '../support/until';

let ta: TestApp;
let admin: Session;
let number: SandboxAccount;
let accountId: string;
let templateId: string;
let followUpId: string;

async function approvedTemplate(name: string, text: string) {
  const res = await ta.call('POST', '/whatsapp-template', {
    token: admin.token,
    body: { name, language: 'en_US', category: 'MARKETING', components: [{ type: 'BODY', text }], whatsappAccountId: accountId, workspaceId: admin.workspaceId },
  });
  expect(res.statusCode, res.body).toBe(201);
  await ta.sandbox.settle();
  await ta.app.parley.jobs.drain();
  return res.json().id as string;
}

let phoneSeq = 0;
async function audience(n: number) {
  const tag = randomUUID().slice(0, 8);
  const contacts = await ta.db
    .insert(t.contacts)
    .values(Array.from({ length: n }, (_, i) => ({ workspaceId: admin.workspaceId, phoneNumber: `+1415${String(6_000_000 + ++phoneSeq).padStart(7, '0')}`, name: `Customer ${i}`, attributes: { batch: tag } })))
    .returning();
  const seg = await ta.call('POST', '/segment', {
    token: admin.token,
    body: { name: `Batch ${tag}`, filters: [{ column: 'batch', operator: 'IS', value: tag, conjuction: 'AND' }], workspaceId: admin.workspaceId },
  });
  expect(seg.statusCode, seg.body).toBe(201);
  return { contacts, segmentId: seg.json().id as string };
}

async function deployed(segmentId: string, withDelay: boolean) {
  const send = (id: string, tpl: string, y: number) => ({ id, type: 'SendWhatsappNode', position: { x: 0, y }, data: { label: 'Send', whatsappAccountId: accountId, whatsappTemplateId: tpl } });
  const nodes = [{ id: 'trigger', type: 'OneTimeTriggerNode', position: { x: 0, y: 0 }, data: { label: 'Start', segmentId } }, send('first', templateId, 100)];
  const edges = [{ id: 'e0', source: 'trigger', target: 'first' }];
  if (withDelay) {
    nodes.push({ id: 'wait', type: 'DelayNode', position: { x: 0, y: 200 }, data: { label: 'Wait', waitFor: 1, waitForUnit: 'hours' } } as never, send('second', followUpId, 300));
    edges.push({ id: 'e1', source: 'first', target: 'wait' }, { id: 'e2', source: 'wait', target: 'second' });
  }
  const created = await ta.call('POST', '/campaign', { token: admin.token, body: { workspaceId: admin.workspaceId, type: 'oneTime', name: `Counts ${randomUUID().slice(0, 6)}` } });
  const id = created.json().id as string;
  const patched = await ta.call('PATCH', `/campaign/${id}`, { token: admin.token, body: { rfInstance: { nodes, edges, viewport: { x: 0, y: 0, zoom: 1 } } } });
  expect(patched.statusCode, patched.body).toBe(200);
  const res = await ta.call('POST', `/campaign/${id}/deploy`, { token: admin.token, body: {} });
  expect(res.statusCode, res.body).toBe(200);
  return id;
}

const statusOf = async (id: string) => (await ta.db.select({ s: t.campaigns.status }).from(t.campaigns).where(eq(t.campaigns.id, id)))[0]?.s;
const kept = async (id: string) => (await countsOf(ta.db, admin.workspaceId, [id])).get(id);
const recount = async (id: string) => (await recountOf(ta.db, admin.workspaceId, [id])).get(id);
const rowsOfCounts = (id: string) => ta.db.select().from(t.campaignCounts).where(eq(t.campaignCounts.campaignId, id));
const recipientsAt = (id: string, status: 'waiting' | 'pending') =>
  ta.db.select().from(t.campaignRecipients).where(and(eq(t.campaignRecipients.campaignId, id), eq(t.campaignRecipients.status, status)));

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Counts Shop');
  await allowUsMarketing(ta, admin);
  number = ta.sandbox.addAccount();
  const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId } });
  expect(res.statusCode).toBe(201);
  accountId = res.json().id;
  expect((await ta.call('POST', '/attribute', { token: admin.token, body: { name: 'batch', format: 'text', workspaceId: admin.workspaceId } })).statusCode).toBe(201);
  templateId = await approvedTemplate('counts_sale', 'Spring sale!');
  followUpId = await approvedTemplate('counts_reminder', 'Last day of the sale');
}, 180_000);
afterAll(async () => {
  await ta?.close();
});

describe('kept counts', () => {
  it('equal a full count after sends, a retry, a failure, a skip, pause and resume, a deleted contact, statuses and a reply', async () => {
    const { contacts, segmentId } = await audience(8);
    await ta.db.update(t.contacts).set({ optedOutAt: new Date() }).where(eq(t.contacts.id, contacts[7].id));
    ta.sandbox.injectFailure({ code: 131056, count: 1 });
    ta.sandbox.injectFailure({ code: 131026, count: 1 });
    const id = await deployed(segmentId, true);

    // 6 sent at the first step (one after a 131056 retry), one failed (131026), one skipped: 6 wait at the delay.
    await until(async () => (await recipientsAt(id, 'waiting')).length === 6, 60_000);
    const paused = await ta.call('POST', `/campaign/${id}/pause`, { token: admin.token, body: {} });
    expect(paused.json().status).toBe('paused');
    expect(await kept(id)).toEqual(await recount(id));
    expect(await kept(id)).toMatchObject({ recipients: 8, pending: 6, sent: 6, failed: 1, optedOut: 1 });

    // While paused: the delay ends and a waiting contact is deleted (its recipient and log line go with it).
    await ta.db.update(t.campaignRecipients).set({ nextAt: new Date() }).where(eq(t.campaignRecipients.campaignId, id));
    const [gone] = await recipientsAt(id, 'waiting');
    await ta.db.delete(t.contacts).where(eq(t.contacts.id, gone.contactId));
    expect(await kept(id)).toEqual(await recount(id));
    expect(await kept(id)).toMatchObject({ recipients: 7, pending: 5, sent: 5 });

    const resumed = await ta.call('POST', `/campaign/${id}/resume`, { token: admin.token, body: {} });
    expect(resumed.json().status).toBe('inProgress');
    await until(async () => (await statusOf(id)) === 'completed', 60_000);

    // Status webhooks (sent, delivered, read) and a reply move the log lines on.
    await ta.sandbox.settle();
    await ta.app.parley.jobs.drain();
    // The replier: a customer both of whose sends went out (which one the injected 131026 hit depends on the order
    // of the sends, so it is looked up, not assumed).
    const lines = await ta.db.select().from(t.campaignLogs).where(and(eq(t.campaignLogs.campaignId, id), eq(t.campaignLogs.messageStatus, 'success')));
    const replier = contacts.find((c) => lines.filter((l) => l.contactId === c.id).length === 2)!;
    expect(replier).toBeDefined();
    await ta.sandbox.customers.say(replier.phoneNumber!.slice(1), 'Thanks!', { phoneNumberId: number.phoneNumberId });
    await ta.app.parley.jobs.drain();
    await until(async () => (await recount(id))!.replied === 2 && (await recount(id))!.read === 10, 30_000);

    const truth = await recount(id);
    // both of the replier's sends count as replied
    expect(truth).toMatchObject({ recipients: 7, pending: 0, sent: 10, read: 10, replied: 2, failed: 1, optedOut: 1 });
    expect(await kept(id)).toEqual(truth);
    const results = await ta.call('GET', `/campaign/${id}/results`, { token: admin.token });
    expect(results.json().counts).toEqual(truth);
    const list = await ta.call('GET', `/workspace/${admin.workspaceId}/campaigns`, { token: admin.token });
    expect(list.json().items.find((c: { id: string }) => c.id === id).counts).toEqual(truth);

    // The last progress event of the run (the trailing one after its last batch) carried the counts of then.
    await until(async () => {
      const [last] = await ta.db
        .select()
        .from(t.workspaceEvents)
        .where(and(eq(t.workspaceEvents.workspaceId, admin.workspaceId), eq(t.workspaceEvents.type, 'campaign.progress'), sql`${t.workspaceEvents.payload}->>'campaignId' = ${id}`))
        .orderBy(desc(t.workspaceEvents.seq))
        .limit(1);
      return (last?.payload as { counts: { pending: number; sent: number } } | undefined)?.counts.pending === 0;
    });
  }, 180_000);

  it('folds the deltas of a campaign into one row, its counts unchanged', async () => {
    const { segmentId } = await audience(5);
    const id = await deployed(segmentId, false);
    await until(async () => (await statusOf(id)) === 'completed', 60_000);
    await ta.sandbox.settle();
    await ta.app.parley.jobs.drain();
    await until(async () => (await recount(id))!.read === 5, 30_000);
    // The sweep folds what progress events did not (the status webhooks' deltas).
    await until(async () => (await rowsOfCounts(id)).length === 1, 30_000);
    const [row] = await rowsOfCounts(id);
    expect(row).toMatchObject({ folded: true, recipients: 5, pending: 0, sent: 5, delivered: 5, read: 5 });
    expect(await kept(id)).toEqual(await recount(id));
  }, 120_000);

  it('go away with their campaign, and with a deleted workspace, without failing the delete', async () => {
    const { segmentId } = await audience(3);
    const id = await deployed(segmentId, false);
    await until(async () => (await statusOf(id)) === 'completed', 60_000);
    const del = await ta.call('DELETE', `/campaign/${id}`, { token: admin.token });
    expect(del.statusCode, del.body).toBeLessThan(300);
    expect(await rowsOfCounts(id)).toEqual([]);

    // A workspace of its own with a campaign and a recipient, deleted with everything in it.
    const [w] = await ta.db.insert(t.workspaces).values({ name: 'Gone Shop' }).returning();
    const [c] = await ta.db.insert(t.campaigns).values({ workspaceId: w.id, name: 'Gone', type: 'oneTime', rfInstance: {}, memberId: randomUUID() }).returning();
    const [contact] = await ta.db.insert(t.contacts).values({ workspaceId: w.id, phoneNumber: '+14155559999', name: 'Gone' }).returning();
    const [run] = await ta.db.insert(t.campaignRuns).values({ workspaceId: w.id, campaignId: c.id, snapshotDone: true, recipientCount: 1 }).returning();
    await ta.db.insert(t.campaignRecipients).values({ workspaceId: w.id, runId: run.id, contactId: contact.id, campaignId: c.id, stepId: 'first' });
    expect((await countsOf(ta.db, w.id, [c.id])).get(c.id)).toMatchObject({ recipients: 1, pending: 1 });
    await ta.db.delete(t.workspaces).where(eq(t.workspaces.id, w.id));
    expect(await ta.db.select().from(t.campaignCounts).where(inArray(t.campaignCounts.workspaceId, [w.id]))).toEqual([]);
  }, 120_000);
});
