/** Contact list search and paging, contact edits checked against attribute formats, events, conversations. */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { buildTestApp, type Session, type TestApp } from '../support/server';

let ta: TestApp;
let admin: Session;
let agent: Session;
const ids: Record<string, string> = {};

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Contact Shop');
  agent = await ta.newMember(admin, 'agent');
  for (const [name, format] of [['plan', 'text'], ['age', 'number'], ['vip', 'boolean']] as const) {
    await ta.call('POST', '/attribute', { token: admin.token, body: { name, format, workspaceId: admin.workspaceId } });
  }
  const w = admin.workspaceId;
  const rows = await ta.db
    .insert(t.contacts)
    .values([
      { workspaceId: w, name: 'Ada Lovelace', phoneNumber: '+14155550101', email: 'ada@math.org' },
      { workspaceId: w, name: 'Alan Turing', phoneNumber: '+447700900123', email: 'turing@bletchley.uk' },
      { workspaceId: w, name: 'Grace Hopper', phoneNumber: '+14155550199', email: 'grace@navy.mil' },
      { workspaceId: w, name: '50% Off', phoneNumber: '+14155550111', email: null },
      { workspaceId: w, name: 'Alice  Archer-Smith', phoneNumber: '+14155550122', email: 'alice@example.com' },
    ])
    .returning();
  for (const r of rows) ids[r.name!] = r.id;
});
afterAll(async () => {
  await ta?.close();
});

const search = async (q: string) => {
  const res = await ta.call('GET', `/workspace/${admin.workspaceId}/contacts`, { token: agent.token, query: { search: q } });
  expect(res.statusCode).toBe(200);
  return (res.json().items as { name: string }[]).map((c) => c.name).sort();
};

describe('contact list', () => {
  it('searches names and e-mail addresses by prefix, ignoring case', async () => {
    expect(await search('a')).toEqual(['Ada Lovelace', 'Alan Turing', 'Alice  Archer-Smith']);
    expect(await search('GRACE')).toEqual(['Grace Hopper']);
    expect(await search('turing@')).toEqual(['Alan Turing']);
    expect(await search('50%')).toEqual(['50% Off']);
    expect(await search('5')).toEqual(['50% Off']);
    expect(await search('zzz')).toEqual([]);
  });

  it('finds a contact by any whole word of the name, in any order', async () => {
    expect(await search('archer')).toEqual(['Alice  Archer-Smith']);
    expect(await search('Smith')).toEqual(['Alice  Archer-Smith']);
    expect(await search('turing')).toEqual(['Alan Turing']);
    expect(await search('lovelace ada')).toEqual(['Ada Lovelace']);
    expect(await search('hopper grace')).toEqual(['Grace Hopper']);
    // Every word must be there; a word in the middle of another is not a word.
    expect(await search('turing ada')).toEqual([]);
    expect(await search('ring')).toEqual([]);
  });

  it('keeps the words in step with the name when it is edited', async () => {
    const id = ids['Grace Hopper'];
    await ta.call('PATCH', `/contact/${id}`, { token: agent.token, body: { name: 'Grace Brewster Hopper' } });
    expect(await search('brewster')).toEqual(['Grace Brewster Hopper']);
    await ta.call('PATCH', `/contact/${id}`, { token: agent.token, body: { name: 'Grace Hopper' } });
    expect(await search('brewster')).toEqual([]);
  });

  it('searches phone numbers with or without the country code', async () => {
    expect(await search('+44 7700')).toEqual(['Alan Turing']);
    expect(await search('+1 415 555 01')).toEqual(['50% Off', 'Ada Lovelace', 'Alice  Archer-Smith', 'Grace Hopper']);
    // Written nationally: the workspace's default country (US) supplies +1.
    expect(await search('(415) 555-0199')).toEqual(['Grace Hopper']);
  });

  it('pages newest first with an opaque cursor', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await ta.call('GET', `/workspace/${admin.workspaceId}/contacts`, {
        token: agent.token,
        query: { limit: '3', ...(cursor ? { cursor } : {}) },
      });
      seen.push(...res.json().items.map((c: { id: string }) => c.id));
      cursor = res.json().nextCursor ?? undefined;
    } while (cursor);
    expect(new Set(seen).size).toBe(5);
  });

  it('pages a search newest first with an opaque cursor, each match once', async () => {
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const res = await ta.call('GET', `/workspace/${admin.workspaceId}/contacts`, {
        token: agent.token,
        query: { search: '+1 415 555 01', limit: '3', ...(cursor ? { cursor } : {}) },
      });
      pages.push(res.json().items.map((c: { name: string }) => c.name));
      cursor = res.json().nextCursor ?? undefined;
    } while (cursor);
    const whole = await ta.call('GET', `/workspace/${admin.workspaceId}/contacts`, { token: agent.token, query: { search: '+1 415 555 01' } });
    expect(pages.map((p) => p.length)).toEqual([3, 1]);
    expect(pages.flat()).toEqual(whole.json().items.map((c: { name: string }) => c.name));
    expect([...pages.flat()].sort()).toEqual(['50% Off', 'Ada Lovelace', 'Alice  Archer-Smith', 'Grace Hopper']);
  });
});

describe('PATCH /contact/{contactId}', () => {
  it('updates fields and attributes in their formats, and records contact.updated', async () => {
    const id = ids['Ada Lovelace'];
    const res = await ta.call('PATCH', `/contact/${id}`, {
      token: agent.token,
      body: { name: 'Ada King', country: 'UK', attributes: { plan: 'gold', age: '36', vip: 'true' } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Ada King', country: 'UK', attributes: { plan: 'gold', age: 36, vip: true } });
    const [row] = await ta.db.select().from(t.contacts).where(eq(t.contacts.id, id));
    expect(row.attributes).toEqual({ plan: 'gold', age: 36, vip: true });
    const events = await ta.db
      .select()
      .from(t.workspaceEvents)
      .where(and(eq(t.workspaceEvents.workspaceId, admin.workspaceId), eq(t.workspaceEvents.type, 'contact.updated')));
    expect(events.map((e) => (e.payload as { contact: { id: string } }).contact.id)).toContain(id);

    const cleared = await ta.call('PATCH', `/contact/${id}`, { token: agent.token, body: { attributes: { vip: null } } });
    expect(cleared.json().attributes).toEqual({ plan: 'gold', age: 36 });
  });

  it('refuses values that do not fit the attribute format, and unknown attributes, changing nothing', async () => {
    const id = ids['Alan Turing'];
    const before = await ta.db.select().from(t.contacts).where(eq(t.contacts.id, id));
    for (const [attributes, message] of [
      [{ age: 'forty' }, 'Attribute age must be a number'],
      [{ vip: 'maybe' }, 'Attribute vip must be true or false'],
      [{ shoe: '42' }, 'Unknown attribute: shoe'],
    ] as const) {
      const res = await ta.call('PATCH', `/contact/${id}`, { token: agent.token, body: { name: 'Changed', attributes } });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const bad = await ta.call('PATCH', `/contact/${id}`, { token: agent.token, body: { email: 'not-an-email' } });
    expect(bad.statusCode).toBe(400);
    expect(await ta.db.select().from(t.contacts).where(eq(t.contacts.id, id))).toEqual(before);
  });

  it("lists a contact's conversations with their last message", async () => {
    const id = ids['Grace Hopper'];
    const [conv] = await ta.db.insert(t.conversations).values({ workspaceId: admin.workspaceId, contactId: id }).returning();
    await ta.db.insert(t.messages).values([
      { workspaceId: admin.workspaceId, conversationId: conv.id, type: 'text', text: 'first', creator: 'user', status: 'received', createdAt: new Date(Date.now() - 1000) },
      { workspaceId: admin.workspaceId, conversationId: conv.id, type: 'text', text: 'latest', creator: 'agent', status: 'sent' },
    ]);
    const res = await ta.call('GET', `/contact/${id}/conversations`, { token: agent.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().items).toHaveLength(1);
    expect(res.json().items[0]).toMatchObject({ id: conv.id, contactId: id, lastMessage: { text: 'latest' }, Contact: { name: 'Grace Hopper' } });
  });
});
