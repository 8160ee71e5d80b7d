/**
 * The engines' hooks take a whole inbound batch (and a batch of statuses) and decide as the same messages would
 * one at a time: auto-assignment deals a batch round-robin and continues the order in the next batch; campaign
 * replies and opt-outs of one batch land together; a batch of statuses leaves every campaign log line where the
 * same statuses applied one by one leave it.
 */
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import { campaignInboundCommitted, campaignStatusesApplied } from '../../src/server/campaigns/inbound-hooks';
import type { ServiceDeps } from '../../src/server/services/context';
import { routingService } from '../../src/server/services/routing-service';
import type { AccountRow } from '../../src/server/repositories/channel';
import type { StatusOfWamid } from '../../src/server/repositories/inbound-campaigns';
import { type InboundItem, storeInboundBatch } from '../../src/server/whatsapp/inbound-batch';
import { openTestDatabase } from '../support/server';

let database: Database;
let dispose: () => Promise<void>;
let ws: string;
let account: AccountRow;
let owner: string;
let seq = 0;

beforeAll(async () => {
  ({ database, dispose } = await openTestDatabase());
  const db = database.db;
  const [w] = await db.insert(t.workspaces).values({ name: 'Batch hooks' }).returning();
  ws = w.id;
  const [m] = await db.insert(t.members).values({ uid: `batch-owner-${Date.now()}` }).returning();
  owner = m.id;
  await db.insert(t.workspaceMembers).values({ workspaceId: ws, memberId: owner, role: 'admin' });
  [account] = (await db
    .insert(t.whatsappAccounts)
    .values({ workspaceId: ws, phoneNumber: '+16505550100', wabaAccountId: '1', appId: 'a', phoneNumberId: `pn-${Date.now()}`, tokenCiphertext: 'x', tokenLast4: '0000', memberId: owner })
    .returning()) as AccountRow[];
}, 120_000);
afterAll(async () => {
  await dispose?.();
});

const item = (phoneNumber: string, text: string): InboundItem => {
  const at = new Date(Date.now() + seq);
  return {
    account,
    wamid: `wamid.batch${seq++}`,
    customer: { phoneNumber, userId: null, parentUserId: null, username: null, name: null },
    content: { type: 'text', text, mediaUrl: null, header: null, action: null, footer: null },
    at,
    sentAt: at,
  };
};
const store = async (items: InboundItem[]) => (await database.transaction((tx) => storeInboundBatch(tx, ws, items))).stored;
const phoneOf = (i: InboundItem) => i.customer.phoneNumber!;
const newCustomers = (n: number) => Array.from({ length: n }, () => item(`+1415777${String(1000 + seq).padStart(4, '0')}`, 'Hello'));

describe('auto-assignment of a batch', () => {
  it('deals the batch round-robin up to each capacity, and the next batch continues the order', async () => {
    const db = database.db;
    const names = new Map<string, string>();
    for (const [i, name] of ['ann', 'bob', 'cat'].entries()) {
      const [m] = await db.insert(t.members).values({ uid: `batch-${name}-${Date.now()}` }).returning();
      await db.insert(t.workspaceMembers).values({
        workspaceId: ws,
        memberId: m.id,
        role: 'agent',
        available: true,
        chatCapacity: name === 'cat' ? 1 : 10,
        createdAt: new Date(Date.now() - 60_000 + i * 1000),
      });
      names.set(m.id, name);
    }
    const assigned: string[] = [];
    const routing = routingService({ db: database } as unknown as ServiceDeps, async (workspaceId, conversationId, memberId) => {
      await db.update(t.conversations).set({ assigneeMemberId: memberId }).where(eq(t.conversations.id, conversationId));
      assigned.push(names.get(memberId)!);
    });

    const first = newCustomers(4);
    expect(await routing.afterInbound(ws, [...(await store(first))])).toEqual({ assigned: 4, leftToBot: 0, noAgent: 0 });
    // Cat's capacity is 1: after her seat is taken, Ann and Bob alternate.
    expect(assigned).toEqual(['ann', 'bob', 'cat', 'ann']);
    const second = newCustomers(3);
    expect(await routing.afterInbound(ws, [...(await store(second))])).toEqual({ assigned: 3, leftToBot: 0, noAgent: 0 });
    expect(assigned.slice(4)).toEqual(['bob', 'ann', 'bob']);

    // A customer writing again in an assigned conversation changes nothing.
    expect(await routing.afterInbound(ws, [...(await store([item(phoneOf(first[0]), 'Still there?')]))])).toEqual({ assigned: 0, leftToBot: 0, noAgent: 0 });
    await db.update(t.workspaceMembers).set({ available: false }).where(eq(t.workspaceMembers.workspaceId, ws));
    expect(await routing.afterInbound(ws, [...(await store(newCustomers(2)))])).toEqual({ assigned: 0, leftToBot: 0, noAgent: 2 });
    expect(assigned).toHaveLength(7);
  });
});

describe('campaign hook of a batch', () => {
  it('marks the replies and opts out, in one go, the contacts of the batch a campaign concerns', async () => {
    const db = database.db;
    const replying = item('+14158880001', 'Thanks!');
    const stopping = item('+14158880002', '  stop ');
    const unrelated = item('+14158880003', 'Hi');
    const { items: stored } = await database.transaction((tx) => storeInboundBatch(tx, ws, [replying, stopping, unrelated]));
    const contacts = await db.select().from(t.contacts).where(like(t.contacts.phoneNumber, '+1415888%'));
    const idOf = (phone: string) => contacts.find((c) => c.phoneNumber === phone)!.id;
    const [campaign] = await db.insert(t.campaigns).values({ workspaceId: ws, name: 'Offer', type: 'oneTime', rfInstance: {}, memberId: owner }).returning();
    await db.insert(t.campaignLogs).values(
      [replying, stopping].map((i) => ({
        workspaceId: ws,
        campaignId: campaign.id,
        contactId: idOf(phoneOf(i)),
        phoneNumber: phoneOf(i),
        templateName: 'offer',
        messageStatus: 'success' as const,
        waMessageId: `wamid.offer-${phoneOf(i)}`,
      })),
    );
    const d = { db: database, jobs: { send: async () => null }, log: { warn: () => undefined } } as unknown as Pick<ServiceDeps, 'db' | 'jobs' | 'log'>;
    await campaignInboundCommitted(d, ws, stored);
    const logs = await db.select().from(t.campaignLogs).where(eq(t.campaignLogs.campaignId, campaign.id));
    expect(logs.every((l) => l.repliedAt !== null)).toBe(true);
    const after = await db.select().from(t.contacts).where(like(t.contacts.phoneNumber, '+1415888%'));
    expect(after.filter((c) => c.optedOutAt !== null).map((c) => c.phoneNumber)).toEqual(['+14158880002']);
    const events = await db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.workspaceId, ws));
    expect(events.filter((e) => e.type === 'contact.updated').map((e) => (e.payload as { contact: { id: string } }).contact.id)).toContain(idOf(phoneOf(stopping)));
  });
});

describe('campaign log lines of a batch of statuses', () => {
  it('end where the same statuses one at a time leave them, each wamid in its order', async () => {
    const db = database.db;
    const [campaign] = await db.insert(t.campaigns).values({ workspaceId: ws, name: 'Statuses', type: 'oneTime', rfInstance: {}, memberId: owner }).returning();
    const fail = { code: 131026, reason: 'Message undeliverable' };
    const none = { code: null, reason: null };
    const sequences: StatusOfWamid['status'][][] = [
      ['delivered', 'read'],
      ['read', 'delivered'],
      ['read', 'failed'],
      ['failed', 'read'],
      ['sent', 'failed', 'delivered'],
      ['delivered'],
      ['failed'],
    ];
    const lists = { one: [] as StatusOfWamid[], batch: [] as StatusOfWamid[] };
    for (const way of ['one', 'batch'] as const) {
      await db.insert(t.campaignLogs).values(
        sequences.map((_, k) => ({
          workspaceId: ws,
          campaignId: campaign.id,
          phoneNumber: `+1415999${k}`,
          templateName: 'offer',
          messageStatus: 'success' as const,
          waMessageId: `wamid.${way}-${k}`,
          deliveryState: k === 6 ? ('unknown' as const) : ('sent' as const),
          reason: k === 6 ? 'no answer from Meta' : null,
        })),
      );
      // Interleaved across wamids, as a webhook batch delivers them.
      for (let step = 0; step < 3; step++) {
        sequences.forEach((s, k) => {
          if (s[step]) lists[way].push({ wamid: `wamid.${way}-${k}`, status: s[step], failure: s[step] === 'failed' ? fail : none });
        });
      }
    }
    for (const s of lists.one) await database.transaction((tx) => campaignStatusesApplied(tx, ws, [s]));
    const changed = await database.transaction((tx) => campaignStatusesApplied(tx, ws, lists.batch));
    expect(changed).toEqual([campaign.id]);
    const rows = await db.select().from(t.campaignLogs).where(eq(t.campaignLogs.campaignId, campaign.id));
    const state = (way: string) =>
      sequences.map((_, k) => {
        const r = rows.find((x) => x.waMessageId === `wamid.${way}-${k}`)!;
        return { deliveryState: r.deliveryState, messageStatus: r.messageStatus, errorCode: r.errorCode, reason: r.reason };
      });
    expect(state('batch')).toEqual(state('one'));
    expect(state('batch').map((s) => s.deliveryState)).toEqual(['read', 'read', 'read', 'failed', 'failed', 'delivered', 'failed']);
  });
});
