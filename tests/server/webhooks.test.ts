/**
 * The WhatsApp webhook end to end on the real app: verification, signatures over the raw bytes, and every
 * delivery turned into stored contacts, conversations, messages, statuses and template statuses.
 */
import { and, eq, sql } from 'drizzle-orm';
import { rowsOf } from '../../src/server/db/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { seedWorkspace, type Seeded } from '../support/fixtures';
import {
  inbound,
  messagesChange,
  newWamid,
  postWebhook,
  signWebhookBody,
  statusUpdate,
  templateStatus,
  testVerifyToken,
} from '../support/sandbox-webhooks';

let ta: TestApp;
let admin: Session;
let s: Seeded;
let account: typeof t.whatsappAccounts.$inferSelect;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Webhook Bakery');
  s = await seedWorkspace(ta, admin);
  [account] = await ta.db.select().from(t.whatsappAccounts).where(eq(t.whatsappAccounts.id, s.ids.whatsappAccount));
});
afterAll(async () => {
  await ta?.close();
});

/** Posts a signed delivery and waits until its job has run. */
async function deliver(payload: unknown) {
  const res = await postWebhook(ta, payload);
  expect(res.statusCode).toBe(200);
  await ta.app.parley.jobs.drain();
  return res;
}

const messagesOf = (conversationId: string) =>
  ta.db.select().from(t.messages).where(and(eq(t.messages.workspaceId, s.workspaceId), eq(t.messages.conversationId, conversationId)));
const byWamid = async (wamid: string) =>
  (await ta.db.select().from(t.messages).where(and(eq(t.messages.workspaceId, s.workspaceId), eq(t.messages.waMessageId, wamid))))[0];
const contactByPhone = async (phone: string) =>
  (await ta.db.select().from(t.contacts).where(and(eq(t.contacts.workspaceId, s.workspaceId), eq(t.contacts.phoneNumber, phone))))[0];
const conversationsOf = (contactId: string) =>
  ta.db.select().from(t.conversations).where(and(eq(t.conversations.workspaceId, s.workspaceId), eq(t.conversations.contactId, contactId)));

describe('verification (GET /webhooks/whatsapp)', () => {
  it('answers the raw challenge when the verify token matches', async () => {
    const res = await ta.app.inject({
      method: 'GET',
      url: '/webhooks/whatsapp',
      query: { 'hub.mode': 'subscribe', 'hub.verify_token': testVerifyToken, 'hub.challenge': '1158201444' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('1158201444');
  });

  it('answers 403 to a wrong token or mode', async () => {
    const queries: Record<string, string>[] = [
      { 'hub.mode': 'subscribe', 'hub.verify_token': 'guess', 'hub.challenge': '1' },
      { 'hub.mode': 'unsubscribe', 'hub.verify_token': testVerifyToken, 'hub.challenge': '1' },
      {},
    ];
    for (const query of queries) {
      const res = await ta.app.inject({ method: 'GET', url: '/webhooks/whatsapp', query });
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain('1158201444');
    }
  });
});

describe('signature (POST /webhooks/whatsapp)', () => {
  it('refuses a missing, wrong or replayed-with-changes signature with 401 and stores nothing', async () => {
    const payload = inbound(account.phoneNumberId, '16505551999', { type: 'text', text: { body: 'forged' } });
    const raw = JSON.stringify(payload);
    const missing = await postWebhook(ta, raw, { signature: null });
    const wrongSecret = await postWebhook(ta, raw, { secret: 'not-the-app-secret' });
    const good = signWebhookBody('test-app-secret-0123456789', raw);
    // Same JSON meaning, different bytes: the signature is over the raw body, so it no longer matches.
    const reformatted = await postWebhook(ta, JSON.stringify(payload, null, 2), { signature: good });
    const garbage = await postWebhook(ta, raw, { signature: 'sha256=xyz' });
    for (const res of [missing, wrongSecret, reformatted, garbage]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ statusCode: 401, message: 'Invalid webhook signature', error: 'Unauthorized' });
    }
    await ta.app.parley.jobs.drain();
    expect(await contactByPhone('+16505551999')).toBeUndefined();
  });

  it('accepts the exact bytes signed with the app secret', async () => {
    const res = await deliver(inbound(account.phoneNumberId, '16505551998', { type: 'text', text: { body: 'signed' } }));
    expect(res.json()).toEqual({ success: true });
    expect(await contactByPhone('+16505551998')).toBeDefined();
  });
});

describe('inbound messages', () => {
  it('creates the contact (E.164, profile name), opens a conversation and stores the text from the customer', async () => {
    const payload = inbound(account.phoneNumberId, '4915112345678', { type: 'text', text: { body: 'Hallo, ist mein Paket unterwegs?' } }, 'Jonas Weber');
    await deliver(payload);
    const contact = await contactByPhone('+4915112345678');
    expect(contact).toMatchObject({ name: 'Jonas Weber', phoneNumber: '+4915112345678' });
    const [conversation] = await conversationsOf(contact.id);
    expect(conversation).toMatchObject({ isActive: true, whatsappAccountId: account.id });
    expect(conversation.lastInboundAt).toBeInstanceOf(Date);
    expect(conversation.lastMessageAt).toBeInstanceOf(Date);
    const [m] = await messagesOf(conversation.id);
    expect(m).toMatchObject({ type: 'text', text: 'Hallo, ist mein Paket unterwegs?', creator: 'user', status: 'received', memberId: null });

    // The open tab lists it first, with its contact and last message.
    const list = await ta.call('GET', `/workspace/${s.workspaceId}/conversations`, { token: admin.token, query: { tab: 'open' } });
    expect(list.statusCode).toBe(200);
    expect(list.json().items[0]).toMatchObject({
      id: conversation.id,
      Contact: { phoneNumber: '+4915112345678', name: 'Jonas Weber' },
      lastMessage: { text: 'Hallo, ist mein Paket unterwegs?', creator: 'user' },
    });

    // Events for the realtime stream, in the same transactions.
    const events = await ta.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.workspaceId, s.workspaceId));
    const types = events.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['contact.created', 'conversation.opened', 'message.created']));
  });

  it('stores a delivery seen twice once', async () => {
    const payload = inbound(account.phoneNumberId, '16505552001', { type: 'text', text: { body: 'only once' } });
    await deliver(payload);
    await deliver(payload);
    const contact = await contactByPhone('+16505552001');
    const conversations = await conversationsOf(contact.id);
    expect(conversations).toHaveLength(1);
    expect(await messagesOf(conversations[0].id)).toHaveLength(1);
  });

  it('opens one conversation when a known contact\'s first messages are processed at the same time', async () => {
    const from = '16505552010';
    // Imported earlier, never written: the contact exists, no conversation does.
    await ta.db.insert(t.contacts).values({ workspaceId: s.workspaceId, phoneNumber: `+${from}`, name: 'Imported Ida' });
    const deliveries = ['one', 'two', 'three'].map((body) => inbound(account.phoneNumberId, from, { type: 'text', text: { body } }));
    const answers = await Promise.all(deliveries.map((p) => postWebhook(ta, p)));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    await ta.app.parley.jobs.drain();
    const contact = await contactByPhone(`+${from}`);
    const conversations = await conversationsOf(contact.id);
    expect(conversations).toHaveLength(1);
    expect((await messagesOf(conversations[0].id)).map((m) => m.text).sort()).toEqual(['one', 'three', 'two']);
  });

  it('stores every interactive kind with the type the product knows', async () => {
    const from = '16505552002';
    const context = { from: '16505550100', id: newWamid() };
    const cases = [
      { msg: { type: 'interactive', context, interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes please' } } }, type: 'reply', text: 'Yes please' },
      { msg: { type: 'interactive', context, interactive: { type: 'list_reply', list_reply: { id: 'row_2', title: 'Tuesday', description: 'Afternoon' } } }, type: 'list', text: 'Tuesday' },
      {
        msg: {
          type: 'interactive',
          context,
          interactive: { type: 'nfm_reply', nfm_reply: { name: 'flow', body: 'Sent', response_json: '{"flow_token":"abc","size":"L"}' } },
        },
        type: 'flow',
        text: 'Sent',
      },
      { msg: { type: 'button', context, button: { payload: 'STOP', text: 'Stop promotions' } }, type: 'reply', text: 'Stop promotions' },
      { msg: { type: 'location', location: { latitude: 52.52, longitude: 13.405, name: 'Office' } }, type: 'text', text: 'Office (52.52, 13.405)' },
    ];
    const wamids: string[] = [];
    for (const c of cases) {
      const payload = inbound(account.phoneNumberId, from, c.msg);
      wamids.push((payload.entry[0].changes[0].value as unknown as { messages: { id: string }[] }).messages[0].id);
      await deliver(payload);
    }
    for (const [i, c] of cases.entries()) {
      expect(await byWamid(wamids[i]), c.type).toMatchObject({ type: c.type, text: c.text, creator: 'user' });
    }
    expect((await byWamid(wamids[0])).action).toMatchObject({ type: 'button_reply', id: 'yes', context: { id: context.id } });
    expect((await byWamid(wamids[1])).action).toMatchObject({ type: 'list_reply', id: 'row_2', description: 'Afternoon' });
    expect((await byWamid(wamids[2])).action).toMatchObject({ type: 'nfm_reply', response_json: { flow_token: 'abc', size: 'L' } });
    expect((await byWamid(wamids[3])).action).toMatchObject({ type: 'button', payload: 'STOP' });
    const contact = await contactByPhone(`+${from}`);
    expect(await conversationsOf(contact.id)).toHaveLength(1);
  });

  it('fetches inbound media through the Graph media API and keeps it in the file store', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const sent = await ta.sandbox.customers.send(
      '16505552003',
      { type: 'image', data: png, mimeType: 'image/png', caption: 'the broken part' },
      { phoneNumberId: account.phoneNumberId, name: 'Mia Image' },
    );
    await ta.app.parley.jobs.drain();
    const m = await byWamid(sent.id);
    expect(m).toMatchObject({ type: 'image', text: 'the broken part', creator: 'user' });
    expect(m.header).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(m.mediaUrl).toMatch(/\/files\//);
    // The stored file is served to members of the workspace, byte for byte.
    const file = await ta.call('GET', new URL(m.mediaUrl!).pathname, { token: admin.token });
    expect(file.statusCode).toBe(200);
    expect(Buffer.from(file.rawPayload).equals(png)).toBe(true);

    const doc = await ta.sandbox.customers.send(
      '16505552003',
      { type: 'document', mimeType: 'application/pdf', fileName: 'invoice.pdf' },
      { phoneNumberId: account.phoneNumberId },
    );
    await ta.app.parley.jobs.drain();
    expect(await byWamid(doc.id)).toMatchObject({ type: 'document', header: { filename: 'invoice.pdf' } });
    expect((await byWamid(doc.id)).mediaUrl).toMatch(/invoice\.pdf$/);
  });

  it('drops deliveries for a phone number id no workspace connected, and still answers 200', async () => {
    const before = await ta.db.select().from(t.messages);
    await deliver(inbound('999999999999999', '16505552004', { type: 'text', text: { body: 'hello?' } }));
    expect(await ta.db.select().from(t.messages)).toHaveLength(before.length);
    expect(await contactByPhone('+16505552004')).toBeUndefined();
  });

  it('reopens the contact\'s closed conversation instead of starting another, and records the reopening', async () => {
    const from = '16505552005';
    await deliver(inbound(account.phoneNumberId, from, { type: 'text', text: { body: 'first' } }));
    const contact = await contactByPhone(`+${from}`);
    const [c] = await conversationsOf(contact.id);
    const closed = await ta.call('PATCH', `/conversation/${c.id}`, { token: admin.token, body: { isActive: false } });
    expect(closed.json().isActive).toBe(false);

    await deliver(inbound(account.phoneNumberId, from, { type: 'text', text: { body: 'me again' } }));
    const all = await conversationsOf(contact.id);
    expect(all).toHaveLength(1);
    const detail = (await ta.call('GET', `/conversation/${c.id}`, { token: admin.token })).json();
    expect(detail.isActive).toBe(true);
    expect(detail.Message.map((m: { text: string }) => m.text)).toEqual(['first', 'me again']);
    expect(detail.ConversationEvent.map((e: { type: string }) => e.type)).toEqual(['CONVERSATION_CLOSED', 'CONVERSATION_REOPENED']);
    expect(detail.ConversationEvent[1].data).toEqual({ type: 'CONVERSATION_REOPENED', reopenedBy: 'contact', memberId: null });
    const updated = await ta.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.workspaceId, s.workspaceId));
    expect(updated.some((e) => e.type === 'conversation.updated' && (e.payload as { conversation: { id: string; isActive: boolean } }).conversation.id === c.id)).toBe(true);
  });

  it('records who reopened a conversation by hand', async () => {
    const from = '16505552007';
    await deliver(inbound(account.phoneNumberId, from, { type: 'text', text: { body: 'hello' } }));
    const [c] = await conversationsOf((await contactByPhone(`+${from}`)).id);
    await ta.call('PATCH', `/conversation/${c.id}`, { token: admin.token, body: { isActive: false } });
    const reopened = await ta.call('PATCH', `/conversation/${c.id}`, { token: admin.token, body: { isActive: true } });
    expect(reopened.json().isActive).toBe(true);
    const detail = (await ta.call('GET', `/conversation/${c.id}`, { token: admin.token })).json();
    expect(detail.ConversationEvent.at(-1).data).toEqual({ type: 'CONVERSATION_REOPENED', reopenedBy: 'member', memberId: admin.member.id });
  });

  it('keeps a name the team gave the contact over the WhatsApp profile name', async () => {
    const from = '16505552006';
    await deliver(inbound(account.phoneNumberId, from, { type: 'text', text: { body: 'hi' } }, 'Profile Name'));
    const contact = await contactByPhone(`+${from}`);
    await ta.call('PATCH', `/contact/${contact.id}`, { token: admin.token, body: { name: 'VIP Customer' } });
    await deliver(inbound(account.phoneNumberId, from, { type: 'text', text: { body: 'hi again' } }, 'Profile Name'));
    expect((await contactByPhone(`+${from}`)).name).toBe('VIP Customer');
  });
});

describe('statuses', () => {
  async function outbound(): Promise<string> {
    const wamid = newWamid();
    await ta.db.insert(t.messages).values({
      workspaceId: s.workspaceId,
      conversationId: s.ids.conversation,
      type: 'text',
      text: 'Your order shipped',
      creator: 'agent',
      memberId: admin.member.id,
      waMessageId: wamid,
      status: 'sent',
    });
    return wamid;
  }

  it('moves forward only: read beats delivered beats sent', async () => {
    const wamid = await outbound();
    await deliver(statusUpdate(account.phoneNumberId, wamid, 'delivered'));
    expect((await byWamid(wamid)).status).toBe('delivered');
    await deliver(statusUpdate(account.phoneNumberId, wamid, 'read'));
    expect((await byWamid(wamid)).status).toBe('read');
    // Late or repeated ones change nothing.
    await deliver(statusUpdate(account.phoneNumberId, wamid, 'delivered'));
    await deliver(statusUpdate(account.phoneNumberId, wamid, 'sent'));
    await deliver(statusUpdate(account.phoneNumberId, wamid, 'failed', { errors: [{ code: 131026, title: 'Message undeliverable' }] }));
    expect(await byWamid(wamid)).toMatchObject({ status: 'read', failureReason: null });
    const events = await ta.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.workspaceId, s.workspaceId));
    const mine = events.filter((e) => e.type === 'message.status' && (e.payload as { message: { status: string } }).message.status !== undefined);
    expect(mine.length).toBeGreaterThanOrEqual(2);
  });

  it('records a failure with the reason from errors[]', async () => {
    const wamid = await outbound();
    await deliver(
      statusUpdate(account.phoneNumberId, wamid, 'failed', {
        errors: [{ code: 131047, title: 'Re-engagement message', error_data: { details: 'More than 24 hours' } }],
      }),
    );
    const m = await byWamid(wamid);
    expect(m.status).toBe('failed');
    expect(m.failureReason).toContain('24 hours');
    expect(m.failureReason).toContain('131047');
    const detail = (await ta.call('GET', `/conversation/${s.ids.conversation}`, { token: admin.token })).json();
    expect(detail.Message.find((x: { id: string }) => x.id === m.id)).toMatchObject({ status: 'failed', failureReason: m.failureReason });
  });

  it('applies a status that overtook the answer of its send once the message is stored', async () => {
    const wamid = newWamid();
    const res = await postWebhook(ta, statusUpdate(account.phoneNumberId, wamid, 'delivered'));
    expect(res.statusCode).toBe(200);
    // The job runs while the message is not stored yet, and queues the delivery again to wait for it.
    await expect
      .poll(
        async () =>
          rowsOf<{ n: number }>(
            await ta.db.execute(sql`select count(*)::int as n from pgboss.job where name = 'whatsapp.webhook' and data::text like ${`%${wamid}%`} and data->>'waits' = '1'`),
          )[0].n,
        { timeout: 10_000, interval: 20 },
      )
      .toBeGreaterThan(0);
    await ta.db.insert(t.messages).values({
      workspaceId: s.workspaceId,
      conversationId: s.ids.conversation,
      type: 'text',
      text: 'raced',
      creator: 'agent',
      waMessageId: wamid,
      status: 'sent',
    });
    await ta.app.parley.jobs.drain();
    expect((await byWamid(wamid)).status).toBe('delivered');
  });

  it('ignores an old status for a message Parley never sent', async () => {
    const old = String(Math.floor(Date.now() / 1000) - 3600);
    await deliver(messagesChange(account.phoneNumberId, { statuses: [{ id: newWamid(), status: 'read', timestamp: old }] }));
  });
});

describe('template status updates', () => {
  it('changes the stored status of the template with that Meta id', async () => {
    await ta.db
      .update(t.whatsappTemplates)
      .set({ whatsappTemplateId: '594425479261596', status: 'PENDING' })
      .where(eq(t.whatsappTemplates.id, s.ids.whatsappTemplate));
    await deliver(templateStatus(account.wabaAccountId, '594425479261596', 'REJECTED'));
    const [tpl] = await ta.db.select().from(t.whatsappTemplates).where(eq(t.whatsappTemplates.id, s.ids.whatsappTemplate));
    expect(tpl.status).toBe('REJECTED');
    const list = await ta.call('GET', `/workspace/${s.workspaceId}/whatsapp-templates`, { token: admin.token });
    expect(list.json().items.find((x: { id: string }) => x.id === tpl.id).status).toBe('REJECTED');
    // A template of another WABA with the same Meta id is not touched.
    await deliver(templateStatus('111111111111111', '594425479261596', 'APPROVED'));
    const [again] = await ta.db.select().from(t.whatsappTemplates).where(eq(t.whatsappTemplates.id, s.ids.whatsappTemplate));
    expect(again.status).toBe('REJECTED');
  });
});
