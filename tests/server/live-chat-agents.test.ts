/**
 * What agents who live in the inbox use all day. Media sends within WhatsApp's types and
 * sizes, canned replies (workspace and personal, with their access rules), internal notes that never reach
 * WhatsApp with @mentions on the event stream and in a mentions view, and full-text message search.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { readEvents } from '../../src/server/repositories/event-log';
import type { SandboxAccount } from '../../src/sandbox';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { newCustomers } from '../support/customers';
import { multipartBody } from '../support/multipart';

let ta: TestApp;
let admin: Session;
let agent: Session;
let outsider: Session;
let number: SandboxAccount;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Harbour Foods');
  agent = await ta.newMember(admin, 'agent');
  outsider = await ta.newAdmin('Other Shop');
  number = ta.sandbox.addAccount();
  const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId } });
  expect(res.statusCode).toBe(201);
});
afterAll(async () => {
  await ta?.close();
});

const customerWrites = newCustomers(() => ({ ta, workspaceId: admin.workspaceId, phoneNumberId: number.phoneNumberId }), { waIdPrefix: '1650777', name: (n) => `Grace ${n}` });

async function upload(token: string, conversationId: string, file: { fileName: string; mimeType: string; content: Buffer }) {
  const form = multipartBody(file);
  return ta.app.inject({ method: 'POST', url: `/conversation/${conversationId}/media`, headers: { authorization: `Bearer ${token}`, ...form.headers }, payload: form.payload });
}

const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d1a9ab0000000049454e44ae426082', 'hex');

describe('media from the composer', () => {
  it('uploads an image and sends it with its caption through the outbound path, stored like received media', async () => {
    const { waId, conversation } = await customerWrites('Can you send a photo of the jacket?');
    const up = await upload(agent.token, conversation.id, { fileName: 'jacket.png', mimeType: 'image/png', content: png });
    expect(up.statusCode).toBe(201);
    expect(up.json()).toMatchObject({ type: 'image', mimeType: 'image/png', fileName: 'jacket.png', size: png.length });

    const before = ta.sandbox.sent.length;
    const res = await ta.call('POST', '/message/media', { token: agent.token, body: { conversationId: conversation.id, mediaUrl: up.json().mediaUrl, caption: 'Here it is' } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ type: 'image', text: 'Here it is', mediaUrl: up.json().mediaUrl, creator: 'agent', memberId: agent.member.id, status: 'sent' });
    const sent = ta.sandbox.sent[before];
    expect(sent).toMatchObject({ waId, type: 'image' });
    const image = (sent.body as { image: { link: string; caption: string } }).image;
    expect(image.caption).toBe('Here it is');
    // Meta gets an expiring signed link to the stored file, not the bare store address.
    expect(image.link).toMatch(/sig=/);
  });

  it('sends audio without a caption and documents with their file name', async () => {
    const { conversation } = await customerWrites('Send me the invoice and the voice note');
    const audio = await upload(agent.token, conversation.id, { fileName: 'note.ogg', mimeType: 'audio/ogg', content: Buffer.from('OggS fake') });
    expect(audio.json().type).toBe('audio');
    const withCaption = await ta.call('POST', '/message/media', { token: agent.token, body: { conversationId: conversation.id, mediaUrl: audio.json().mediaUrl, caption: 'listen' } });
    expect(withCaption.statusCode).toBe(409);
    expect(withCaption.json().message).toBe('WhatsApp sends audio without a caption: send the text as its own message');
    const sentAudio = await ta.call('POST', '/message/media', { token: agent.token, body: { conversationId: conversation.id, mediaUrl: audio.json().mediaUrl } });
    expect(sentAudio.statusCode).toBe(201);
    expect(sentAudio.json().type).toBe('audio');

    const doc = await upload(agent.token, conversation.id, { fileName: 'invoice.pdf', mimeType: 'application/pdf', content: Buffer.from('%PDF-1.4 fake') });
    const before = ta.sandbox.sent.length;
    const sentDoc = await ta.call('POST', '/message/media', { token: agent.token, body: { conversationId: conversation.id, mediaUrl: doc.json().mediaUrl } });
    expect(sentDoc.statusCode).toBe(201);
    expect((ta.sandbox.sent[before].body as { document: { filename: string } }).document.filename).toBe('invoice.pdf');
  });

  it('refuses what WhatsApp refuses, in words, and keeps nothing', async () => {
    const { conversation } = await customerWrites('photo?');
    const gif = await upload(agent.token, conversation.id, { fileName: 'a.gif', mimeType: 'image/gif', content: Buffer.from('GIF89a') });
    expect(gif.statusCode).toBe(400);
    const big = await upload(agent.token, conversation.id, { fileName: 'big.jpg', mimeType: 'image/jpeg', content: Buffer.alloc(5 * 1024 * 1024 + 1, 1) });
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('This file is 5 MB; WhatsApp accepts images up to 5 MB.');
    const stored = await ta.db.select().from(t.messages).where(eq(t.messages.conversationId, conversation.id));
    expect(stored).toHaveLength(1);
  });

  it('refuses another workspace’s file and a send outside the 24-hour window', async () => {
    const { conversation } = await customerWrites('hello');
    const up = await upload(agent.token, conversation.id, { fileName: 'x.png', mimeType: 'image/png', content: png });
    const other = await customerWritesElsewhere();
    const foreign = await ta.call('POST', '/message/media', { token: outsider.token, body: { conversationId: other, mediaUrl: up.json().mediaUrl } });
    expect(foreign.statusCode).toBe(404);
    await ta.db.update(t.conversations).set({ lastInboundAt: new Date(Date.now() - 25 * 3600_000) }).where(eq(t.conversations.id, conversation.id));
    const late = await ta.call('POST', '/message/media', { token: agent.token, body: { conversationId: conversation.id, mediaUrl: up.json().mediaUrl } });
    expect(late.statusCode).toBe(409);
  });
});

/** A conversation in the outsider's workspace (written directly: it only has to exist). */
async function customerWritesElsewhere() {
  const [contact] = await ta.db.insert(t.contacts).values({ workspaceId: outsider.workspaceId, name: 'Elsewhere', phoneNumber: '+14155550999' }).returning();
  const [c] = await ta.db.insert(t.conversations).values({ workspaceId: outsider.workspaceId, contactId: contact.id, lastInboundAt: new Date() }).returning();
  return c.id;
}

describe('canned replies', () => {
  it('workspace replies are managed by admins and used by everyone; personal ones are seen only by their member', async () => {
    const w = admin.workspaceId;
    const ws = await ta.call('POST', '/canned-reply', { token: admin.token, body: { workspaceId: w, scope: 'workspace', shortcut: 'shipping', text: 'Hi {{name}}, it ships from {{city}}.' } });
    expect(ws.statusCode).toBe(201);
    expect(ws.json()).toMatchObject({ scope: 'workspace', shortcut: 'shipping', memberId: admin.member.id });

    const agentWs = await ta.call('POST', '/canned-reply', { token: agent.token, body: { workspaceId: w, scope: 'workspace', shortcut: 'nope', text: 'x' } });
    expect(agentWs.statusCode).toBe(403);
    expect(agentWs.json().message).toBe('Only workspace admins can do this');
    const mine = await ta.call('POST', '/canned-reply', { token: agent.token, body: { workspaceId: w, scope: 'personal', shortcut: 'bye', text: 'Bye {{name}}!' } });
    expect(mine.statusCode).toBe(201);

    const dup = await ta.call('POST', '/canned-reply', { token: admin.token, body: { workspaceId: w, scope: 'workspace', shortcut: 'Shipping', text: 'again' } });
    expect(dup.statusCode).toBe(409);
    // The same shortcut may be someone's personal one.
    const personalSame = await ta.call('POST', '/canned-reply', { token: agent.token, body: { workspaceId: w, scope: 'personal', shortcut: 'shipping', text: 'my own' } });
    expect(personalSame.statusCode).toBe(201);

    const asAgent = await ta.call('GET', `/workspace/${w}/canned-replies`, { token: agent.token });
    // By shortcut; two replies of one shortcut (personal and workspace) come in either order.
    const shortcuts = asAgent.json().items.map((r: { shortcut: string; scope: string }) => `${r.scope}:${r.shortcut}`);
    expect(shortcuts[0]).toBe('personal:bye');
    expect([...shortcuts].sort()).toEqual(['personal:bye', 'personal:shipping', 'workspace:shipping']);
    const asAdmin = await ta.call('GET', `/workspace/${w}/canned-replies`, { token: admin.token });
    expect(asAdmin.json().items.map((r: { shortcut: string }) => r.shortcut)).toEqual(['shipping']);
    const searched = await ta.call('GET', `/workspace/${w}/canned-replies`, { token: agent.token, query: { search: 'BYE' } });
    expect(searched.json().items).toHaveLength(1);

    // Someone else's personal reply is not there (404); a workspace reply is the admins' to change (403).
    expect((await ta.call('PATCH', `/canned-reply/${mine.json().id}`, { token: admin.token, body: { text: 'hijack' } })).statusCode).toBe(404);
    expect((await ta.call('DELETE', `/canned-reply/${ws.json().id}`, { token: agent.token })).statusCode).toBe(403);
    expect((await ta.call('GET', `/workspace/${w}/canned-replies`, { token: outsider.token })).statusCode).toBe(403);
    expect((await ta.call('PATCH', `/canned-reply/${ws.json().id}`, { token: outsider.token, body: { text: 'x' } })).statusCode).toBe(404);

    const edited = await ta.call('PATCH', `/canned-reply/${mine.json().id}`, { token: agent.token, body: { text: 'See you, {{name}}' } });
    expect(edited.json().text).toBe('See you, {{name}}');
    expect((await ta.call('DELETE', `/canned-reply/${ws.json().id}`, { token: admin.token })).statusCode).toBe(200);
    expect((await ta.call('GET', `/workspace/${w}/canned-replies`, { token: agent.token, query: { scope: 'workspace' } })).json().items).toEqual([]);
  });

  it('refuses a shortcut with spaces and an empty text with the contract’s messages', async () => {
    const res = await ta.call('POST', '/canned-reply', { token: admin.token, body: { workspaceId: admin.workspaceId, scope: 'personal', shortcut: 'two words', text: ' ' } });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json().message)).toContain('Shortcuts use letters, digits, - and _ (no spaces)');
    expect(JSON.stringify(res.json().message)).toContain('This field cannot be empty');
  });

  it('pages by shortcut without repeats', async () => {
    const w = admin.workspaceId;
    for (const s of ['p1', 'p2', 'p3', 'p4', 'p5']) {
      await ta.call('POST', '/canned-reply', { token: admin.token, body: { workspaceId: w, scope: 'personal', shortcut: s, text: s } });
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await ta.call('GET', `/workspace/${w}/canned-replies`, { token: admin.token, query: { limit: '2', search: 'p', ...(cursor ? { cursor } : {}) } });
      seen.push(...page.json().items.map((r: { shortcut: string }) => r.shortcut));
      cursor = page.json().nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
  });
});

describe('internal notes and mentions', () => {
  it('stores a note without sending it, and tells the mentioned member on the stream and in their mentions view', async () => {
    const { conversation } = await customerWrites('Where is my refund?');
    const sentBefore = ta.sandbox.sent.length;
    const [{ seq: seqBefore }] = (await readEvents(ta.db, admin.workspaceId, 0, 100000)).slice(-1);
    const res = await ta.call('POST', '/message/note', {
      token: admin.token,
      body: { conversationId: conversation.id, text: '@Agent can you check the refund?', mentionedMemberIds: [agent.member.id] },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ type: 'note', creator: 'agent', memberId: admin.member.id, text: '@Agent can you check the refund?' });
    expect(ta.sandbox.sent).toHaveLength(sentBefore);
    await ta.app.parley.jobs.drain();
    expect(ta.sandbox.sent).toHaveLength(sentBefore); // no read receipt either

    const events = await readEvents(ta.db, admin.workspaceId, seqBefore);
    expect(events.map((e) => e.type)).toEqual(['message.created', 'mention.created']);
    const mention = events[1].type === 'mention.created' ? events[1].payload.mention : null;
    expect(mention).toMatchObject({ memberId: agent.member.id, mentionedByMemberId: admin.member.id, conversationId: conversation.id, readAt: null });

    const list = await ta.call('GET', `/workspace/${admin.workspaceId}/mentions`, { token: agent.token, query: { unread: 'true' } });
    expect(list.json().items).toHaveLength(1);
    expect(list.json().items[0].message.text).toBe('@Agent can you check the refund?');
    expect(list.json().items[0].contact.name).toMatch(/Grace/);
    expect((await ta.call('GET', `/workspace/${admin.workspaceId}/mentions/count`, { token: agent.token })).json()).toEqual({ unread: 1 });
    // The admin was not mentioned.
    expect((await ta.call('GET', `/workspace/${admin.workspaceId}/mentions/count`, { token: admin.token })).json()).toEqual({ unread: 0 });

    expect((await ta.call('POST', `/conversation/${conversation.id}/mentions/read`, { token: agent.token })).statusCode).toBe(200);
    expect((await ta.call('GET', `/workspace/${admin.workspaceId}/mentions/count`, { token: agent.token })).json()).toEqual({ unread: 0 });
    const all = await ta.call('GET', `/workspace/${admin.workspaceId}/mentions`, { token: agent.token });
    expect(all.json().items[0].readAt).not.toBeNull();

    // The note is in the conversation's timeline, but the conversation did not move and its window is the customer's.
    const detail = await ta.call('GET', `/conversation/${conversation.id}`, { token: agent.token });
    expect(detail.json().Message.map((m: { type: string }) => m.type)).toEqual(['text', 'note']);
    const [after] = await ta.db.select().from(t.conversations).where(eq(t.conversations.id, conversation.id));
    expect(after.lastMessageAt).toEqual(conversation.lastMessageAt);
  });

  it('refuses to mention someone outside the workspace, storing nothing', async () => {
    const { conversation } = await customerWrites('hi');
    const res = await ta.call('POST', '/message/note', { token: admin.token, body: { conversationId: conversation.id, text: '@Stranger', mentionedMemberIds: [outsider.member.id] } });
    expect(res.statusCode).toBe(404);
    const notes = await ta.db.select().from(t.messages).where(and(eq(t.messages.conversationId, conversation.id), eq(t.messages.type, 'note')));
    expect(notes).toHaveLength(0);
  });
});

describe('message search', () => {
  it('finds messages by word prefixes inside a conversation, oldest first', async () => {
    const { conversation } = await customerWrites('My order 4471 has not arrived');
    await ta.call('POST', '/message', { token: agent.token, body: { conversationId: conversation.id, text: 'Sorry! Your ORDER is on its way.' } });
    await ta.call('POST', '/message/note', { token: agent.token, body: { conversationId: conversation.id, text: 'courier lost the order', mentionedMemberIds: [] } });
    await ta.call('POST', '/message', { token: agent.token, body: { conversationId: conversation.id, text: 'Anything else?' } });
    const res = await ta.call('GET', `/conversation/${conversation.id}/search`, { token: agent.token, query: { q: 'ord' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().terms).toEqual(['ord']);
    expect(res.json().matches).toHaveLength(3);
    const times = res.json().matches.map((m: { createdAt: string }) => m.createdAt);
    expect([...times].sort()).toEqual(times);
    const two = await ta.call('GET', `/conversation/${conversation.id}/search`, { token: agent.token, query: { q: 'order arrived' } });
    expect(two.json().matches).toHaveLength(1);
    expect((await ta.call('GET', `/conversation/${conversation.id}/search`, { token: agent.token, query: { q: '  ' } })).statusCode).toBe(400);
    expect((await ta.call('GET', `/conversation/${conversation.id}/search`, { token: outsider.token, query: { q: 'order' } })).statusCode).toBe(404);
  });

  it('searches the workspace’s messages newest first, never another workspace’s', async () => {
    await customerWrites('The zebra-striped umbrella broke');
    await customerWrites('Another zebra question');
    const [contact] = await ta.db.insert(t.contacts).values({ workspaceId: outsider.workspaceId, name: 'Elsewhere Z', phoneNumber: '+14155550888' }).returning();
    const [c] = await ta.db.insert(t.conversations).values({ workspaceId: outsider.workspaceId, contactId: contact.id }).returning();
    await ta.db.insert(t.messages).values({ workspaceId: outsider.workspaceId, conversationId: c.id, type: 'text', text: 'zebra in the other shop', creator: 'user', status: 'received' });

    const res = await ta.call('GET', `/workspace/${admin.workspaceId}/messages/search`, { token: agent.token, query: { q: 'Zebra', limit: '1' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().items).toHaveLength(1);
    expect(res.json().items[0].message.text).toBe('Another zebra question');
    expect(res.json().items[0].contact.name).toMatch(/Grace/);
    const next = await ta.call('GET', `/workspace/${admin.workspaceId}/messages/search`, { token: agent.token, query: { q: 'zebra', cursor: res.json().nextCursor } });
    expect(next.json().items.map((h: { message: { text: string } }) => h.message.text)).toEqual(['The zebra-striped umbrella broke']);
    expect(next.json().nextCursor).toBeNull();
    expect((await ta.call('GET', `/workspace/${admin.workspaceId}/messages/search`, { token: outsider.token, query: { q: 'zebra' } })).statusCode).toBe(403);
  });
});
