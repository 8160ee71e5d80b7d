/**
 * The ingest of webhook deliveries called directly (the `ingest` part of the mutation score, seconds
 * per mutant): the real repositories on a fresh database, a file store in a temp folder and a stand-in for the
 * Graph media API, no app, no job queue, no sandbox. What each kind of inbound message is stored as, what is
 * dropped, retried or applied, and what a redelivery leaves alone. The same path through the HTTP route and the
 * job queue is in webhooks.test.ts and redelivery.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { Database } from '../../src/server/db/client';
import { createFileStore, type FileStore } from '../../src/server/storage/file-store';
import { buildInboundPipeline as webhookProcessor, type InboundDeps as ChannelDeps } from '../../src/server/app/inbound';
import { e164OfWaId } from '../../src/server/whatsapp/customer-identity';
import { StatusNotYetKnown } from '../../src/server/whatsapp/inbound-statuses';
import type { WebhookDelivery } from '../../src/server/whatsapp/inbound-pipeline';
import { openTestDatabase } from '../support/server';
import { recordingLogger, type LoggedLine } from '../support/recording-logger';

let database: Database;
let dispose: () => Promise<void>;
let files: FileStore;
let dataDir: string;
let ws = '';
let otherWs = '';
let account: typeof t.whatsappAccounts.$inferSelect;
const phoneNumberId = `pn-ingest-${Date.now()}`;
const otherPhoneNumberId = `${phoneNumberId}-other`;
const wabaId = `waba-ingest-${Date.now()}`;

const logged: LoggedLine[] = [];
const logger = () => recordingLogger(logged);

const downloads: string[] = [];
/** Jobs the processor queued (bots.turn from the bots' hook, messages.send from the campaigns' opt-out). */
const jobsSent: { name: string; data: Record<string, unknown> }[] = [];
const afterInboundCalls: { workspaceId: string; wamids: string[] }[] = [];
let afterInboundFails = false;
const media = {
  async download(_account: unknown, mediaId: string) {
    downloads.push(mediaId);
    if (mediaId.startsWith('broken')) throw new Error('Graph said no');
    return { data: Buffer.from(`bytes of ${mediaId}`), mimeType: 'image/jpeg; q=1' };
  },
};

function deps(over: Partial<ChannelDeps> = {}): ChannelDeps {
  return {
    db: database,
    files,
    log: logger(),
    media,
    jobs: {
      send: async (name: string, data: Record<string, unknown>) => {
        jobsSent.push({ name, data });
        return null;
      },
    },
    afterInbound: async (workspaceId: string, wamids: string[]) => {
      afterInboundCalls.push({ workspaceId, wamids });
      if (afterInboundFails) throw new Error('auto-assign down');
    },
    ...over,
  } as unknown as ChannelDeps;
}

beforeAll(async () => {
  ({ database, dispose } = await openTestDatabase());
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-ingest-'));
  files = createFileStore({ dataDir, publicUrl: 'http://parley.test', secret: 's' });
  const db = database.db;
  const [w, o] = await db.insert(t.workspaces).values([{ name: 'Ingest Shop' }, { name: 'Other Shop' }]).returning();
  ws = w.id;
  otherWs = o.id;
  const [m] = await db.insert(t.members).values({ uid: `uid-ingest-${Date.now()}` }).returning();
  const accountRow = (workspaceId: string, pnid: string) => ({
    workspaceId,
    phoneNumber: '+14155550000',
    wabaAccountId: wabaId,
    appId: 'app',
    phoneNumberId: pnid,
    tokenCiphertext: 'sealed',
    tokenLast4: '0000',
    memberId: m.id,
  });
  [account] = await db.insert(t.whatsappAccounts).values(accountRow(ws, phoneNumberId)).returning();
  await db.insert(t.whatsappAccounts).values(accountRow(otherWs, otherPhoneNumberId));
});
afterAll(async () => {
  await dispose?.();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

let seq = 0;
const wamid = () => `wamid.ingest.${Date.now()}.${++seq}`;
const now = () => String(Math.floor(Date.now() / 1000));

function messagesPayload(value: Record<string, unknown>, pnid = phoneNumberId) {
  return {
    object: 'whatsapp_business_account',
    entry: [{ id: wabaId, changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: pnid }, ...value } }] }],
  };
}
const inbound = (from: string, message: Record<string, unknown>, name?: string, pnid?: string) =>
  messagesPayload({ contacts: [{ wa_id: from, profile: { name } }], messages: [{ from, id: wamid(), timestamp: now(), ...message }] }, pnid);

async function messagesOf(phone: string, workspaceId = ws) {
  const [contact] = await database.db
    .select()
    .from(t.contacts)
    .where(and(eq(t.contacts.workspaceId, workspaceId), eq(t.contacts.phoneNumber, phone)));
  if (!contact) return [];
  const convs = await database.db.select().from(t.conversations).where(eq(t.conversations.contactId, contact.id));
  const rows = [];
  for (const c of convs) rows.push(...(await database.db.select().from(t.messages).where(eq(t.messages.conversationId, c.id)).orderBy(asc(t.messages.createdAt))));
  return rows;
}

let phoneSeq = 0;
/** A fresh customer: a valid US number (wa_id digits) and its E.164 form. */
function customer() {
  const digits = `1415555${String(1000 + ++phoneSeq).padStart(4, '0')}`;
  return { waId: digits, phone: `+${digits}` };
}

async function only(payload: unknown) {
  await webhookProcessor(deps()).processWebhook(payload);
}
async function storedAs(message: Record<string, unknown>) {
  const c = customer();
  await only(inbound(c.waId, message));
  const rows = await messagesOf(c.phone);
  expect(rows).toHaveLength(1);
  const [r] = rows;
  return { type: r.type, text: r.text, action: r.action, header: r.header, mediaUrl: r.mediaUrl, footer: r.footer };
}

describe('e164OfWaId', () => {
  it('places a wa_id in E.164 with its country, and keeps an unplaceable one as +digits', () => {
    expect(e164OfWaId('14155550123')).toEqual({ phoneNumber: '+14155550123', country: 'US' });
    expect(e164OfWaId('+44 20 7946 0018')).toEqual({ phoneNumber: '+442079460018', country: 'GB' });
    expect(e164OfWaId('999')).toEqual({ phoneNumber: '+999', country: null });
  });

  it('answers the same again for a number seen before, however its digits were written', () => {
    for (let i = 0; i < 2; i++) {
      expect(e164OfWaId('+1 (415) 555-0124')).toEqual({ phoneNumber: '+14155550124', country: 'US' });
      expect(e164OfWaId('14155550124')).toEqual({ phoneNumber: '+14155550124', country: 'US' });
      expect(e164OfWaId('1234')).toEqual({ phoneNumber: '+1234', country: null });
    }
  });
});

describe('what an inbound message is stored as', () => {
  const none = { header: null, mediaUrl: null, footer: null };

  it('a text, with the contact created from the profile name and a conversation opened', async () => {
    const c = customer();
    await only(inbound(c.waId, { type: 'text', text: { body: 'Hello there' } }, '  Ada Customer  '));
    const [contact] = await database.db.select().from(t.contacts).where(and(eq(t.contacts.workspaceId, ws), eq(t.contacts.phoneNumber, c.phone)));
    expect(contact.name).toBe('Ada Customer');
    const rows = await messagesOf(c.phone);
    expect(rows.map((r) => [r.type, r.text, r.creator, r.status, r.waMessageId?.startsWith('wamid.ingest')])).toEqual([['text', 'Hello there', 'user', 'received', true]]);
    expect(afterInboundCalls.at(-1)).toEqual({ workspaceId: ws, wamids: [rows[0].waMessageId] });
  });

  it('a text without a body as empty text, and a contact without a profile name unnamed', async () => {
    const c = customer();
    await only(inbound(c.waId, { type: 'text' }, '   '));
    const [contact] = await database.db.select().from(t.contacts).where(and(eq(t.contacts.workspaceId, ws), eq(t.contacts.phoneNumber, c.phone)));
    expect(contact.name ?? null).toBeNull();
    expect((await messagesOf(c.phone))[0].text).toBe('');
  });

  it('interactive replies: button, list (with the message they answer), and an unknown kind in words', async () => {
    expect(await storedAs({ type: 'interactive', context: { id: 'wamid.asked' }, interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes please' } } })).toEqual({
      ...none,
      type: 'reply',
      text: 'Yes please',
      action: { type: 'button_reply', id: 'yes', title: 'Yes please', context: { id: 'wamid.asked' } },
    });
    expect(await storedAs({ type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: 'l2', title: 'Large', description: 'XL' } } })).toEqual({
      ...none,
      type: 'list',
      text: 'Large',
      action: { type: 'list_reply', id: 'l2', title: 'Large', description: 'XL' },
    });
    expect(await storedAs({ type: 'interactive', interactive: { type: 'button_reply' } })).toMatchObject({ type: 'text', text: 'Unsupported interactive reply (button_reply)', action: null });
    expect(await storedAs({ type: 'interactive', interactive: { type: 'list_reply' } })).toMatchObject({ type: 'text', text: 'Unsupported interactive reply (list_reply)' });
    expect(await storedAs({ type: 'interactive', interactive: { type: 'nfm_reply' } })).toMatchObject({ type: 'text', text: 'Unsupported interactive reply (nfm_reply)' });
    expect(await storedAs({ type: 'interactive', interactive: { type: 'carousel' } })).toMatchObject({ type: 'text', text: 'Unsupported interactive reply (carousel)' });
    expect(await storedAs({ type: 'interactive' })).toMatchObject({ type: 'text', text: 'Unsupported interactive reply (unknown)' });
  });

  it('a flow reply, its answer parsed (or kept as sent when it is not JSON), named "flow" when unnamed', async () => {
    expect(
      await storedAs({
        type: 'interactive',
        context: { id: 'wamid.flow' },
        interactive: { type: 'nfm_reply', nfm_reply: { name: 'signup', body: 'Sent', response_json: '{"size":"L","flow_token":"t"}' } },
      }),
    ).toEqual({
      ...none,
      type: 'flow',
      text: 'Sent',
      action: { type: 'nfm_reply', name: 'signup', response_json: { size: 'L', flow_token: 't' }, context: { id: 'wamid.flow' } },
    });
    expect(await storedAs({ type: 'interactive', interactive: { type: 'nfm_reply', nfm_reply: { response_json: 'not json {' } } })).toEqual({
      ...none,
      type: 'flow',
      text: null,
      action: { type: 'nfm_reply', name: 'flow', response_json: 'not json {' },
    });
  });

  it("a tap on a template's quick-reply button", async () => {
    expect(await storedAs({ type: 'button', context: { id: 'wamid.tpl' }, button: { text: 'Stop promotions', payload: 'STOP' } })).toEqual({
      ...none,
      type: 'reply',
      text: 'Stop promotions',
      action: { type: 'button', payload: 'STOP', context: { id: 'wamid.tpl' } },
    });
    expect(await storedAs({ type: 'button' })).toMatchObject({ type: 'reply', text: '', action: { type: 'button', payload: null } });
  });

  it('media: fetched into the file store with its caption; a voice note as a document, a sticker as an image', async () => {
    const image = await storedAs({ type: 'image', image: { id: 'img1', mime_type: 'image/png', caption: 'My receipt' } });
    expect(image).toMatchObject({ type: 'image', text: 'My receipt', header: { type: 'image', mediaId: 'img1', mimeType: 'image/png' }, action: null });
    const key = files.keyFromUrl(image.mediaUrl!)!;
    expect(key.startsWith(`${ws}/whatsapp-media/`)).toBe(true);
    expect(key.endsWith('/image-img1.png')).toBe(true);
    expect(await files.stat(key)).toEqual({ mimeType: 'image/png', fileName: 'image-img1.png', size: 'bytes of img1'.length });

    const doc = await storedAs({ type: 'document', document: { id: 'doc1', mime_type: 'application/pdf', filename: 'invoice.pdf' } });
    expect(doc).toMatchObject({ type: 'document', text: null, header: { type: 'document', mediaId: 'doc1', mimeType: 'application/pdf', filename: 'invoice.pdf' } });
    expect(files.keyFromUrl(doc.mediaUrl!)!.endsWith('/invoice.pdf')).toBe(true);

    const voice = await storedAs({ type: 'audio', audio: { id: 'aud1', mime_type: 'audio/ogg; codecs=opus' } });
    expect(voice).toMatchObject({ type: 'document', header: { type: 'audio', mediaId: 'aud1', mimeType: 'audio/ogg; codecs=opus' } });
    expect(files.keyFromUrl(voice.mediaUrl!)!.endsWith('/audio-aud1.ogg')).toBe(true);
    expect(voice.header).not.toHaveProperty('filename');

    const sticker = await storedAs({ type: 'sticker', sticker: { id: 'stk1' } });
    // no type from Meta: the downloaded file's type, its parameters left out of the extension
    expect(sticker).toMatchObject({ type: 'image', header: { type: 'sticker', mediaId: 'stk1', mimeType: null } });
    expect(files.keyFromUrl(sticker.mediaUrl!)!.endsWith('/sticker-stk1.jpeg')).toBe(true);
    expect((await files.stat(files.keyFromUrl(sticker.mediaUrl!)!))?.mimeType).toBe('image/jpeg; q=1');

    // a type without a subtype: the file is still kept, as .bin
    const video = await storedAs({ type: 'video', video: { id: 'vid1', mime_type: 'video' } });
    expect(video).toMatchObject({ type: 'video' });
    expect(files.keyFromUrl(video.mediaUrl!)!.endsWith('/video-vid1.bin')).toBe(true);
    expect(downloads).toEqual(expect.arrayContaining(['img1', 'doc1', 'aud1', 'stk1', 'vid1']));
  });

  it('media that cannot be fetched is stored without its file, with a warning; a message without its media says so', async () => {
    const before = logged.length;
    expect(await storedAs({ type: 'image', image: { id: 'broken1', mime_type: 'image/png', caption: 'x' } })).toMatchObject({ type: 'image', text: 'x', mediaUrl: null, header: { mediaId: 'broken1' } });
    expect(logged.slice(before)).toContainEqual(expect.objectContaining({ level: 'warn', msg: 'inbound media could not be fetched; the message is stored without it', obj: expect.objectContaining({ mediaId: 'broken1' }) }));
    for (const kind of ['image', 'video', 'document', 'audio', 'sticker']) {
      expect(await storedAs({ type: kind })).toEqual({ ...none, type: 'text', text: `Empty ${kind} message`, action: null });
    }
  });

  it('media without a downloader is stored without its file', async () => {
    const c = customer();
    await webhookProcessor(deps({ media: undefined })).processWebhook(inbound(c.waId, { type: 'image', image: { id: 'nodl1', mime_type: 'image/png' } }));
    expect((await messagesOf(c.phone))[0]).toMatchObject({ type: 'image', mediaUrl: null });
    expect(downloads).not.toContain('nodl1');
  });

  it('a location with its name and address, or its coordinates alone', async () => {
    const loc = { latitude: 52.37, longitude: 4.89, name: 'Dam Square', address: 'Amsterdam' };
    expect(await storedAs({ type: 'location', location: loc })).toEqual({ ...none, type: 'text', text: 'Dam Square, Amsterdam (52.37, 4.89)', action: { type: 'location', ...loc } });
    expect(await storedAs({ type: 'location', location: { latitude: 1.5, longitude: -2, address: 'Somewhere' } })).toMatchObject({ text: 'Somewhere (1.5, -2)' });
    expect(await storedAs({ type: 'location', location: { latitude: 1.5, longitude: -2 } })).toMatchObject({ text: '(1.5, -2)' });
    expect(await storedAs({ type: 'location' })).toEqual({ ...none, type: 'text', text: 'Location', action: null });
  });

  it('a kind Parley does not know in words; a reaction not at all', async () => {
    expect(await storedAs({ type: 'contacts' })).toEqual({ ...none, type: 'text', text: 'This message type is not supported yet (contacts)', action: null });
    const c = customer();
    await only(inbound(c.waId, { type: 'reaction', reaction: { message_id: 'wamid.x', emoji: '👍' } }));
    expect(await messagesOf(c.phone)).toEqual([]);
  });
});

describe('order, time and the other workspace', () => {
  it('takes the receipt time for a message whose timestamp is zero, negative or not a number', async () => {
    const receivedAt = Date.parse('2026-11-25T11:00:00.000Z');
    for (const timestamp of ['0', '-5', 'soon']) {
      const c = customer();
      await webhookProcessor(deps()).processWebhook(messagesPayload({ messages: [{ from: c.waId, id: wamid(), timestamp, type: 'text', text: { body: timestamp } }] }), receivedAt);
      const [row] = await messagesOf(c.phone);
      const [conv] = await database.db.select().from(t.conversations).where(eq(t.conversations.id, row.conversationId));
      // the 24-hour window opens at the receipt, not in 1970
      expect(conv.lastInboundAt?.toISOString(), timestamp).toBe('2026-11-25T11:00:00.000Z');
    }
  });

  it('keeps the order of one delivery 1 ms apart from its receipt, and never dates a message after its receipt', async () => {
    const c = customer();
    const receivedAt = Date.parse('2026-11-25T10:00:00.000Z');
    const future = String(Math.floor(receivedAt / 1000) + 3600);
    const past = String(Math.floor(receivedAt / 1000) - 60);
    const payload = messagesPayload({
      messages: [
        { from: c.waId, id: wamid(), timestamp: future, type: 'text', text: { body: 'one' } },
        { from: c.waId, id: wamid(), timestamp: past, type: 'text', text: { body: 'two' } },
        { from: c.waId, id: wamid(), type: 'text', text: { body: 'three' } },
      ],
    });
    await webhookProcessor(deps()).processWebhook(payload, receivedAt);
    const rows = await messagesOf(c.phone);
    expect(rows.map((r) => [r.text, r.createdAt.toISOString()])).toEqual([
      ['one', '2026-11-25T10:00:00.000Z'],
      ['two', '2026-11-25T10:00:00.001Z'],
      ['three', '2026-11-25T10:00:00.002Z'],
    ]);
    // the 24-hour window runs from when the customer wrote, never from a time after the receipt
    const [conv] = await database.db.select().from(t.conversations).where(eq(t.conversations.id, rows[0].conversationId));
    expect(conv.lastInboundAt?.toISOString()).toBe('2026-11-25T10:00:00.002Z');
  });

  it('stores a number\'s messages in the workspace that connected it', async () => {
    const c = customer();
    await only(inbound(c.waId, { type: 'text', text: { body: 'for the other shop' } }, 'Bo', otherPhoneNumberId));
    expect(await messagesOf(c.phone)).toEqual([]);
    expect((await messagesOf(c.phone, otherWs)).map((r) => r.text)).toEqual(['for the other shop']);
    expect(afterInboundCalls.at(-1)?.workspaceId).toBe(otherWs);
  });
});

describe('what is dropped', () => {
  it('a delivery that is not a WhatsApp payload, a change without metadata, an unknown number: warned, nothing stored', async () => {
    const before = logged.length;
    const p = webhookProcessor(deps());
    await p.processWebhook({ hello: 'world' });
    await p.processWebhook({ object: 'whatsapp_business_account', entry: [{ id: wabaId, changes: [{ field: 'messages', value: { messages: [] } }] }] });
    const c = customer();
    await p.processWebhook(inbound(c.waId, { type: 'text', text: { body: 'to nobody' } }, 'X', 'pn-nobody-connected'));
    await p.processWebhook({ object: 'whatsapp_business_account', entry: [{ id: wabaId, changes: [{ field: 'account_update', value: {} }] }] });
    expect(await messagesOf(c.phone)).toEqual([]);
    const msgs = logged.slice(before).map((l) => `${l.level}: ${l.msg}`);
    expect(msgs).toEqual([
      'warn: webhook delivery that is not a WhatsApp Business payload dropped',
      'warn: webhook change without usable metadata dropped',
      'warn: webhook for an unknown phone number id dropped',
      'debug: webhook field not used by Parley',
    ]);
    expect(logged.find((l) => l.msg === 'webhook for an unknown phone number id dropped')?.obj).toEqual({ phoneNumberId: 'pn-nobody-connected' });
  });

  it('a malformed message or status, keeping the good ones; errors Meta reports are logged', async () => {
    const before = logged.length;
    const c = customer();
    await only(
      messagesPayload({
        messages: [{ from: c.waId, type: 'text' }, { from: c.waId, id: wamid(), timestamp: now(), type: 'text', text: { body: 'good' } }],
        statuses: [{ status: 'read' }],
        errors: [{ code: 131047, title: 'Re-engagement message' }],
      }),
    );
    expect((await messagesOf(c.phone)).map((r) => r.text)).toEqual(['good']);
    const mine = logged.slice(before);
    expect(mine.map((l) => l.msg)).toEqual(['malformed inbound message dropped', 'malformed status update dropped', 'WhatsApp reported an error']);
    expect(mine[2].obj).toEqual({ code: 131047, title: 'Re-engagement message', accountId: account.id });
  });

  it('logs what was wrong with a malformed message or status (at most five issues), and nothing for a part a delivery lacks', async () => {
    const before = logged.length;
    const c = customer();
    await only(messagesPayload({ messages: [{ from: 1, id: 2, timestamp: 3, type: 4, text: 5, context: 6, button: 7 }], statuses: [{ id: 1, status: 2, timestamp: 3, recipient_id: 4, errors: [1, 2, 3] }] }));
    const [message, status] = logged.slice(before);
    expect([message.msg, status.msg]).toEqual(['malformed inbound message dropped', 'malformed status update dropped']);
    for (const l of [message, status]) {
      const issues = l.obj.issues as { path: unknown[]; message: string }[];
      expect(issues.length).toBe(5);
      expect(issues.every((i) => Array.isArray(i.path) && typeof i.message === 'string')).toBe(true);
    }
    const quiet = logged.length;
    await only(messagesPayload({ contacts: [{ wa_id: c.waId }] }));
    await only(messagesPayload({ metadata: {}, contacts: [1, 2, 3, 4, 5, 6] }));
    const dropped = logged.slice(quiet);
    expect(dropped.map((l) => l.msg)).toEqual(['webhook change without usable metadata dropped']);
    expect((dropped[0].obj.issues as unknown[]).length).toBe(5);
  });
});

describe('redelivery and retries', () => {
  it('stores a message delivered twice (later, or twice in one batch) once', async () => {
    const c = customer();
    const payload = inbound(c.waId, { type: 'text', text: { body: 'once' } });
    const p = webhookProcessor(deps());
    const retry = await p.processDeliveries([{ payload }, { payload }]);
    expect(retry.size).toBe(0);
    await p.processWebhook(payload);
    expect((await messagesOf(c.phone)).map((r) => r.text)).toEqual(['once']);
  });

  it('a redelivered message does not reopen the conversation it was stored in, nor call auto-assignment again', async () => {
    const c = customer();
    const payload = inbound(c.waId, { type: 'text', text: { body: 'hi' } });
    await only(payload);
    const [row] = await messagesOf(c.phone);
    await database.db.update(t.conversations).set({ isActive: false }).where(eq(t.conversations.id, row.conversationId));
    const calls = afterInboundCalls.length;
    await only(payload);
    const [conv] = await database.db.select().from(t.conversations).where(eq(t.conversations.id, row.conversationId));
    expect(conv.isActive).toBe(false);
    expect(afterInboundCalls).toHaveLength(calls);
  });

  it('a failing auto-assignment is logged and never fails the delivery', async () => {
    afterInboundFails = true;
    try {
      const c = customer();
      const before = logged.length;
      await only(inbound(c.waId, { type: 'text', text: { body: 'assign me' } }));
      expect((await messagesOf(c.phone)).map((r) => r.text)).toEqual(['assign me']);
      expect(logged.slice(before).map((l) => l.msg)).toContain('auto-assignment failed');
    } finally {
      afterInboundFails = false;
    }
  });

  it('a message PostgreSQL cannot store fails only its own delivery; the others of the batch are stored', async () => {
    const good = customer();
    const bad = customer();
    const before = logged.length;
    const retry = await webhookProcessor(deps()).processDeliveries([
      { payload: inbound(good.waId, { type: 'text', text: { body: 'fine' } }) },
      { payload: inbound(bad.waId, { type: 'text', text: { body: 'nul \u0000 byte' } }) },
      { payload: inbound(good.waId, { type: 'text', text: { body: 'fine too' } }) },
    ]);
    expect([...retry.keys()]).toEqual([1]);
    expect((await messagesOf(good.phone)).map((r) => r.text)).toEqual(['fine', 'fine too']);
    expect(await messagesOf(bad.phone)).toEqual([]);
    expect(logged.slice(before).map((l) => l.msg)).toContain('a batch of inbound messages failed; storing them one by one');
    // alone, the bad message fails its delivery at once
    await expect(webhookProcessor(deps()).processWebhook(inbound(bad.waId, { type: 'text', text: { body: 'nul \u0000 again' } }))).rejects.toThrow();
  });
});

describe('statuses', () => {
  async function sentMessage() {
    const c = customer();
    await only(inbound(c.waId, { type: 'text', text: { body: 'hello' } }));
    const [inb] = await messagesOf(c.phone);
    const id = wamid();
    const [row] = await database.db
      .insert(t.messages)
      .values({ workspaceId: ws, conversationId: inb.conversationId, type: 'text', text: 'our answer', creator: 'agent', waMessageId: id, status: 'sent' })
      .returning();
    return { id, row, waId: c.waId };
  }
  const statusOf = async (id: string) => (await database.db.select().from(t.messages).where(eq(t.messages.waMessageId, id)))[0];
  const statusPayload = (id: string, status: string, extra: Record<string, unknown> = {}) => messagesPayload({ statuses: [{ id, status, timestamp: now(), ...extra }] });
  const eventsOf = async (type: string) => (await database.db.select().from(t.workspaceEvents).where(and(eq(t.workspaceEvents.workspaceId, ws), eq(t.workspaceEvents.type, type)))).length;

  it('moves a message forward with an event, and never back', async () => {
    const { id } = await sentMessage();
    const events = await eventsOf('message.status');
    await only(statusPayload(id, 'read'));
    expect((await statusOf(id)).status).toBe('read');
    expect(await eventsOf('message.status')).toBe(events + 1);
    await only(statusPayload(id, 'delivered'));
    expect((await statusOf(id)).status).toBe('read');
    expect(await eventsOf('message.status')).toBe(events + 1);
  });

  it('records a failure with its reason, and ignores statuses Parley does not track', async () => {
    const { id } = await sentMessage();
    await only(statusPayload(id, 'deleted'));
    expect((await statusOf(id)).status).toBe('sent');
    await only(statusPayload(id, 'failed', { errors: [{ code: 131026, title: 'Message undeliverable' }] }));
    const row = await statusOf(id);
    expect(row.status).toBe('failed');
    expect(row.failureReason).toMatch(/\(code 131026\)$/);
  });

  it('a failure without any error from Meta is recorded with the general reason', async () => {
    const { id } = await sentMessage();
    await only(statusPayload(id, 'failed', { errors: [] }));
    expect(await statusOf(id)).toMatchObject({ status: 'failed', failureReason: 'WhatsApp did not deliver the message' });
  });

  it('waits for a status exactly two minutes old, and drops one a millisecond older', async () => {
    const p = webhookProcessor(deps());
    const sentAtSeconds = Math.floor(Date.now() / 1000) - 600;
    const payload = messagesPayload({ statuses: [{ id: `wamid.boundary.${Date.now()}`, status: 'sent', timestamp: String(sentAtSeconds) }] });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(sentAtSeconds * 1000 + 120_000);
      await expect(p.processWebhook(payload, Date.now(), 0)).rejects.toBeInstanceOf(StatusNotYetKnown);
      vi.setSystemTime(sentAtSeconds * 1000 + 120_001);
      await expect(p.processWebhook(payload, Date.now(), 0)).resolves.toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a delivered status records no failure reason', async () => {
    const { id } = await sentMessage();
    await only(statusPayload(id, 'delivered', { errors: [{ code: 1, title: 'ignored' }] }));
    expect(await statusOf(id)).toMatchObject({ status: 'delivered', failureReason: null });
  });

  it('lets a recent status for a message not stored yet wait, longer each time, seven times in all; drops an old one', async () => {
    const p = webhookProcessor(deps());
    const payload = statusPayload(`wamid.not-yet.${Date.now()}`, 'sent');
    const waited = async (waits: number) => p.processWebhook(payload, Date.now(), waits).then(() => undefined, (err: unknown) => err);
    const first = await waited(0);
    expect(first).toBeInstanceOf(StatusNotYetKnown);
    expect((first as StatusNotYetKnown).afterSeconds).toBe(1);
    expect(await waited(2)).toMatchObject({ message: 'a status arrived for a message that is not stored yet; retried later', afterSeconds: 4 });
    expect(await waited(6)).toMatchObject({ afterSeconds: 64 });
    expect(await waited(7)).toBeUndefined();
    const old = messagesPayload({ statuses: [{ id: `wamid.old.${Date.now()}`, status: 'sent', timestamp: String(Math.floor(Date.now() / 1000) - 121) }] });
    await expect(p.processWebhook(old, Date.now(), 0)).resolves.toBeUndefined();
    const young = messagesPayload({ statuses: [{ id: `wamid.young.${Date.now()}`, status: 'sent', timestamp: String(Math.floor(Date.now() / 1000) - 110) }] });
    await expect(p.processWebhook(young, Date.now(), 0)).rejects.toBeInstanceOf(StatusNotYetKnown);
    // without a time the status counts as just sent
    const timeless = messagesPayload({ statuses: [{ id: `wamid.timeless.${Date.now()}`, status: 'delivered' }] });
    await expect(p.processWebhook(timeless, Date.now(), 0)).rejects.toBeInstanceOf(StatusNotYetKnown);
  });

  it('a status for a message already at that status or beyond is known: no retry', async () => {
    const { id } = await sentMessage();
    await only(statusPayload(id, 'read'));
    await expect(webhookProcessor(deps()).processWebhook(statusPayload(id, 'sent'), Date.now(), 0)).resolves.toBeUndefined();
  });

  it('retries only the delivery whose status waits, and applies the others of the batch', async () => {
    const { id } = await sentMessage();
    const retry = await webhookProcessor(deps()).processDeliveries([
      { payload: statusPayload(`wamid.not-yet.${Date.now()}`, 'sent'), waits: 0 },
      { payload: statusPayload(id, 'delivered'), waits: 0 },
    ] satisfies WebhookDelivery[]);
    expect([...retry.keys()]).toEqual([0]);
    expect((await statusOf(id)).status).toBe('delivered');
  });
  it("applies a batch's statuses in wamid order, one message's statuses in the order they came, each change an event", async () => {
    const one = await sentMessage();
    const two = await sentMessage();
    const [low, high] = one.id < two.id ? [one, two] : [two, one];
    const lastSeq = async () => (await database.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.workspaceId, ws))).reduce((n, e) => Math.max(n, e.seq), 0);
    const after = await lastSeq();
    await only(
      messagesPayload({
        statuses: [
          { id: high.id, status: 'delivered', timestamp: now() },
          { id: low.id, status: 'delivered', timestamp: now() },
          { id: low.id, status: 'read', timestamp: now() },
        ],
      }),
    );
    const events = (await database.db.select().from(t.workspaceEvents).where(and(eq(t.workspaceEvents.workspaceId, ws), eq(t.workspaceEvents.type, 'message.status'))))
      .filter((e) => e.seq > after)
      .sort((a, b) => a.seq - b.seq)
      .map((e) => {
        const m = (e.payload as { message: { id: string; status: string } }).message;
        return [m.id, m.status];
      });
    expect(events).toEqual([
      [low.row.id, 'delivered'],
      [low.row.id, 'read'],
      [high.row.id, 'delivered'],
    ]);
    expect((await statusOf(low.id)).status).toBe('read');
    expect((await statusOf(high.id)).status).toBe('delivered');
  });

  it("a campaign's log line follows the status: a failure with Meta's code and reason, a delivery without them", async () => {
    const { id: failedId } = await sentMessage();
    const { id: deliveredId } = await sentMessage();
    const [campaign] = await database.db
      .insert(t.campaigns)
      .values({ workspaceId: ws, name: 'Ingest campaign', type: 'recurring', rfInstance: {}, memberId: account.memberId })
      .returning();
    const logLine = (wa: string) => ({ workspaceId: ws, campaignId: campaign.id, phoneNumber: '+14155550000', templateName: 'order_update', messageStatus: 'success' as const, waMessageId: wa, deliveryState: 'sent' as const });
    await database.db.insert(t.campaignLogs).values([logLine(failedId), logLine(deliveredId)]);
    await only(statusPayload(failedId, 'failed', { errors: [{ code: 131026, title: 'Message undeliverable' }] }));
    await only(statusPayload(deliveredId, 'delivered', { errors: [{ code: 7, title: 'ignored' }] }));
    const logOf = async (wa: string) => (await database.db.select().from(t.campaignLogs).where(eq(t.campaignLogs.waMessageId, wa)))[0];
    const failed = await logOf(failedId);
    expect(failed).toMatchObject({ deliveryState: 'failed', messageStatus: 'failed', errorCode: 131026, reason: (await statusOf(failedId)).failureReason });
    expect(failed.reason).toMatch(/\(code 131026\)$/);
    expect(await logOf(deliveredId)).toMatchObject({ deliveryState: 'delivered', messageStatus: 'success', errorCode: null, reason: null });
  });

  it('a batch of statuses whose transaction fails is retried with that error (an Error even when something else was thrown)', async () => {
    const { id } = await sentMessage();
    const failing = Object.assign(Object.create(database) as Database, {
      transaction: async () => {
        throw 'statuses could not be written';
      },
    });
    const p = webhookProcessor(deps({ db: failing }));
    const oldUnknown = messagesPayload({ statuses: [{ id: `wamid.old-unknown.${Date.now()}`, status: 'sent', timestamp: String(Math.floor(Date.now() / 1000) - 3600) }] });
    const retry = await p.processDeliveries([
      { payload: statusPayload(id, 'delivered'), waits: 5 },
      { payload: oldUnknown, waits: 5 },
    ]);
    // both statuses were in the failed transaction: both deliveries are retried, even the one about no known message
    expect([...retry.keys()]).toEqual([0, 1]);
    for (const i of [0, 1]) {
      expect(retry.get(i)).toBeInstanceOf(Error);
      expect((retry.get(i) as Error).message).toBe('statuses could not be written');
    }
    const thrown = new Error('database down');
    const p2 = webhookProcessor(deps({ db: Object.assign(Object.create(database) as Database, { transaction: async () => Promise.reject(thrown) }) }));
    await expect(p2.processWebhook(statusPayload(id, 'read'), Date.now(), 5)).rejects.toBe(thrown);
    expect((await statusOf(id)).status).toBe('sent');
  });

  it('a delivery without an attempt count is a first attempt: its waiting status is retried', async () => {
    const retry = await webhookProcessor(deps()).processDeliveries([{ payload: statusPayload(`wamid.no-attempt.${Date.now()}`, 'sent') }]);
    expect(retry.get(0)).toBeInstanceOf(StatusNotYetKnown);
  });

  it('a delivery whose message failed to store is retried with that failure, not as a waiting status', async () => {
    const c = customer();
    const payload = messagesPayload({
      messages: [{ from: c.waId, id: wamid(), timestamp: now(), type: 'text', text: { body: 'nul \u0000 here' } }],
      statuses: [{ id: `wamid.waits.${Date.now()}`, status: 'sent', timestamp: now() }],
    });
    const retry = await webhookProcessor(deps()).processDeliveries([{ payload, waits: 0 }]);
    expect(retry.size).toBe(1);
    expect(retry.get(0)).not.toBeInstanceOf(StatusNotYetKnown);
    expect(retry.get(0)).toBeInstanceOf(Error);
  });
});

describe('template reviews', () => {
  let templateId = '';
  const metaId = `${Date.now()}`;
  beforeAll(async () => {
    const [tpl] = await database.db
      .insert(t.whatsappTemplates)
      .values({ workspaceId: ws, whatsappAccountId: account.id, name: 'order_update', status: 'PENDING', language: 'en', category: 'UTILITY', components: [{ type: 'BODY', text: 'Your order {{1}} is on its way' }], whatsappTemplateId: metaId, memberId: account.memberId })
      .returning();
    templateId = tpl.id;
  });
  const review = (event: string, time?: number, id: string | number = metaId) => ({
    object: 'whatsapp_business_account',
    entry: [{ id: wabaId, ...(time ? { time } : {}), changes: [{ field: 'message_template_status_update', value: { event, message_template_id: id } }] }],
  });
  const template = async () => (await database.db.select().from(t.whatsappTemplates).where(eq(t.whatsappTemplates.id, templateId)))[0];

  it('applies a review with its time, with an event, and a redelivered older review changes nothing', async () => {
    const events = async () => (await database.db.select().from(t.workspaceEvents).where(and(eq(t.workspaceEvents.workspaceId, ws), eq(t.workspaceEvents.type, 'template.status')))).length;
    const before = await events();
    await only(review('APPROVED', 1_790_000_000, Number(metaId)));
    expect(await template()).toMatchObject({ status: 'APPROVED', statusAt: new Date(1_790_000_000_000) });
    expect(await events()).toBe(before + 1);
    await only(review('PAUSED', 1_790_000_100));
    expect((await template()).status).toBe('PAUSED');
    await only(review('APPROVED', 1_790_000_000));
    expect((await template()).status).toBe('PAUSED');
    expect(await events()).toBe(before + 2);
  });

  it('logs a review of a template Parley does not know, and drops a malformed one', async () => {
    const before = logged.length;
    await only(review('APPROVED', 1_790_000_000, 'unknown-template'));
    await only({ object: 'whatsapp_business_account', entry: [{ id: wabaId, changes: [{ field: 'message_template_status_update', value: { nothing: true } }] }] });
    expect(logged.slice(before).map((l) => `${l.level}: ${l.msg}`)).toEqual([
      'info: status update for a template Parley does not know: syncing its numbers',
      'warn: malformed template status update dropped',
    ]);
  });
  it('applies a review that carries no time, without a time of its own', async () => {
    await only(review('REJECTED'));
    expect(await template()).toMatchObject({ status: 'REJECTED', statusAt: new Date(1_790_000_100_000) });
  });

  it('syncs the numbers of the WABA for a template it does not know, and only then; a warning names what was wrong', async () => {
    const synced: string[][] = [];
    const p = webhookProcessor(deps({ afterUnknownTemplate: async (accounts) => synced.push(accounts.map((a) => a.phoneNumberId).sort()) }));
    const before = logged.length;
    await p.processWebhook(review('PAUSED', 1_790_000_300));
    expect(synced).toEqual([]);
    expect(logged.slice(before)).toEqual([]);
    await p.processWebhook(review('APPROVED', 1_790_000_000, 'unknown-template-2'));
    expect(synced).toEqual([[phoneNumberId, otherPhoneNumberId].sort()]);
    expect(logged.at(-1)).toMatchObject({ level: 'info', obj: { templateId: 'unknown-template-2' } });
    const elsewhere = review('APPROVED', 1_790_000_000, 'unknown-template-3');
    await p.processWebhook({ ...elsewhere, entry: [{ ...elsewhere.entry[0], id: 'waba-nobody' }] });
    expect(synced).toHaveLength(1);
    await p.processWebhook({ object: 'whatsapp_business_account', entry: [{ id: wabaId, changes: [{ field: 'message_template_status_update', value: { nothing: true } }] }] });
    const warning = logged.at(-1)!;
    expect(warning.msg).toBe('malformed template status update dropped');
    expect((warning.obj.issues as unknown[]).length).toBeGreaterThan(0);
  });

  it('retries a review whose handling failed', async () => {
    const failure = new Error('sync failed');
    const p = webhookProcessor(deps({ afterUnknownTemplate: async () => Promise.reject(failure) }));
    await expect(p.processWebhook(review('APPROVED', 1_790_000_000, 'unknown-template-4'))).rejects.toBe(failure);
  });
});

describe('quality updates of a number', () => {
  const quality = (display: string) => ({
    object: 'whatsapp_business_account',
    entry: [{ id: wabaId, changes: [{ field: 'phone_number_quality_update', value: { display_phone_number: display, event: 'DOWNGRADE', current_limit: 'TIER_1K' } }] }],
  });

  it('goes to every number of the WABA with those digits, and a failure retries the delivery', async () => {
    const seen: { pnid: string; event: string }[] = [];
    const p = webhookProcessor(deps({ afterQualityUpdate: async (a, v) => seen.push({ pnid: a.phoneNumberId, event: v.event }) }));
    const before = logged.length;
    await p.processWebhook(quality('+1 415-555-0000'));
    expect(logged.slice(before).map((l) => l.msg)).not.toContain('quality update for a number Parley does not know');
    expect(seen.map((x) => x.pnid).sort()).toEqual([phoneNumberId, otherPhoneNumberId].sort());
    expect(seen.every((x) => x.event === 'DOWNGRADE')).toBe(true);
    const failure = new Error('could not record the quality');
    const failing = webhookProcessor(deps({ afterQualityUpdate: async () => Promise.reject(failure) }));
    await expect(failing.processWebhook(quality('14155550000'))).rejects.toBe(failure);
  });

  it('goes to no number when none of the WABA has those digits, and says so in the log', async () => {
    const seen: string[] = [];
    const before = logged.length;
    await webhookProcessor(deps({ afterQualityUpdate: async (a) => void seen.push(a.phoneNumberId) })).processWebhook(quality('+1 415-555-9999'));
    expect(seen).toEqual([]);
    expect(logged.slice(before).map((l) => [l.level, l.msg, l.obj])).toEqual([['info', 'quality update for a number Parley does not know', { wabaId }]]);
  });

  it('logs what was wrong with a malformed quality update, and sends it nowhere', async () => {
    const seen: string[] = [];
    const before = logged.length;
    const bad = { object: 'whatsapp_business_account', entry: [{ id: wabaId, changes: [{ field: 'phone_number_quality_update', value: { event: 3 } }] }] };
    await webhookProcessor(deps({ afterQualityUpdate: async (a) => void seen.push(a.phoneNumberId) })).processWebhook(bad);
    expect(seen).toEqual([]);
    const [line] = logged.slice(before);
    expect([line.level, line.msg]).toEqual(['warn', 'malformed phone number quality update dropped']);
    expect((line.obj.issues as unknown[]).length).toBeGreaterThan(0);
  });
});

describe("the campaigns' and bots' hooks after inbound messages are stored", () => {
  let otherAccountId = '';
  beforeAll(async () => {
    const [other] = await database.db.select().from(t.whatsappAccounts).where(eq(t.whatsappAccounts.phoneNumberId, otherPhoneNumberId));
    otherAccountId = other.id;
    await database.db.insert(t.bots).values({ workspaceId: otherWs, title: 'Greeter', isActive: true, rfInstance: {}, whatsappAccountId: other.id, memberId: other.memberId });
  });
  const optedOut = async (phone: string, workspaceId: string) =>
    (await database.db.select().from(t.contacts).where(and(eq(t.contacts.workspaceId, workspaceId), eq(t.contacts.phoneNumber, phone))))[0]?.optedOutAt ?? null;
  const turnsFor = async (phone: string) => {
    const convs = new Set((await messagesOf(phone, otherWs)).map((m) => m.conversationId));
    return jobsSent.filter((j) => j.name === 'bots.turn' && convs.has(j.data.conversationId as string));
  };

  it('a STOP opts the contact out of campaigns, and a message to a number with an active bot starts a bot turn', async () => {
    const stopper = customer();
    await only(inbound(stopper.waId, { type: 'text', text: { body: ' stop ' } }));
    expect(await optedOut(stopper.phone, ws)).not.toBeNull();
    const talker = customer();
    await only(inbound(talker.waId, { type: 'text', text: { body: 'hi bot' } }, 'Tal', otherPhoneNumberId));
    expect(await turnsFor(talker.phone)).toHaveLength(1);
    expect((await turnsFor(talker.phone))[0].data).toMatchObject({ workspaceId: otherWs });
    expect(otherAccountId).not.toBe('');
  });

  it('when a batch is stored one by one, each stored message still reaches campaigns, bots and auto-assignment', async () => {
    const stopper = customer();
    const bad = customer();
    const talker = customer();
    const before = logged.length;
    const calls = afterInboundCalls.length;
    const retry = await webhookProcessor(deps()).processDeliveries([
      { payload: inbound(stopper.waId, { type: 'text', text: { body: 'STOP' } }, 'S', otherPhoneNumberId) },
      { payload: inbound(bad.waId, { type: 'text', text: { body: 'nul \u0000 byte' } }, 'B', otherPhoneNumberId) },
      { payload: inbound(talker.waId, { type: 'text', text: { body: 'hello bot' } }, 'T', otherPhoneNumberId) },
    ]);
    expect([...retry.keys()]).toEqual([1]);
    expect(logged.slice(before).find((l) => l.msg === 'a batch of inbound messages failed; storing them one by one')?.obj).toMatchObject({ messages: 3 });
    expect(await optedOut(stopper.phone, otherWs)).not.toBeNull();
    expect(await turnsFor(stopper.phone)).toHaveLength(1);
    expect(await turnsFor(talker.phone)).toHaveLength(1);
    const stored = [...(await messagesOf(stopper.phone, otherWs)), ...(await messagesOf(talker.phone, otherWs))].map((m) => m.waMessageId);
    expect(afterInboundCalls.slice(calls).flatMap((c) => c.wamids).sort()).toEqual(stored.sort());
  });

  it("a failure of the campaigns' or bots' handling is logged with its error and never fails the stored message", async () => {
    const stopper = customer();
    const before = logged.length;
    const down = new Error('job queue down');
    const p = webhookProcessor(
      deps({
        jobs: {
          send: async () => {
            throw down;
          },
        } as unknown as ChannelDeps['jobs'],
      }),
    );
    // A STOP to the number with an active bot: the opt-out's confirmation and the bot's turn both queue a job.
    expect((await p.processDeliveries([{ payload: inbound(stopper.waId, { type: 'text', text: { body: 'STOP' } }, 'S', otherPhoneNumberId) }])).size).toBe(0);
    expect((await messagesOf(stopper.phone, otherWs)).map((m) => m.text)).toEqual(['STOP']);
    const warned = logged.slice(before).filter((l) => l.level === 'warn');
    expect(warned.map((l) => [l.msg, l.obj.err, l.obj.workspaceId])).toEqual([
      ['campaign opt-out and reply handling of inbound messages failed', down, otherWs],
      ['bot handling of inbound messages failed', down, otherWs],
    ]);
  });

  it('a failure of auto-assignment is logged with its error and never fails the stored message', async () => {
    const c = customer();
    const before = logged.length;
    afterInboundFails = true;
    try {
      await only(inbound(c.waId, { type: 'text', text: { body: 'assign me' } }));
    } finally {
      afterInboundFails = false;
    }
    expect((await messagesOf(c.phone)).map((m) => m.text)).toEqual(['assign me']);
    const line = logged.slice(before).find((l) => l.msg === 'auto-assignment failed');
    expect(line?.obj).toMatchObject({ workspaceId: ws });
    expect((line?.obj.err as Error).message).toBe('auto-assign down');
  });

  it('logs a webhook field Parley does not use, naming it, at debug level', async () => {
    const before = logged.length;
    await only({ object: 'whatsapp_business_account', entry: [{ id: wabaId, changes: [{ field: 'account_update', value: {} }] }] });
    expect(logged.slice(before).map((l) => [l.level, l.msg, l.obj])).toEqual([['debug', 'webhook field not used by Parley', { field: 'account_update' }]]);
  });

  it('a lone message that cannot be stored fails at once, without a second try one by one', async () => {
    const bad = customer();
    const before = logged.length;
    await expect(webhookProcessor(deps()).processWebhook(inbound(bad.waId, { type: 'text', text: { body: 'nul \u0000 alone' } }))).rejects.toThrow();
    expect(logged.slice(before).map((l) => l.msg)).not.toContain('a batch of inbound messages failed; storing them one by one');
  });
});
