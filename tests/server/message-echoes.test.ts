/**
 * Coexistence: `smb_message_echoes` webhooks (what the business sent from the WhatsApp Business app on its
 * phone), in the reference's shape, on the real inbound pipeline over a fresh database. An echo is the business's
 * own outbound message, marked as sent from the phone; it never starts a bot, never counts as the customer's
 * reply, never makes the conversation unread or reopens it, and is stored once however often it arrives.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { Database } from '../../src/server/db/client';
import { createFileStore } from '../../src/server/storage/file-store';
import { buildInboundPipeline, type InboundDeps } from '../../src/server/app/inbound';
import { toMessage } from '../../src/server/repositories/conversations';
import { openTestDatabase } from '../support/server';
import { recordingLogger, type LoggedLine } from '../support/recording-logger';

let database: Database;
let dispose: () => Promise<void>;
let ws = '';
let memberId = '';
let accountId = '';
const phoneNumberId = `pn-echo-${Date.now()}`;
const wabaId = `waba-echo-${Date.now()}`;
const businessDigits = '14155550000';
const logged: LoggedLine[] = [];
const jobsSent: { name: string; data: Record<string, unknown> }[] = [];

beforeAll(async () => {
  ({ database, dispose } = await openTestDatabase());
  const db = database.db;
  const [w] = await db.insert(t.workspaces).values({ name: 'Echo shop' }).returning();
  ws = w.id;
  const [m] = await db.insert(t.members).values({ uid: `uid-echo-${Date.now()}` }).returning();
  memberId = m.id;
  const [a] = await db
    .insert(t.whatsappAccounts)
    .values({ workspaceId: ws, phoneNumber: `+${businessDigits}`, wabaAccountId: wabaId, appId: 'app', phoneNumberId, tokenCiphertext: 'sealed', tokenLast4: '0000', memberId })
    .returning();
  accountId = a.id;
  // An active bot on the number: a customer's message starts a turn, an echo must not.
  await db.insert(t.bots).values({ workspaceId: ws, title: 'Greeter', isActive: true, rfInstance: {}, whatsappAccountId: accountId, memberId });
}, 120_000);
afterAll(async () => {
  await dispose?.();
});

const pipeline = () =>
  buildInboundPipeline({
    db: database,
    files: createFileStore({ dataDir: '/tmp/parley-echo-files', publicUrl: 'http://parley.test', secret: 's' }),
    log: recordingLogger(logged),
    jobs: {
      send: async (name: string, data: Record<string, unknown>) => {
        jobsSent.push({ name, data });
        return null;
      },
    },
  } as unknown as InboundDeps);

let seq = 0;
const wamid = () => `wamid.echo.${Date.now()}.${++seq}`;
const ts = (offset = 0) => String(Math.floor(Date.now() / 1000) + offset);
const metadata = { display_phone_number: businessDigits, phone_number_id: phoneNumberId };
const deliver = (field: string, value: Record<string, unknown>) =>
  pipeline().processWebhook({ object: 'whatsapp_business_account', entry: [{ id: wabaId, changes: [{ field, value: { messaging_product: 'whatsapp', metadata, ...value } }] }] });

/** A text the business sent from the app, as the reference shows `message_echoes[]`. */
function echo(to: { waId?: string; userId?: string }, body: string, id = wamid(), timestamp = ts()) {
  return {
    from: businessDigits,
    ...(to.waId ? { to: to.waId } : {}),
    ...(to.userId ? { to_user_id: to.userId } : {}),
    id,
    timestamp,
    type: 'text',
    text: { body },
  };
}
const echoes = (...items: unknown[]) => deliver('smb_message_echoes', { message_echoes: items });
const customerSays = (who: { waId?: string; userId: string; username?: string }, body: string, timestamp = ts()) =>
  deliver('messages', {
    contacts: [{ profile: { name: 'Customer', ...(who.username ? { username: who.username } : {}) }, ...(who.waId ? { wa_id: who.waId } : {}), user_id: who.userId }],
    messages: [{ ...(who.waId ? { from: who.waId } : {}), from_user_id: who.userId, id: wamid(), timestamp, type: 'text', text: { body } }],
  });

async function contactOf(userId: string) {
  const [c] = await database.db.select().from(t.contacts).where(and(eq(t.contacts.workspaceId, ws), eq(t.contacts.userId, userId)));
  return c;
}
async function conversationOf(contactId: string) {
  const rows = await database.db.select().from(t.conversations).where(eq(t.conversations.contactId, contactId));
  expect(rows).toHaveLength(1);
  return rows[0];
}
const messagesIn = (conversationId: string) =>
  database.db.select().from(t.messages).where(eq(t.messages.conversationId, conversationId)).orderBy(asc(t.messages.createdAt), asc(t.messages.id));
const eventsOfType = async (type: string) => (await database.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.workspaceId, ws))).filter((e) => e.type === type);

describe('a message the business sent from the WhatsApp Business app', () => {
  it("is stored as the business's outbound message in the customer's conversation, marked as sent from the phone", async () => {
    const who = { waId: '14155551001', userId: 'US.40000000000000000001' };
    await customerSays(who, 'Is the blue one in stock?');
    const id = wamid();
    await echoes(echo(who, 'Yes, two left!', id));
    const contact = await contactOf(who.userId);
    const conversation = await conversationOf(contact.id);
    const rows = await messagesIn(conversation.id);
    expect(rows.map((r) => [r.text, r.creator, r.sentFromPhone])).toEqual([
      ['Is the blue one in stock?', 'user', false],
      ['Yes, two left!', 'agent', true],
    ]);
    const stored = rows[1];
    expect(stored).toMatchObject({ waMessageId: id, memberId: null, status: 'sent', type: 'text' });
    // What the live chat receives: the message with its mark, announced like any message.
    expect(toMessage(stored)).toMatchObject({ creator: 'agent', sentFromPhone: true, text: 'Yes, two left!' });
    const created = (await eventsOfType('message.created')).map((e) => (e.payload as { message: { id: string; sentFromPhone?: boolean } }).message);
    expect(created.find((m) => m.id === stored.id)?.sentFromPhone).toBe(true);
  });

  it("starts no bot turn, leaves the conversation read, and is not the customer's reply to a campaign", async () => {
    const who = { waId: '14155551002', userId: 'US.40000000000000000002' };
    await customerSays(who, 'Hello', ts(-30));
    const contact = await contactOf(who.userId);
    const before = await conversationOf(contact.id);
    const turnsBefore = jobsSent.filter((j) => j.name === 'bots.turn' && j.data.conversationId === before.id).length;
    expect(turnsBefore).toBe(1);
    const [campaign] = await database.db.insert(t.campaigns).values({ workspaceId: ws, name: 'Spring sale', type: 'oneTime', rfInstance: {}, memberId }).returning();
    const [line] = await database.db
      .insert(t.campaignLogs)
      .values({ workspaceId: ws, campaignId: campaign.id, phoneNumber: `+${who.waId}`, templateName: 'spring', messageStatus: 'success', contactId: contact.id })
      .returning();

    await echoes(echo(who, 'Thanks for writing, how can I help?'));
    const after = await conversationOf(contact.id);
    expect(jobsSent.filter((j) => j.name === 'bots.turn' && j.data.conversationId === before.id)).toHaveLength(turnsBefore);
    expect(after.lastInboundAt).toEqual(before.lastInboundAt);
    expect(after.lastMessageAt!.getTime()).toBeGreaterThan(before.lastMessageAt!.getTime());
    const [unreplied] = await database.db.select().from(t.campaignLogs).where(eq(t.campaignLogs.id, line.id));
    expect(unreplied.repliedAt).toBeNull();

    // The customer's own message does all three.
    await customerSays(who, 'I want the red one');
    expect(jobsSent.filter((j) => j.name === 'bots.turn' && j.data.conversationId === before.id)).toHaveLength(turnsBefore + 1);
    const [replied] = await database.db.select().from(t.campaignLogs).where(eq(t.campaignLogs.id, line.id));
    expect(replied.repliedAt).not.toBeNull();
  });

  it('does not reopen a closed conversation', async () => {
    const who = { waId: '14155551003', userId: 'US.40000000000000000003' };
    await customerSays(who, 'Bye');
    const contact = await contactOf(who.userId);
    const closed = await conversationOf(contact.id);
    await database.db.update(t.conversations).set({ isActive: false }).where(eq(t.conversations.id, closed.id));
    await echoes(echo(who, 'One more thing: your parcel left today'));
    const after = await conversationOf(contact.id);
    expect(after.isActive).toBe(false);
    expect((await messagesIn(closed.id)).map((r) => r.text)).toEqual(['Bye', 'One more thing: your parcel left today']);
    const reopened = await database.db.select().from(t.conversationEvents).where(eq(t.conversationEvents.conversationId, closed.id));
    expect(reopened.filter((e) => (e.data as { type: string }).type === 'CONVERSATION_REOPENED')).toEqual([]);
  });

  it('delivered again, or twice in one delivery, is stored once', async () => {
    const who = { waId: '14155551004', userId: 'US.40000000000000000004' };
    const one = echo(who, 'See you at 5');
    await echoes(one, one);
    await echoes(one);
    const contact = await contactOf(who.userId);
    const conversation = await conversationOf(contact.id);
    expect((await messagesIn(conversation.id)).map((r) => r.text)).toEqual(['See you at 5']);
    const rows = await database.db.select().from(t.messages).where(and(eq(t.messages.workspaceId, ws), eq(t.messages.waMessageId, one.id)));
    expect(rows).toHaveLength(1);
  });

  it('arriving after a later customer message keeps its own place in the thread and the conversation its last message', async () => {
    const who = { waId: '14155551005', userId: 'US.40000000000000000005' };
    await customerSays(who, 'Did you ship it?');
    const contact = await contactOf(who.userId);
    const before = await conversationOf(contact.id);
    // Sent from the phone a minute before the customer's message, delivered only now.
    await echoes(echo(who, 'Your order is packed', wamid(), ts(-60)));
    const after = await conversationOf(contact.id);
    expect((await messagesIn(before.id)).map((r) => r.text)).toEqual(['Your order is packed', 'Did you ship it?']);
    expect(after.lastMessageAt).toEqual(before.lastMessageAt);
    expect(after.lastInboundAt).toEqual(before.lastInboundAt);
  });

  it('to a customer whose phone is hidden reaches them by user id; a first echo opens their conversation', async () => {
    const userId = 'US.40000000000000000006';
    await customerSays({ userId, username: 'zoe.k' }, 'hi from a username');
    await echoes(echo({ userId }, 'Hi Zoe!'));
    const contact = await contactOf(userId);
    expect(contact).toMatchObject({ phoneNumber: null, username: 'zoe.k' });
    expect((await messagesIn((await conversationOf(contact.id)).id)).map((r) => [r.text, r.sentFromPhone])).toEqual([
      ['hi from a username', false],
      ['Hi Zoe!', true],
    ]);

    const fresh = 'US.40000000000000000007';
    await echoes(echo({ waId: '14155551007', userId: fresh }, 'Your table is booked'));
    const newContact = await contactOf(fresh);
    expect(newContact.phoneNumber).toBe('+14155551007');
    const opened = await conversationOf(newContact.id);
    expect(opened.lastInboundAt).toBeNull();
    expect((await messagesIn(opened.id)).map((r) => [r.creator, r.sentFromPhone])).toEqual([['agent', true]]);
  });

  it('leaves out edits and revocations, and logs echoes it cannot place', async () => {
    const who = { waId: '14155551008', userId: 'US.40000000000000000008' };
    await customerSays(who, 'ok');
    const before = logged.length;
    await echoes(
      { from: businessDigits, to: who.waId, to_user_id: who.userId, id: wamid(), timestamp: ts(), type: 'revoke', revoke: { original_message_id: 'wamid.x' } },
      { from: businessDigits, id: wamid(), timestamp: ts(), type: 'text', text: { body: 'to nobody' } },
    );
    const contact = await contactOf(who.userId);
    expect((await messagesIn((await conversationOf(contact.id)).id)).map((r) => r.text)).toEqual(['ok']);
    expect(logged.slice(before).map((l) => l.msg)).toContain('message echo naming neither a phone number nor a user id dropped');
    await pipeline().processWebhook({
      object: 'whatsapp_business_account',
      entry: [{ id: wabaId, changes: [{ field: 'smb_message_echoes', value: { metadata: { phone_number_id: 'pn-nobody' }, message_echoes: [echo(who, 'x')] } }] }],
    });
    expect(logged.at(-1)).toMatchObject({ level: 'warn', msg: 'message echoes webhook for an unknown phone number id dropped', obj: { phoneNumberId: 'pn-nobody' } });
  });
});
