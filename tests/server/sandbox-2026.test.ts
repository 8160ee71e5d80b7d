/**
 * Parley against the sandbox's 2026 simulations, end to end: every webhook is a signed delivery through the real
 * /webhooks/whatsapp route, every answer goes out through the real Graph client. A customer with a hidden phone
 * is answered by user id; a user id change keeps one contact; marketing stop and resume reach the contact; the
 * business's messages from its phone appear in the conversation, marked; the prices of statuses are stored.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { buildTestApp, type Session, type TestApp } from '../support/server';

let ta: TestApp;
let admin: Session;
let phoneNumberId = '';

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Coexisting Bakery');
  const number = ta.sandbox.addAccount();
  const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId } });
  expect(res.statusCode).toBe(201);
  phoneNumberId = number.phoneNumberId;
}, 120_000);
afterAll(async () => {
  await ta?.close();
});

const settle = async () => {
  await ta.sandbox.settle();
  await ta.app.parley.jobs.drain();
};
async function contactByUserId(userId: string) {
  const rows = await ta.db.select().from(t.contacts).where(and(eq(t.contacts.workspaceId, admin.workspaceId), eq(t.contacts.userId, userId)));
  return rows;
}
async function conversationOf(contactId: string) {
  const [c] = await ta.db.select().from(t.conversations).where(eq(t.conversations.contactId, contactId));
  return c;
}
async function messagesOf(conversationId: string) {
  const res = await ta.call('GET', `/conversation/${conversationId}/messages`, { token: admin.token });
  expect(res.statusCode).toBe(200);
  const body = res.json() as { items?: unknown[] } | unknown[];
  const list = (Array.isArray(body) ? body : (body.items ?? [])) as { text: string | null; creator: string; createdAt: string; sentFromPhone?: boolean }[];
  return list.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
}

describe('a customer whose phone WhatsApp withholds', () => {
  it('is a contact with the username and no phone, answered by user id, and the statuses and prices of the answer are stored', async () => {
    await ta.sandbox.customers.say('14155553001', 'Do you deliver on Sundays?', { phoneNumberId, name: 'Nora', username: 'nora.b', hidePhone: true });
    await settle();
    const { userId } = ta.sandbox.customers.identity('14155553001');
    const [contact] = await contactByUserId(userId);
    expect(contact).toMatchObject({ phoneNumber: null, username: 'nora.b', name: 'Nora' });
    const conversation = await conversationOf(contact.id);

    const reply = await ta.call('POST', '/message', { token: admin.token, body: { conversationId: conversation.id, text: 'Yes, until noon' } });
    expect(reply.statusCode, reply.body).toBe(201);
    await settle();
    const out = ta.sandbox.sent.at(-1)!;
    expect(out.body).toMatchObject({ recipient: userId, text: { body: 'Yes, until noon' } });
    expect(out.body).not.toHaveProperty('to');
    const [stored] = await ta.db.select().from(t.messages).where(eq(t.messages.waMessageId, out.id));
    expect(stored.status).toBe('read');
    expect(stored.pricing).toMatchObject({ category: 'service', type: 'free_customer_service' });
  });

  it('changing user id stays one contact under the new id, and the next answer goes to the new id', async () => {
    await ta.sandbox.customers.say('14155553002', 'Hello', { phoneNumberId, username: 'omar', hidePhone: true });
    await settle();
    const { previous, current } = await ta.sandbox.customers.changeUserId('14155553002', phoneNumberId);
    await settle();
    expect(await contactByUserId(previous)).toEqual([]);
    const [contact] = await contactByUserId(current);
    expect(contact.username).toBe('omar');
    const conversation = await conversationOf(contact.id);
    expect((await messagesOf(conversation.id)).map((m) => m.text)).toContain('Hello');
    const reply = await ta.call('POST', '/message', { token: admin.token, body: { conversationId: conversation.id, text: 'Welcome back' } });
    expect(reply.statusCode, reply.body).toBe(201);
    await settle();
    expect(ta.sandbox.sent.at(-1)!.body).toMatchObject({ recipient: current });
  });

  it("stopping and resuming marketing in WhatsApp is the contact's Meta consent", async () => {
    await ta.sandbox.customers.say('14155553003', 'hi', { phoneNumberId, username: 'pia', hidePhone: true });
    await settle();
    const { userId } = ta.sandbox.customers.identity('14155553003');
    await ta.sandbox.customers.setMarketingPreference('14155553003', 'stop', phoneNumberId);
    await settle();
    const [stopped] = await contactByUserId(userId);
    expect(stopped).toMatchObject({ marketingConsent: 'stopped', marketingConsentSource: 'user_preferences' });
    await new Promise((r) => setTimeout(r, 1100)); // Meta's timestamps are whole seconds: the resume is newer.
    await ta.sandbox.customers.setMarketingPreference('14155553003', 'resume', phoneNumberId);
    await settle();
    const [resumed] = await contactByUserId(userId);
    expect(resumed.marketingConsent).toBe('resumed');
  });
});

describe("the business's messages from the WhatsApp Business app", () => {
  it('appear in the conversation as sent from the phone, leave it read and start nothing', async () => {
    await ta.sandbox.customers.say('14155553004', 'Is my cake ready?', { phoneNumberId });
    await settle();
    const { userId } = ta.sandbox.customers.identity('14155553004');
    const [contact] = await contactByUserId(userId);
    const before = await conversationOf(contact.id);
    const sentBefore = ta.sandbox.sent.length;
    await ta.sandbox.customers.echo('14155553004', 'Ready at 4pm!', phoneNumberId);
    await ta.sandbox.customers.echo('14155553004', 'Pick-up at the side door', phoneNumberId);
    await settle();
    const messages = await messagesOf(before.id);
    expect(messages.map((m) => [m.text, m.creator, m.sentFromPhone ?? false])).toEqual([
      ['Is my cake ready?', 'user', false],
      ['Ready at 4pm!', 'agent', true],
      ['Pick-up at the side door', 'agent', true],
    ]);
    const after = await conversationOf(contact.id);
    expect(after.lastInboundAt).toEqual(before.lastInboundAt);
    expect(ta.sandbox.sent.length).toBe(sentBefore);
  });
});
