/**
 * The tenancy of the repositories called directly (the `tenancy` part of the mutation score, seconds
 * per mutant): two workspaces holding the same customers (same names, same phone numbers, same shapes of
 * conversations), and every read, count, page, search, update and delete made as workspace B must answer B's
 * rows alone, in the list's order, and leave A's rows as they were. The same rule over HTTP, for every route of
 * the route table, is in tenancy-canaries.test.ts (a minute a mutant: not in this part).
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { Database } from '../../src/server/db/client';
import {
  countConversations,
  eventsOf,
  insertEvent,
  lastMessages,
  listConversations,
  messagesOf,
  messagesPage,
  updateConversation,
  type ConversationListFilter,
} from '../../src/server/repositories/conversations';
import { contactOrderOf, contactSearchIn, contactsPage, countContacts } from '../../src/server/repositories/contact-list';
import { contacts as contactCrud, workspaceOfResource } from '../../src/server/repositories/resources';
import { openTestDatabase } from '../support/server';

let database: Database;
let dispose: () => Promise<void>;
const db = () => database.db;

const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 9, minute, 0));

/** What one workspace holds; A and B hold the same customers and the same shapes. */
interface Seeded {
  ws: string;
  agent: string;
  other: string;
  contacts: Record<'maria' | 'tom' | 'ann' | 'zed', string>;
  /** maria: mine, waiting; tom: the bot's, answered; ann: unassigned, waiting (a note does not answer); zed: closed. */
  conv: Record<'maria' | 'tom' | 'ann' | 'zed', string>;
  /** each conversation's messages, oldest first */
  msgs: Record<'maria' | 'tom' | 'ann' | 'zed', string[]>;
}

async function seed(name: string): Promise<Seeded> {
  const [w] = await db().insert(t.workspaces).values({ name }).returning();
  const [agent, other] = await db()
    .insert(t.members)
    .values([{ uid: `uid-${name}-agent-${Date.now()}` }, { uid: `uid-${name}-other-${Date.now()}` }])
    .returning();
  await db()
    .insert(t.workspaceMembers)
    .values([
      { workspaceId: w.id, memberId: agent.id, role: 'agent' },
      { workspaceId: w.id, memberId: other.id, role: 'admin' },
    ]);
  const people = [
    { key: 'maria', name: 'Maria Lopez', phoneNumber: '+14155550101', email: 'maria@example.com', createdAt: at(1) },
    { key: 'tom', name: 'Tom Baker', phoneNumber: '+14155550102', email: 'tom@example.com', createdAt: at(2) },
    { key: 'ann', name: 'Ann Maria Cole', phoneNumber: '+14155550103', email: 'ann@example.com', createdAt: at(3) },
    { key: 'zed', name: 'Zed Quinn', phoneNumber: '+442071234567', email: 'zed@example.com', createdAt: at(4) },
  ] as const;
  const rows = await db()
    .insert(t.contacts)
    .values(people.map(({ key: _key, ...p }) => ({ ...p, workspaceId: w.id })))
    .returning();
  const contacts = Object.fromEntries(people.map((p, i) => [p.key, rows[i].id])) as Seeded['contacts'];
  const bot = '6f1de9a2-5b7c-4c1e-9d41-2b8f0a7c3e55';
  const convRows = await db()
    .insert(t.conversations)
    .values([
      { workspaceId: w.id, contactId: contacts.maria, assigneeMemberId: agent.id, lastInboundAt: at(40), lastActivityAt: at(50) },
      { workspaceId: w.id, contactId: contacts.tom, assigneeBotId: bot, lastInboundAt: at(10), lastActivityAt: at(40) },
      { workspaceId: w.id, contactId: contacts.ann, lastInboundAt: at(30), lastActivityAt: at(30) },
      { workspaceId: w.id, contactId: contacts.zed, isActive: false, lastInboundAt: at(5), lastActivityAt: at(20) },
    ])
    .returning();
  const conv = { maria: convRows[0].id, tom: convRows[1].id, ann: convRows[2].id, zed: convRows[3].id };
  const m = (conversationId: string, minute: number, creator: 'user' | 'agent' | 'bot', text: string, type = 'text') => ({
    workspaceId: w.id,
    conversationId,
    type,
    text,
    creator,
    status: 'sent',
    createdAt: at(minute),
  });
  const msgRows = await db()
    .insert(t.messages)
    .values([
      m(conv.maria, 35, 'agent', 'Hello Maria'),
      m(conv.maria, 40, 'user', 'Where is my order?'),
      m(conv.tom, 10, 'user', 'Hi'),
      m(conv.tom, 12, 'bot', 'How can I help?'),
      m(conv.ann, 30, 'user', 'Is the shop open?'),
      m(conv.ann, 31, 'agent', 'checking with the manager', 'note'),
      m(conv.zed, 5, 'user', 'Thanks, bye'),
      m(conv.zed, 6, 'agent', 'Bye!'),
    ])
    .returning();
  const msgs = { maria: [msgRows[0].id, msgRows[1].id], tom: [msgRows[2].id, msgRows[3].id], ann: [msgRows[4].id, msgRows[5].id], zed: [msgRows[6].id, msgRows[7].id] };
  return { ws: w.id, agent: agent.id, other: other.id, contacts, conv, msgs };
}

let A: Seeded;
let B: Seeded;

beforeAll(async () => {
  ({ database, dispose } = await openTestDatabase());
  A = await seed('Shop A');
  B = await seed('Shop B');
});
afterAll(async () => {
  await dispose?.();
});

const list = (ws: Seeded, f: Partial<ConversationListFilter> = {}) => listConversations(db(), ws.ws, { memberId: ws.agent, ...f });
const ids = (page: { items: { id: string }[] }) => page.items.map((i) => i.id);

/** Every page of a list, following nextCursor. */
async function walk(ws: Seeded, f: Partial<ConversationListFilter>): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await list(ws, { ...f, cursor });
    pages.push(ids(page));
    if (!page.nextCursor) return pages;
    cursor = page.nextCursor;
    if (pages.length > 10) throw new Error('the list never ends');
  }
}

describe('the conversation list', () => {
  it("answers B's conversations alone, most recent activity first, each with its contact and newest message", async () => {
    const page = await list(B);
    expect(ids(page)).toEqual([B.conv.maria, B.conv.tom, B.conv.ann, B.conv.zed]);
    expect(page.nextCursor).toBeNull();
    expect(page.items.map((i) => [i.Contact.id, i.Contact.name, i.workspaceId])).toEqual([
      [B.contacts.maria, 'Maria Lopez', B.ws],
      [B.contacts.tom, 'Tom Baker', B.ws],
      [B.contacts.ann, 'Ann Maria Cole', B.ws],
      [B.contacts.zed, 'Zed Quinn', B.ws],
    ]);
    expect(page.items.map((i) => i.lastMessage?.id)).toEqual([B.msgs.maria[1], B.msgs.tom[1], B.msgs.ann[1], B.msgs.zed[1]]);
    expect(page.items.map((i) => i.lastMessage?.text)).toEqual(['Where is my order?', 'How can I help?', 'checking with the manager', 'Bye!']);
  });

  it('says since when a customer waits: their last message unanswered by an agent or a bot (a note does not answer)', async () => {
    const page = await list(B);
    expect(page.items.map((i) => i.waitingSince)).toEqual([at(40).toISOString(), null, at(30).toISOString(), null]);
  });

  it('holds each tab to its rule: mine, assigned (to a member or a bot), open, closed', async () => {
    expect(ids(await list(B, { tab: 'me' }))).toEqual([B.conv.maria]);
    expect(ids(await list(B, { tab: 'me', memberId: B.other }))).toEqual([]);
    expect(ids(await list(B, { tab: 'assigned' }))).toEqual([B.conv.maria, B.conv.tom]);
    expect(ids(await list(B, { tab: 'open' }))).toEqual([B.conv.maria, B.conv.tom, B.conv.ann]);
    expect(ids(await list(B, { tab: 'closed' }))).toEqual([B.conv.zed]);
  });

  it('pages with a cursor through every conversation once, in order, and ends', async () => {
    expect(await walk(B, { limit: 1 })).toEqual([[B.conv.maria], [B.conv.tom], [B.conv.ann], [B.conv.zed]]);
    expect(await walk(B, { limit: 3 })).toEqual([[B.conv.maria, B.conv.tom, B.conv.ann], [B.conv.zed]]);
    expect(await walk(B, { limit: 4 })).toEqual([[B.conv.maria, B.conv.tom, B.conv.ann, B.conv.zed]]);
  });

  it('sorts the waiting ones longest waiting first, only those, paging in that order', async () => {
    expect(ids(await list(B, { sort: 'waiting' }))).toEqual([B.conv.ann, B.conv.maria]);
    expect(await walk(B, { sort: 'waiting', limit: 1 })).toEqual([[B.conv.ann], [B.conv.maria]]);
    expect(ids(await list(B, { sort: 'waiting', tab: 'me' }))).toEqual([B.conv.maria]);
  });

  it("lists one contact's conversations", async () => {
    expect(ids(await list(B, { contactId: B.contacts.tom }))).toEqual([B.conv.tom]);
    expect(ids(await list(B, { contactId: A.contacts.tom }))).toEqual([]);
  });

  it("searches B's contacts by name, word, e-mail or phone, never finding A's namesakes", async () => {
    expect(ids(await list(B, { search: 'maria' }))).toEqual([B.conv.maria, B.conv.ann]);
    expect(ids(await list(B, { search: '  Maria  ' }))).toEqual([B.conv.maria, B.conv.ann]);
    expect(ids(await list(B, { search: 'tom@' }))).toEqual([B.conv.tom]);
    expect(ids(await list(B, { search: '4155550103' }))).toEqual([B.conv.ann]);
    expect(ids(await list(B, { search: 'maria', tab: 'closed' }))).toEqual([]);
    expect(ids(await list(B, { search: 'maria', limit: 1 }))).toEqual([B.conv.maria]);
    expect(await list(B, { search: 'nobody-by-that-name' })).toEqual({ items: [], nextCursor: null });
    expect(ids(await list(B, { search: 'maria', sort: 'waiting' }))).toEqual([B.conv.ann, B.conv.maria]);
    expect(ids(await list(B, { search: 'zed', sort: 'waiting' }))).toEqual([]);
  });

  it('pages a search in order with a cursor, conversations with the same activity time by id', async () => {
    expect(await walk(B, { search: 'maria', limit: 1 })).toEqual([[B.conv.maria], [B.conv.ann]]);
    // two of the contact's conversations touched at the same moment: both listed once, the greater id first
    const [extra] = await db()
      .insert(t.conversations)
      .values([
        { workspaceId: B.ws, contactId: B.contacts.zed, isActive: false, lastActivityAt: at(20) },
        { workspaceId: A.ws, contactId: A.contacts.zed, isActive: false, lastActivityAt: at(20) },
      ])
      .returning();
    try {
      const both = [B.conv.zed, extra.id].sort().reverse();
      expect(ids(await list(B, { search: 'zed' }))).toEqual(both);
      expect(await walk(B, { search: 'zed', limit: 1 })).toEqual([[both[0]], [both[1]]]);
      expect(ids(await list(B, { search: 'quinn', tab: 'closed' }))).toEqual(both);
    } finally {
      await db().delete(t.conversations).where(sql`${t.conversations.contactId} in (${B.contacts.zed}, ${A.contacts.zed}) and ${t.conversations.lastInboundAt} is null`);
    }
  });

  it("orders a searched contact's conversations by activity, then the greater id, before cutting the page", async () => {
    const [olga] = await db().insert(t.contacts).values({ workspaceId: B.ws, name: 'Olga Petrova', phoneNumber: '+14155550177' }).returning();
    // Inserted in id order: the newest activity has the smallest id, three are touched at the same moment. The
    // order must come from the sort (activity, then the greater id), not from the table or the ids alone.
    const id = (n: number) => `0000000${n}-0000-4000-8000-000000000000`;
    await db()
      .insert(t.conversations)
      .values([
        { id: id(1), workspaceId: B.ws, contactId: olga.id, lastActivityAt: at(25) },
        { id: id(2), workspaceId: B.ws, contactId: olga.id, lastActivityAt: at(22) },
        { id: id(3), workspaceId: B.ws, contactId: olga.id, lastActivityAt: at(24) },
        { id: id(4), workspaceId: B.ws, contactId: olga.id, lastActivityAt: at(24) },
        { id: id(5), workspaceId: B.ws, contactId: olga.id, lastActivityAt: at(24) },
      ]);
    try {
      expect(await walk(B, { search: 'olga', limit: 1 })).toEqual([[id(1)], [id(5)], [id(4)], [id(3)], [id(2)]]);
      expect(await walk(B, { search: 'petrova', limit: 2 })).toEqual([[id(1), id(5)], [id(4), id(3)], [id(2)]]);
    } finally {
      await db().delete(t.contacts).where(eq(t.contacts.id, olga.id));
    }
  });

  it("answers a search matching more than 2,000 contacts whole, page by page, still only B's", async () => {
    const many = (ws: string) =>
      Array.from({ length: 2001 }, (_, i) => ({ workspaceId: ws, name: `Bulk Buyer ${i}`, phoneNumber: `+1202555${String(i).padStart(4, '0')}`, createdAt: new Date(at(0).getTime() + i * 1000) }));
    const conversationsOf = (ws: string, rows: { id: string }[]) =>
      rows.map((r, i) => ({ workspaceId: ws, contactId: r.id, lastActivityAt: new Date(at(45).getTime() - i * 1000) }));
    const bRows = await db().insert(t.contacts).values(many(B.ws)).returning({ id: t.contacts.id });
    const aRows = await db().insert(t.contacts).values(many(A.ws)).returning({ id: t.contacts.id });
    const bConvs = await db().insert(t.conversations).values(conversationsOf(B.ws, bRows)).returning({ id: t.conversations.id });
    await db().insert(t.conversations).values(conversationsOf(A.ws, aRows));
    try {
      // every matching conversation once, newest activity first, across pages
      expect((await walk(B, { search: 'bulk', limit: 1000 })).flat()).toEqual(bConvs.map((c) => c.id));
      expect(ids(await list(B, { search: 'buyer 7' }))).toEqual([bConvs[7].id]);
      expect(await countContacts(db(), B.ws, undefined, await contactSearchIn(db(), B.ws, 'bulk'))).toBe(2001);
      // the contact list, by name and by phone number, also whole
      const newestFirst = [...bRows].reverse().map((r) => r.id);
      for (const search of ['bulk', '+1202555']) {
        const seen: string[] = [];
        let cursor: string | undefined;
        do {
          const p = await contactsPage(db(), B.ws, { search, cursor, limit: 1000 }, undefined, await contactSearchIn(db(), B.ws, search));
          seen.push(...p.items.map((c) => c.id));
          cursor = p.nextCursor ?? undefined;
        } while (cursor && seen.length < 5000);
        expect(seen, search).toEqual(newestFirst);
      }
    } finally {
      await db().delete(t.contacts).where(sql`${t.contacts.name} like 'Bulk Buyer %'`);
    }
  });
});

describe('counts, messages and events of a conversation', () => {
  it("counts each tab over B's conversations alone", async () => {
    expect(await countConversations(db(), B.ws, B.agent)).toEqual({ me: 1, assigned: 2, open: 3, closed: 1 });
    expect(await countConversations(db(), B.ws, B.other)).toEqual({ me: 0, assigned: 2, open: 3, closed: 1 });
  });

  it("answers the newest message of B's conversations only", async () => {
    const last = await lastMessages(db(), B.ws, [B.conv.maria, A.conv.maria, A.conv.tom]);
    expect([...last.keys()]).toEqual([B.conv.maria]);
    expect(last.get(B.conv.maria)?.id).toBe(B.msgs.maria[1]);
    expect((await lastMessages(db(), B.ws, [])).size).toBe(0);
  });

  it("answers a conversation's messages oldest first, the newest `limit` of them, and none of A's", async () => {
    expect((await messagesOf(db(), B.ws, B.conv.maria)).map((m) => m.id)).toEqual(B.msgs.maria);
    expect((await messagesOf(db(), B.ws, B.conv.maria, 1)).map((m) => m.id)).toEqual([B.msgs.maria[1]]);
    expect(await messagesOf(db(), B.ws, A.conv.maria)).toEqual([]);
  });

  it('pages messages newest first, before a message of the conversation, and answers nothing before a stranger', async () => {
    const page = async (conv: string, req: { limit?: number; cursor?: string; before?: string }, ws = B.ws) => messagesPage(db(), ws, conv, req);
    const first = await page(B.conv.tom, { limit: 1 });
    expect(first.items.map((m) => m.id)).toEqual([B.msgs.tom[1]]);
    expect(first.nextCursor).not.toBeNull();
    const second = await page(B.conv.tom, { limit: 1, cursor: first.nextCursor! });
    expect([second.items.map((m) => m.id), second.nextCursor]).toEqual([[B.msgs.tom[0]], null]);
    expect((await page(B.conv.tom, { before: B.msgs.tom[1] })).items.map((m) => m.id)).toEqual([B.msgs.tom[0]]);
    expect((await page(B.conv.tom, { before: B.msgs.tom[0] })).items).toEqual([]);
    expect(await page(B.conv.tom, { before: A.msgs.tom[1] })).toEqual({ items: [], nextCursor: null });
    expect(await page(B.conv.tom, { before: 'not-a-message-id' })).toEqual({ items: [], nextCursor: null });
    expect((await page(A.conv.tom, {})).items).toEqual([]);
  });

  it("records and answers a conversation's events in order, none of A's", async () => {
    const one = await insertEvent(db(), B.ws, B.conv.ann, { type: 'closed', memberId: B.agent } as never);
    const two = await insertEvent(db(), B.ws, B.conv.ann, { type: 'reopened', memberId: B.agent } as never);
    await insertEvent(db(), A.ws, A.conv.ann, { type: 'closed', memberId: A.agent } as never);
    expect(one.conversationId).toBe(B.conv.ann);
    expect((await eventsOf(db(), B.ws, B.conv.ann)).map((e) => e.id)).toEqual([one.id, two.id]);
    expect(await eventsOf(db(), B.ws, A.conv.ann)).toEqual([]);
  });

  it("changes and touches B's conversations only: A's stays as it was", async () => {
    const before = await db().select().from(t.conversations).where(eq(t.conversations.id, A.conv.zed));
    expect(await updateConversation(db(), B.ws, A.conv.zed, { isActive: true })).toBeNull();
    await updateConversation(db(), B.ws, A.conv.zed, { lastActivityAt: new Date() });
    expect(await db().select().from(t.conversations).where(eq(t.conversations.id, A.conv.zed))).toEqual(before);

    const changed = await updateConversation(db(), B.ws, B.conv.zed, { assigneeMemberId: B.other });
    expect([changed?.id, changed?.assigneeMemberId]).toEqual([B.conv.zed, B.other]);
    await updateConversation(db(), B.ws, B.conv.zed, { lastActivityAt: new Date() });
    const [touched] = await db().select().from(t.conversations).where(eq(t.conversations.id, B.conv.zed));
    expect(touched.lastActivityAt.getTime()).toBeGreaterThan(at(59).getTime());
    await updateConversation(db(), B.ws, B.conv.zed, { assigneeMemberId: null, lastActivityAt: at(20) });
  });
});

describe('the CRUD every tenant table shares', () => {
  it("gets B's own row, and nothing for A's id or an id that is no UUID", async () => {
    expect((await contactCrud.get(db(), B.ws, B.contacts.tom))?.name).toBe('Tom Baker');
    expect(await contactCrud.get(db(), B.ws, A.contacts.tom)).toBeNull();
    expect(await contactCrud.get(db(), B.ws, 'tom')).toBeNull();
  });

  it("pages B's rows newest first with a cursor, none of A's", async () => {
    const first = await contactCrud.page(db(), B.ws, { limit: 3 });
    expect(first.items.map((r) => r.id)).toEqual([B.contacts.zed, B.contacts.ann, B.contacts.tom]);
    const second = await contactCrud.page(db(), B.ws, { limit: 3, cursor: first.nextCursor! });
    expect([second.items.map((r) => r.id), second.nextCursor]).toEqual([[B.contacts.maria], null]);
    const filtered = await contactCrud.page(db(), B.ws, {}, eq(t.contacts.name, 'Tom Baker'));
    expect(filtered.items.map((r) => r.id)).toEqual([B.contacts.tom]);
  });

  it("changes and deletes B's rows only; A's id answers as missing and its row stays", async () => {
    expect(await contactCrud.update(db(), B.ws, A.contacts.zed, { city: 'Leak' })).toBeNull();
    expect(await contactCrud.update(db(), B.ws, 'zed', { city: 'Leak' })).toBeNull();
    expect(await contactCrud.remove(db(), B.ws, A.contacts.zed)).toBe(false);
    expect(await contactCrud.remove(db(), B.ws, 'zed')).toBe(false);
    const [aZed] = await db().select().from(t.contacts).where(eq(t.contacts.id, A.contacts.zed));
    expect([aZed.city, aZed.name]).toEqual([null, 'Zed Quinn']);

    expect((await contactCrud.update(db(), B.ws, B.contacts.zed, { city: 'London' }))?.city).toBe('London');
    expect((await contactCrud.update(db(), B.ws, B.contacts.zed, {}))?.city).toBe('London');
    expect(await contactCrud.update(db(), B.ws, A.contacts.zed, {})).toBeNull();
    const made = await contactCrud.insert(db(), { workspaceId: B.ws, name: 'Temp Person', phoneNumber: '+14155550199' });
    expect([made.name, made.workspaceId]).toEqual(['Temp Person', B.ws]);
    expect(await contactCrud.remove(db(), B.ws, made.id)).toBe(true);
    expect(await contactCrud.get(db(), B.ws, made.id)).toBeNull();
  });

  it('names the workspace a resource belongs to, and none for an unknown id', async () => {
    expect(await workspaceOfResource(db(), 'contact', A.contacts.maria)).toBe(A.ws);
    expect(await workspaceOfResource(db(), 'conversation', B.conv.maria)).toBe(B.ws);
    expect(await workspaceOfResource(db(), 'conversation', B.contacts.maria)).toBeNull();
    expect(await workspaceOfResource(db(), 'contact', 'maria')).toBeNull();
  });
});

describe('the contact list', () => {
  const page = (query: Parameters<typeof contactsPage>[2], segment?: ReturnType<typeof eq>, ws = B.ws) =>
    contactSearchIn(db(), ws, query.search ?? '').then((search) => contactsPage(db(), ws, query, segment, search));
  const names = (p: { items: { name: string | null }[] }) => p.items.map((c) => c.name);

  it("lists B's contacts newest first, or by name or phone, never A's", async () => {
    const newest = await page({});
    expect(newest.items.map((c) => c.id)).toEqual([B.contacts.zed, B.contacts.ann, B.contacts.tom, B.contacts.maria]);
    expect(names(await page({ sort: 'name' }))).toEqual(['Ann Maria Cole', 'Maria Lopez', 'Tom Baker', 'Zed Quinn']);
    expect(names(await page({ sort: 'name', order: 'desc' }))).toEqual(['Zed Quinn', 'Tom Baker', 'Maria Lopez', 'Ann Maria Cole']);
    expect(names(await page({ sort: 'createdAt', order: 'asc' }))).toEqual(['Maria Lopez', 'Tom Baker', 'Ann Maria Cole', 'Zed Quinn']);
  });

  it('searches by name, word, e-mail or phone (national or with the country code), in the asked order, never A\'s', async () => {
    expect((await page({ search: 'maria' })).items.map((c) => c.id)).toEqual([B.contacts.ann, B.contacts.maria]);
    expect(names(await page({ search: 'maria', sort: 'name' }))).toEqual(['Ann Maria Cole', 'Maria Lopez']);
    expect(names(await page({ search: 'zed@' }))).toEqual(['Zed Quinn']);
    expect((await page({ search: '4155550102' })).items.map((c) => c.id)).toEqual([B.contacts.tom]);
    expect((await page({ search: '+1415555010' })).items.map((c) => c.id)).toEqual([B.contacts.ann, B.contacts.tom, B.contacts.maria]);
    expect(names(await page({ search: '+1415555010', sort: 'phoneNumber' }))).toEqual(['Maria Lopez', 'Tom Baker', 'Ann Maria Cole']);
    expect(await page({ search: 'nobody-by-that-name' })).toEqual({ items: [], nextCursor: null });
  });

  it('pages a search and a segment with a cursor', async () => {
    const first = await page({ search: 'maria', limit: 1 });
    expect(first.items.map((c) => c.id)).toEqual([B.contacts.ann]);
    expect((await page({ search: 'maria', limit: 1, cursor: first.nextCursor! })).items.map((c) => c.id)).toEqual([B.contacts.maria]);
    const phones = await page({ search: '+1415555010', limit: 2 });
    expect(phones.items.map((c) => c.id)).toEqual([B.contacts.ann, B.contacts.tom]);
    expect((await page({ search: '+1415555010', limit: 2, cursor: phones.nextCursor! })).items.map((c) => c.id)).toEqual([B.contacts.maria]);
    const inSegment = await page({}, eq(t.contacts.email, 'tom@example.com'));
    expect(inSegment.items.map((c) => c.id)).toEqual([B.contacts.tom]);
  });

  it("counts B's contacts selected by a segment and a search, none of A's", async () => {
    expect(await countContacts(db(), B.ws, undefined, undefined)).toBe(4);
    expect(await countContacts(db(), B.ws, undefined, await contactSearchIn(db(), B.ws, 'maria'))).toBe(2);
    expect(await countContacts(db(), B.ws, eq(t.contacts.email, 'tom@example.com'), undefined)).toBe(1);
  });

  it('orders newest first unless told; name and phone ascending unless told', () => {
    expect(contactOrderOf({})).toEqual({ sort: 'createdAt', order: 'desc' });
    expect(contactOrderOf({ sort: 'name' })).toEqual({ sort: 'name', order: 'asc' });
    expect(contactOrderOf({ sort: 'phoneNumber', order: 'desc' })).toEqual({ sort: 'phoneNumber', order: 'desc' });
    expect(contactOrderOf({ order: 'asc' })).toEqual({ sort: 'createdAt', order: 'asc' });
  });
});
