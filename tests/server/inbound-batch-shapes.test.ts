/**
 * The batch statements of the inbound path (contacts by user id or phone, conversations found, reopened or opened,
 * all with their rows in one JSON parameter) over mixed batches: new and existing contacts by phone and by user
 * id, one customer twice, two customers sharing a phone, a user id or phone another contact holds.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import type { AccountRow } from '../../src/server/repositories/channel';
import type { CustomerIdentity } from '../../src/server/repositories/customer-identities';
import { type InboundItem, storeInboundBatch } from '../../src/server/whatsapp/inbound-batch';
import { openTestDatabase } from '../support/server';

let database: Database;
let dispose: () => Promise<void>;
let ws: string;
let account: AccountRow;
let seq = 0;

beforeAll(async () => {
  ({ database, dispose } = await openTestDatabase());
  const db = database.db;
  const [w] = await db.insert(t.workspaces).values({ name: 'Batch shapes' }).returning();
  ws = w.id;
  const [m] = await db.insert(t.members).values({ uid: `shapes-owner-${Date.now()}` }).returning();
  await db.insert(t.workspaceMembers).values({ workspaceId: ws, memberId: m.id, role: 'admin' });
  [account] = (await db
    .insert(t.whatsappAccounts)
    .values({ workspaceId: ws, phoneNumber: '+16505550100', wabaAccountId: '1', appId: 'a', phoneNumberId: `pn-shapes-${Date.now()}`, tokenCiphertext: 'x', tokenLast4: '0000', memberId: m.id })
    .returning()) as AccountRow[];
}, 120_000);
afterAll(async () => {
  await dispose?.();
});

const who = (c: Partial<CustomerIdentity>): CustomerIdentity => ({ phoneNumber: null, userId: null, parentUserId: null, username: null, name: null, ...c });
const item = (customer: CustomerIdentity): InboundItem => {
  const wamid = `wamid.shapes${seq}`;
  const at = new Date(Date.now() + seq++);
  return { account, wamid, customer, content: { type: 'text', text: 'Hi', mediaUrl: null, header: null, action: null, footer: null }, at, sentAt: at };
};
const store = (items: InboundItem[]) => database.transaction((tx) => storeInboundBatch(tx, ws, items));
const contactOf = async (id: string) => (await database.db.select().from(t.contacts).where(eq(t.contacts.id, id)))[0];
const conversationsOf = (contactId: string) =>
  database.db.select().from(t.conversations).where(and(eq(t.conversations.workspaceId, ws), eq(t.conversations.contactId, contactId)));

describe('a mixed inbound batch', () => {
  it('matches existing contacts by user id and by phone, creates the new ones, and keeps one contact per customer', async () => {
    const db = database.db;
    const [byPhone] = await db.insert(t.contacts).values({ workspaceId: ws, phoneNumber: '+14155550101', name: 'Phone Only' }).returning();
    const [byUser] = await db.insert(t.contacts).values({ workspaceId: ws, userId: 'US.shapes.2' }).returning();
    const [closed] = await db.insert(t.contacts).values({ workspaceId: ws, phoneNumber: '+14155550103', userId: 'US.shapes.3' }).returning();
    const [old] = await db.insert(t.conversations).values({ workspaceId: ws, contactId: closed.id, whatsappAccountId: account.id, isActive: false }).returning();

    const items = [
      item(who({ phoneNumber: '+14155550101', userId: 'US.shapes.1', name: 'Ignored Name' })), // existing by phone: takes the user id
      item(who({ userId: 'US.shapes.2', phoneNumber: '+14155550102', username: 'two' })), // existing by user id: takes the phone
      item(who({ phoneNumber: '+14155550104', name: 'New By Phone' })), // new, phone only
      item(who({ userId: 'US.shapes.5', username: 'five' })), // new, user id only
      item(who({ userId: 'US.shapes.5' })), // the same customer again in the batch
      item(who({ phoneNumber: '+14155550103', userId: 'US.shapes.3' })), // writes on a closed conversation
    ];
    const result = await store(items);
    expect(result.stored.size).toBe(items.length);
    const contactIds = result.items.map((i) => i.contactId);

    expect(contactIds[0]).toBe(byPhone.id);
    expect(await contactOf(byPhone.id)).toMatchObject({ userId: 'US.shapes.1', name: 'Phone Only' });
    expect(contactIds[1]).toBe(byUser.id);
    expect(await contactOf(byUser.id)).toMatchObject({ phoneNumber: '+14155550102', username: 'two' });
    expect(await contactOf(contactIds[2])).toMatchObject({ phoneNumber: '+14155550104', userId: null, name: 'New By Phone' });
    expect(await contactOf(contactIds[3])).toMatchObject({ phoneNumber: null, userId: 'US.shapes.5', username: 'five' });
    expect(contactIds[4]).toBe(contactIds[3]);
    expect(contactIds[5]).toBe(closed.id);
    expect(new Set(contactIds).size).toBe(5);

    // One conversation per contact: opened for the new ones, the closed one reopened rather than duplicated.
    for (const id of new Set(contactIds)) expect(await conversationsOf(id)).toHaveLength(1);
    const [reopened] = await conversationsOf(closed.id);
    expect(reopened).toMatchObject({ id: old.id, isActive: true });
    const messages = await db.select().from(t.messages).where(eq(t.messages.workspaceId, ws));
    expect(messages).toHaveLength(items.length);

    // The next batch finds every one of them again, by either key.
    const again = await store([item(who({ userId: 'US.shapes.1' })), item(who({ phoneNumber: '+14155550102' })), item(who({ phoneNumber: '+14155550104' }))]);
    expect(again.items.map((i) => i.contactId)).toEqual([byPhone.id, byUser.id, contactIds[2]]);
    for (const id of [byPhone.id, byUser.id, contactIds[2]]) expect(await conversationsOf(id)).toHaveLength(1);
  });

  it('two new customers sharing a phone in one batch become one contact (the second finds the first)', async () => {
    const result = await store([item(who({ userId: 'US.shapes.21', phoneNumber: '+14155550121' })), item(who({ userId: 'US.shapes.22', phoneNumber: '+14155550121' }))]);
    const [first, second] = result.items.map((i) => i.contactId);
    expect(second).toBe(first);
    expect(await contactOf(first)).toMatchObject({ userId: 'US.shapes.21', phoneNumber: '+14155550121' });
    expect(await conversationsOf(first)).toHaveLength(1);
  });

  it('a phone another contact holds is not taken: the customer stays on the contact of their user id', async () => {
    const db = database.db;
    const [holder] = await db.insert(t.contacts).values({ workspaceId: ws, phoneNumber: '+14155550131' }).returning();
    const [byUser] = await db.insert(t.contacts).values({ workspaceId: ws, userId: 'US.shapes.31' }).returning();
    const result = await store([item(who({ userId: 'US.shapes.31', phoneNumber: '+14155550131', username: 'thirty-one' }))]);
    expect(result.items[0].contactId).toBe(byUser.id);
    expect(await contactOf(byUser.id)).toMatchObject({ phoneNumber: null, username: 'thirty-one' });
    expect(await contactOf(holder.id)).toMatchObject({ userId: null });
  });
});
