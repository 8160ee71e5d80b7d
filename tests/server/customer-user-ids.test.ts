/**
 * Customers known by a business-scoped user id (WhatsApp since 2026): webhooks in the reference's shapes, with
 * the phone left out for customers with a username, called on the real inbound pipeline over a fresh database.
 * One contact per person, user id first and phone second; identity changes move the contact and keep its
 * history; redelivery changes nothing.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { Database } from '../../src/server/db/client';
import { createFileStore } from '../../src/server/storage/file-store';
import { buildInboundPipeline, type InboundDeps } from '../../src/server/app/inbound';
import { addressFields } from '../../src/server/whatsapp/graph-types';
import { contactAddress, contactLabel } from '../../src/shared/contact-label';
import { openTestDatabase } from '../support/server';

let database: Database;
let dispose: () => Promise<void>;
let ws = '';
const phoneNumberId = `pn-uid-${Date.now()}`;
const wabaId = `waba-uid-${Date.now()}`;
const quiet = { warn: () => undefined, info: () => undefined, debug: () => undefined, error: () => undefined };

beforeAll(async () => {
  ({ database, dispose } = await openTestDatabase());
  const db = database.db;
  const [w] = await db.insert(t.workspaces).values({ name: 'User id shop' }).returning();
  ws = w.id;
  const [m] = await db.insert(t.members).values({ uid: `uid-uid-${Date.now()}` }).returning();
  await db.insert(t.whatsappAccounts).values({
    workspaceId: ws,
    phoneNumber: '+14155550000',
    wabaAccountId: wabaId,
    appId: 'app',
    phoneNumberId,
    tokenCiphertext: 'sealed',
    tokenLast4: '0000',
    memberId: m.id,
  });
}, 120_000);
afterAll(async () => {
  await dispose?.();
});

const pipeline = () =>
  buildInboundPipeline({
    db: database,
    files: createFileStore({ dataDir: '/tmp/parley-uid-files', publicUrl: 'http://parley.test', secret: 's' }),
    log: quiet,
    jobs: { send: async () => null },
  } as unknown as InboundDeps);

let seq = 0;
const wamid = () => `wamid.uid.${Date.now()}.${++seq}`;
const ts = (offset = 0) => String(Math.floor(Date.now() / 1000) + offset);
const deliver = (field: string, value: Record<string, unknown>) =>
  pipeline().processWebhook({
    object: 'whatsapp_business_account',
    entry: [{ id: wabaId, changes: [{ field, value: { messaging_product: 'whatsapp', metadata: { phone_number_id: phoneNumberId }, ...value } }] }],
  });

/** A text message as Meta sends it since 2026; `waId` undefined: the phone is withheld. */
function textFrom(who: { userId: string; waId?: string; username?: string; name?: string }, text: string, id = wamid()) {
  return {
    contacts: [{ profile: { name: who.name ?? 'Customer', ...(who.username ? { username: who.username } : {}) }, ...(who.waId ? { wa_id: who.waId } : {}), user_id: who.userId }],
    messages: [{ ...(who.waId ? { from: who.waId } : {}), from_user_id: who.userId, id, timestamp: ts(), type: 'text', text: { body: text } }],
  };
}

const contactsWhere = (cond: ReturnType<typeof eq>) => database.db.select().from(t.contacts).where(and(eq(t.contacts.workspaceId, ws), cond));
async function conversationsOf(contactId: string) {
  return database.db.select().from(t.conversations).where(eq(t.conversations.contactId, contactId));
}
async function textsOf(contactId: string) {
  const convs = await conversationsOf(contactId);
  const rows = [];
  for (const c of convs) rows.push(...(await database.db.select().from(t.messages).where(eq(t.messages.conversationId, c.id))));
  return rows.map((r) => r.text).sort();
}

describe('a customer whose phone WhatsApp withholds', () => {
  it('is stored as a contact with the user id and username and no phone, and the message is kept', async () => {
    const userId = 'US.13491208655302741918';
    await deliver('messages', textFrom({ userId, username: 'maria.g', name: 'María' }, 'Hola, ¿tienen talla M?'));
    const [c] = await contactsWhere(eq(t.contacts.userId, userId));
    expect(c).toMatchObject({ phoneNumber: null, userId, username: 'maria.g', name: 'María' });
    expect(await textsOf(c.id)).toEqual(['Hola, ¿tienen talla M?']);
    expect(contactAddress(c)).toBe('@maria.g');
    expect(contactLabel({ ...c, name: null })).toBe('@maria.g');
    expect(contactAddress({ phoneNumber: null, username: null })).toBe('Phone hidden');
  });

  it('writing again, or the same message delivered twice, stays one contact and one conversation', async () => {
    const userId = 'US.20000000000000000001';
    const first = textFrom({ userId, username: 'leo' }, 'one');
    await deliver('messages', first);
    await deliver('messages', first);
    await deliver('messages', textFrom({ userId, username: 'leo' }, 'two'));
    const rows = await contactsWhere(eq(t.contacts.userId, userId));
    expect(rows).toHaveLength(1);
    expect(await conversationsOf(rows[0].id)).toHaveLength(1);
    expect(await textsOf(rows[0].id)).toEqual(['one', 'two']);
  });

  it('a message naming neither a phone nor a user id is dropped, not stored under an empty contact', async () => {
    const before = await database.db.select().from(t.contacts).where(eq(t.contacts.workspaceId, ws));
    await deliver('messages', { messages: [{ id: wamid(), timestamp: ts(), type: 'text', text: { body: 'who am I' } }] });
    const after = await database.db.select().from(t.contacts).where(eq(t.contacts.workspaceId, ws));
    expect(after).toHaveLength(before.length);
  });
});

describe('a phone contact whose webhooks start carrying a user id', () => {
  it('takes the user id and stays one contact with one conversation; later phone-less messages find it', async () => {
    const waId = '14155559001';
    await deliver('messages', { contacts: [{ wa_id: waId, profile: { name: 'Ann' } }], messages: [{ from: waId, id: wamid(), timestamp: ts(), type: 'text', text: { body: 'before' } }] });
    const userId = 'US.30000000000000000001';
    await deliver('messages', textFrom({ userId, waId, name: 'Ann' }, 'with id'));
    await deliver('messages', textFrom({ userId, username: 'ann.b' }, 'phone hidden now'));
    const rows = await contactsWhere(eq(t.contacts.phoneNumber, '+14155559001'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId, username: 'ann.b' });
    expect(await conversationsOf(rows[0].id)).toHaveLength(1);
    expect(await textsOf(rows[0].id)).toEqual(['before', 'phone hidden now', 'with id']);
  });

  it('a user-id contact whose phone Meta starts sharing takes that phone', async () => {
    const userId = 'US.40000000000000000001';
    await deliver('messages', textFrom({ userId, username: 'zoe' }, 'hidden'));
    await deliver('messages', textFrom({ userId, waId: '14155559002' }, 'shared'));
    const [c] = await contactsWhere(eq(t.contacts.userId, userId));
    expect(c.phoneNumber).toBe('+14155559002');
    expect(await textsOf(c.id)).toEqual(['hidden', 'shared']);
  });
});

describe('identity changes', () => {
  it('user_changed_number moves the contact to its new phone, keeps its history, and a redelivery changes nothing', async () => {
    const waId = '14155559003';
    const userId = 'US.50000000000000000001';
    await deliver('messages', textFrom({ userId, waId }, 'old phone'));
    const system = {
      messages: [
        { from: waId, from_user_id: userId, id: wamid(), timestamp: ts(), type: 'system', system: { body: 'User A changed from +1 415-555-9003 to +1 415-555-9004', type: 'user_changed_number', wa_id: '14155559004', user_id: userId } },
      ],
    };
    await deliver('messages', system);
    await deliver('messages', system);
    const [c] = await contactsWhere(eq(t.contacts.userId, userId));
    expect(c.phoneNumber).toBe('+14155559004');
    // A system message is not a message of the conversation.
    expect(await textsOf(c.id)).toEqual(['old phone']);
    const history = await database.db.select().from(t.contactIdentityChanges).where(eq(t.contactIdentityChanges.contactId, c.id));
    expect(history.map((h) => [h.kind, h.previous, h.current])).toEqual([['phoneNumber', '+14155559003', '+14155559004']]);
    await deliver('messages', textFrom({ userId, waId: '14155559004' }, 'new phone'));
    expect(await contactsWhere(eq(t.contacts.userId, userId))).toHaveLength(1);
    expect(await conversationsOf(c.id)).toHaveLength(1);
  });

  it('user_changed_user_id and the user_id_update field move the contact to its new user id; the old id no longer names anyone', async () => {
    const before = 'US.60000000000000000001';
    const next = 'US.60000000000000000002';
    const last = 'US.60000000000000000003';
    await deliver('messages', textFrom({ userId: before, username: 'kai' }, 'first'));
    const [c] = await contactsWhere(eq(t.contacts.userId, before));
    await deliver('messages', { messages: [{ from_user_id: before, id: wamid(), timestamp: ts(), type: 'system', system: { body: 'User changed', type: 'user_changed_user_id', user_id: next } }] });
    expect((await contactsWhere(eq(t.contacts.id, c.id)))[0].userId).toBe(next);
    const update = { user_id_update: [{ detail: 'user id changed', timestamp: ts(), user_id: { previous: next, current: last } }] };
    await deliver('user_id_update', update);
    await deliver('user_id_update', update);
    expect((await contactsWhere(eq(t.contacts.id, c.id)))[0].userId).toBe(last);
    await deliver('messages', textFrom({ userId: last, username: 'kai' }, 'after'));
    expect(await contactsWhere(eq(t.contacts.userId, last))).toHaveLength(1);
    expect(await textsOf(c.id)).toEqual(['after', 'first']);
    const history = await database.db.select().from(t.contactIdentityChanges).where(eq(t.contactIdentityChanges.contactId, c.id));
    expect(history.map((h) => [h.previous, h.current])).toEqual([
      [before, next],
      [next, last],
    ]);
  });
});

describe("Meta's marketing consent of a customer known by user id alone", () => {
  it('a user_preferences stop naming only the user id stops that contact; an older resume changes nothing', async () => {
    const userId = 'US.70000000000000000001';
    await deliver('messages', textFrom({ userId, username: 'noa' }, 'hi'));
    const pref = (value: string, at: number) => ({ user_preferences: [{ user_id: userId, category: 'marketing_messages', value, timestamp: String(at) }] });
    const now = Math.floor(Date.now() / 1000);
    await deliver('user_preferences', pref('stop', now));
    await deliver('user_preferences', pref('resume', now - 60));
    const [c] = await contactsWhere(eq(t.contacts.userId, userId));
    expect(c).toMatchObject({ phoneNumber: null, marketingConsent: 'stopped', marketingConsentSource: 'user_preferences' });
  });
});

describe('sending', () => {
  it('goes with `to` when the phone is known and with `recipient` when only the user id is', () => {
    expect(addressFields({ phoneNumber: '+14155550123', userId: 'US.1' })).toEqual({ to: '+14155550123' });
    expect(addressFields({ phoneNumber: null, userId: 'US.13491208655302741918' })).toEqual({ recipient: 'US.13491208655302741918' });
    expect(() => addressFields({ phoneNumber: null, userId: 'not an id' })).toThrow();
  });
});
