/**
 * The recurring trigger's batch written set-based (campaigns/campaign-trigger-service.ts): one statement for the
 * contacts, one for the run and its recipients. A call naming one number twice (in two spellings), records
 * without a valid phone, an existing contact (its name kept, its attributes merged) and new ones: per-record
 * results in record order, one recipient per contact, the run's count, and a paused campaign queuing nothing.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { Database } from '../../src/server/db/client';
import { campaignTriggerService } from '../../src/server/campaigns/campaign-trigger-service';
import type { CampaignKeyContext } from '../../src/server/services/caller';
import { openTestDatabase } from '../support/server';

let database: Database;
let dispose: () => Promise<void>;
let ws = '';
let memberId = '';
let townAttrId = '';
let wakes = 0;

beforeAll(async () => {
  ({ database, dispose } = await openTestDatabase());
  const [w] = await database.db.insert(t.workspaces).values({ name: 'Trigger Shop', defaultCountry: 'US' }).returning();
  ws = w.id;
  const [m] = await database.db.insert(t.members).values({ uid: `uid-trigger-${Date.now()}` }).returning();
  memberId = m.id;
  [{ id: townAttrId }] = await database.db.insert(t.attributes).values({ workspaceId: ws, name: 'town', format: 'text' as const, memberId }).returning();
});
afterAll(async () => {
  await dispose?.();
});

async function recurring(status: 'active' | 'paused') {
  const rf = {
    nodes: [
      { id: 'trigger', type: 'RecurringTriggerNode', position: { x: 0, y: 0 }, data: { label: 'API', attributeMapping: [{ id: 'm1', objectKey: 'town', attributeId: townAttrId }] } },
      { id: 's1', type: 'DelayNode', position: { x: 0, y: 100 }, data: { label: 'Wait', waitFor: 1, waitForUnit: 'hours' } },
    ],
    edges: [{ id: 'e0', source: 'trigger', target: 's1' }],
    viewport: { x: 0, y: 0, zoom: 1 },
  };
  const [c] = await database.db.insert(t.campaigns).values({ workspaceId: ws, name: 'Recurring', type: 'recurring', status, rfInstance: rf, memberId, deployedAt: new Date(), deployedRf: rf }).returning();
  return c;
}

const service = () => campaignTriggerService({ db: database }, { wake: () => void wakes++ });
const ctx = (): CampaignKeyContext => ({ caller: null, workspaceId: ws, role: 'admin', triggerKeyHash: 'h' });
const contactByPhone = async (phone: string) => (await database.db.select().from(t.contacts).where(eq(t.contacts.phoneNumber, phone)))[0];

describe('a trigger batch', () => {
  it('with a number twice, invalid records and an existing contact: results in record order, one recipient per contact', async () => {
    const [known] = await database.db
      .insert(t.contacts)
      .values({ workspaceId: ws, phoneNumber: '+16505550100', name: 'Known Name', attributes: { town: 'Old', vip: 'yes' } })
      .returning();
    const c = await recurring('active');
    const before = wakes;
    const answer = await service().trigger(ctx(), c.id, [
      { phone: '+1 650 555 0101', name: 'Ann', town: 'Lyon' },
      { phone: 'not a phone' },
      { phone: '+16505550100', name: 'Other Name', town: 'Nice' },
      { name: 'No phone' },
      { phone: '(650) 555-0101', town: 'Paris' },
      { phone: '+16505550102' },
    ]);
    expect(answer).toMatchObject({ success: true, queued: 4, rejected: 2 });
    expect(answer.results.map((r) => [r.index, r.status, r.reason])).toEqual([
      [0, 'queued', null],
      [1, 'rejected', 'Not a valid phone number: not a phone'],
      [2, 'queued', null],
      [3, 'rejected', 'The record has no phone number'],
      [4, 'queued', null],
      [5, 'queued', null],
    ]);
    const ann = await contactByPhone('+16505550101');
    const newcomer = await contactByPhone('+16505550102');
    // The number given twice is one contact: the first name, the later record's attribute value.
    expect(ann).toMatchObject({ name: 'Ann', attributes: { town: 'Paris' } });
    expect(answer.results[0].contactId).toBe(ann.id);
    expect(answer.results[4].contactId).toBe(ann.id);
    // An existing contact keeps its name and takes the new value over its own, its other attributes kept.
    expect(answer.results[2].contactId).toBe(known.id);
    expect(await contactByPhone('+16505550100')).toMatchObject({ name: 'Known Name', attributes: { town: 'Nice', vip: 'yes' } });
    expect(newcomer).toMatchObject({ name: null, attributes: {} });
    const runs = await database.db.select().from(t.campaignRuns).where(eq(t.campaignRuns.campaignId, c.id));
    expect(runs).toEqual([expect.objectContaining({ status: 'running', snapshotDone: true, recipientCount: 3 })]);
    const recipients = await database.db.select().from(t.campaignRecipients).where(eq(t.campaignRecipients.runId, runs[0].id));
    expect(recipients.map((r) => r.contactId).sort()).toEqual([ann.id, known.id, newcomer.id].sort());
    expect(recipients.every((r) => r.status === 'pending' && r.stepId === 's1' && r.campaignId === c.id)).toBe(true);
    expect(wakes).toBe(before + 1);
  });

  it('a call whose records are all invalid queues no run', async () => {
    const c = await recurring('active');
    const answer = await service().trigger(ctx(), c.id, [{ phone: '123' }, { town: 'Lyon' }]);
    expect(answer).toMatchObject({ success: true, queued: 0, rejected: 2 });
    expect(await database.db.select().from(t.campaignRuns).where(eq(t.campaignRuns.campaignId, c.id))).toEqual([]);
  });

  it('a paused campaign answers 409 and writes nothing: no contact, no run', async () => {
    const c = await recurring('paused');
    await expect(service().trigger(ctx(), c.id, [{ phone: '+16505550177', town: 'Lyon' }])).rejects.toMatchObject({ statusCode: 409 });
    expect(await contactByPhone('+16505550177')).toBeUndefined();
    expect(await database.db.select().from(t.campaignRuns).where(eq(t.campaignRuns.campaignId, c.id))).toEqual([]);
  });
});
