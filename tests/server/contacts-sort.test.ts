/**
 * The contact list sorted by name, phone number or creation time, either way. Every page walk,
 * under every order and filter (search through each of its plans, segment, opt-out), must give exactly the
 * filter's contacts in the documented order: no row skipped or repeated, ties by id, unnamed contacts last.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { buildTestApp, type Session, type TestApp } from '../support/server';

let ta: TestApp;
let admin: Session;
let agent: Session;
let segmentId: string;

interface Listed {
  id: string;
  name: string | null;
  phoneNumber: string;
  createdAt: string;
}

const sameMoment = new Date('2026-03-01T10:00:00.000Z');
/** Names with ties (the same name in another case), unnamed contacts, and a non-ASCII name. */
const names = ['Ada Lovelace', 'ada lovelace', 'ADA LOVELACE', 'Alan Turing', 'Grace Hopper', 'grace', 'Zoe Ada', 'émile', '50% Off', null, null, 'Bob', 'bob', null];

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Sorted Shop');
  agent = await ta.newMember(admin, 'agent');
  await ta.call('POST', '/attribute', { token: admin.token, body: { name: 'tier', format: 'text', workspaceId: admin.workspaceId } });
  const w = admin.workspaceId;
  // 42 contacts: three rounds of the names, some sharing a creation time (ties broken by id), every third opted out.
  await ta.db.insert(t.contacts).values(
    Array.from({ length: 42 }, (_, i) => ({
      workspaceId: w,
      name: names[i % names.length],
      phoneNumber: `+1415555${String(1000 + ((i * 37) % 100) * 10 + (i % 10)).padStart(4, '0')}`,
      createdAt: i % 4 === 0 ? sameMoment : new Date(Date.UTC(2026, 2, 1, 11, i)),
      optedOutAt: i % 3 === 0 ? new Date() : null,
      attributes: { tier: i % 2 === 0 ? 'gold' : 'silver' },
    })),
  );
  const seg = await ta.call('POST', '/segment', {
    token: admin.token,
    body: { name: 'Gold', filters: [{ column: 'tier', operator: 'IS', value: 'gold', conjuction: 'AND' }], workspaceId: w },
  });
  expect(seg.statusCode).toBe(201);
  segmentId = seg.json().id;
});
afterAll(async () => {
  await ta?.close();
});

async function walk(query: Record<string, string>, limit: number): Promise<Listed[]> {
  const seen: Listed[] = [];
  let cursor: string | undefined;
  do {
    const res = await ta.call('GET', `/workspace/${admin.workspaceId}/contacts`, {
      token: agent.token,
      query: { ...query, limit: String(limit), ...(cursor ? { cursor } : {}) },
    });
    expect(res.statusCode, res.body).toBe(200);
    seen.push(...res.json().items);
    cursor = res.json().nextCursor ?? undefined;
  } while (cursor);
  return seen;
}

const bytes = (s: string) => Buffer.from(s, 'utf8');
const cmp = (a: string, b: string) => Buffer.compare(bytes(a), bytes(b));

/** The documented order, computed here from the rows: the oracle the pages are checked against. */
function sortedAs(rows: Listed[], sort: string, order: 'asc' | 'desc'): string[] {
  const dir = order === 'asc' ? 1 : -1;
  const byCreation = (a: Listed, b: Listed) => dir * (cmp(a.createdAt, b.createdAt) || cmp(a.id, b.id));
  const sorted = [...rows].sort((a, b) => {
    if (sort === 'phoneNumber') return dir * (cmp(a.phoneNumber, b.phoneNumber) || cmp(a.id, b.id));
    if (sort === 'createdAt') return byCreation(a, b);
    if (a.name === null || b.name === null) return a.name === b.name ? byCreation(a, b) : a.name === null ? 1 : -1;
    return dir * (cmp(a.name.toLowerCase(), b.name.toLowerCase()) || cmp(a.id, b.id));
  });
  return sorted.map((c) => c.id);
}

const filters: Record<string, Record<string, string>> = {
  'no filter': {},
  'a name search (few matches, collected)': { search: 'ada' },
  'a phone search': { search: '+1 415 555 1' },
  'a segment': { segmentId: '' },
  'opted out': { optedOut: 'true' },
  'a segment, subscribed, searched': { segmentId: '', optedOut: 'false', search: 'a' },
};

describe('GET /workspace/{id}/contacts?sort=&order=', () => {
  for (const [label, raw] of Object.entries(filters)) {
    it(`pages under every order give the whole filter sorted: ${label}`, async () => {
      const filter = { ...raw, ...(raw.segmentId !== undefined && { segmentId }) };
      // The filter's contacts, as the default (newest first) list gives them.
      const all = await walk(filter, 200);
      expect(all.length).toBeGreaterThan(3);
      for (const sort of ['name', 'phoneNumber', 'createdAt']) {
        for (const order of ['asc', 'desc'] as const) {
          const paged = await walk({ ...filter, sort, order }, 4);
          expect(paged.map((c) => c.id), `${sort} ${order}`).toEqual(sortedAs(all, sort, order));
        }
      }
    });
  }

  it('keeps today’s order without a sort; name and phone default to ascending, creation time to descending', async () => {
    const all = await walk({}, 200);
    expect(all.map((c) => c.id)).toEqual(sortedAs(all, 'createdAt', 'desc'));
    expect((await walk({ sort: 'createdAt' }, 5)).map((c) => c.id)).toEqual(sortedAs(all, 'createdAt', 'desc'));
    expect((await walk({ sort: 'name' }, 5)).map((c) => c.id)).toEqual(sortedAs(all, 'name', 'asc'));
    expect((await walk({ sort: 'phoneNumber' }, 5)).map((c) => c.id)).toEqual(sortedAs(all, 'phoneNumber', 'asc'));
  });

  it('puts unnamed contacts after the named ones in both directions', async () => {
    for (const order of ['asc', 'desc']) {
      const names = (await walk({ sort: 'name', order }, 6)).map((c) => c.name);
      const firstUnnamed = names.indexOf(null);
      expect(firstUnnamed).toBeGreaterThan(0);
      expect(names.slice(firstUnnamed).every((n) => n === null)).toBe(true);
    }
  });

  it('answers 400 in the error shape for an unknown sort or order, and for another order’s cursor', async () => {
    const list = (query: Record<string, string>) => ta.call('GET', `/workspace/${admin.workspaceId}/contacts`, { token: agent.token, query });
    for (const query of [{ sort: 'email' }, { sort: 'name', order: 'up' }] as Record<string, string>[]) {
      const res = await list(query);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
    const byName = await list({ sort: 'name', limit: '2' });
    const cursor = byName.json().nextCursor as string;
    const mixed = await list({ sort: 'phoneNumber', cursor });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Invalid cursor' });
    expect((await list({ cursor })).statusCode).toBe(400);
  });

  it('pages a search matching thousands of contacts along the sort’s index', async () => {
    await ta.db.insert(t.contacts).values(
      Array.from({ length: 2100 }, (_, i) => ({
        workspaceId: admin.workspaceId,
        name: i % 50 === 0 ? null : `Bulk ${String((i * 7919) % 2100).padStart(4, '0')}`,
        email: `bulk${i}@example.com`,
        phoneNumber: `+1628555${String(i).padStart(4, '0')}`,
      })),
    );
    const all = await walk({ search: 'bulk' }, 200);
    expect(all).toHaveLength(2100);
    for (const [sort, order] of [['name', 'asc'], ['name', 'desc'], ['phoneNumber', 'desc'], ['createdAt', 'asc']] as const) {
      const paged = await walk({ search: 'bulk', sort, order }, 200);
      expect(paged.map((c) => c.id), `${sort} ${order}`).toEqual(sortedAs(all, sort, order));
    }
  });
});
