/** Segments compiled to SQL: every operator, AND binding tighter than OR, saved segments in contact lists. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { buildTestApp, type Session, type TestApp } from '../support/server';

let ta: TestApp;
let admin: Session;
let agent: Session;
let other: Session;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Segment Shop');
  agent = await ta.newMember(admin, 'agent');
  other = await ta.newAdmin('Other Shop');
  for (const [name, format] of [['plan', 'text'], ['age', 'number'], ['vip', 'boolean']] as const) {
    const r = await ta.call('POST', '/attribute', { token: admin.token, body: { name, format, workspaceId: admin.workspaceId } });
    expect(r.statusCode).toBe(201);
  }
  const w = admin.workspaceId;
  await ta.db.insert(t.contacts).values([
    { workspaceId: w, name: 'Ada Lovelace', phoneNumber: '+14155550101', email: 'ada@math.org', country: 'UK', attributes: { plan: 'gold', age: 36, vip: true }, tags: ['math'] },
    { workspaceId: w, name: 'Alan Turing', phoneNumber: '+447700900123', email: 'alan@bletchley.uk', country: 'UK', attributes: { plan: 'silver', age: 41 } },
    { workspaceId: w, name: 'grace hopper', phoneNumber: '+14155550199', email: null, country: 'US', attributes: { plan: 'Gold', vip: false }, tags: ['navy', 'cobol'] },
    { workspaceId: w, name: 'Linus', phoneNumber: '+358401234567', email: 'linus@kernel.org', country: null, attributes: { age: 20, plan: '' } },
  ]);
  // Another workspace's look-alike must never show up.
  await ta.db.insert(t.contacts).values({ workspaceId: other.workspaceId, name: 'Ada Clone', phoneNumber: '+14155550101', attributes: { plan: 'gold' } });
});
afterAll(async () => {
  await ta?.close();
});

type F = { column: string; value?: string; operator: string; conjuction?: 'AND' | 'OR' };
async function preview(filters: F[], token = agent.token) {
  const res = await ta.call('POST', `/workspace/${admin.workspaceId}/segments/preview`, { token, body: { filters } });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { count: number; items: { name: string }[] };
  expect(body.items.length).toBe(body.count);
  return body.items.map((c) => c.name).sort();
}

describe('segment operators', () => {
  it.each<[string, F, string[]]>([
    ['IS on an attribute (exact, case-sensitive)', { column: 'plan', value: 'gold', operator: 'IS' }, ['Ada Lovelace']],
    ['IS on a number attribute', { column: 'age', value: '41', operator: 'IS' }, ['Alan Turing']],
    ['IS on a boolean attribute', { column: 'vip', value: 'false', operator: 'IS' }, ['grace hopper']],
    ['IS on a contact column', { column: 'country', value: 'UK', operator: 'IS' }, ['Ada Lovelace', 'Alan Turing']],
    ['IS on tags (has the tag)', { column: 'tags', value: 'navy', operator: 'IS' }, ['grace hopper']],
    ['IS_NOT (missing values included)', { column: 'plan', value: 'gold', operator: 'IS_NOT' }, ['Alan Turing', 'Linus', 'grace hopper']],
    ['IS_NOT on a contact column', { column: 'country', value: 'UK', operator: 'IS_NOT' }, ['Linus', 'grace hopper']],
    ['STARTS_WITH ignores case', { column: 'name', value: 'a', operator: 'STARTS_WITH' }, ['Ada Lovelace', 'Alan Turing']],
    ['STARTS_WITH on phone numbers', { column: 'phoneNumber', value: '+1415', operator: 'STARTS_WITH' }, ['Ada Lovelace', 'grace hopper']],
    ['STARTS_WITH on an attribute', { column: 'plan', value: 'GO', operator: 'STARTS_WITH' }, ['Ada Lovelace', 'grace hopper']],
    ['END_WITH', { column: 'email', value: '.ORG', operator: 'END_WITH' }, ['Ada Lovelace', 'Linus']],
    ['CONTAINS', { column: 'name', value: 'ing', operator: 'CONTAINS' }, ['Alan Turing']],
    ['CONTAINS takes % and _ literally', { column: 'name', value: '%', operator: 'CONTAINS' }, []],
    ['DOES_NOT_CONTAINS (empty values included)', { column: 'email', value: 'a', operator: 'DOES_NOT_CONTAINS' }, ['Linus', 'grace hopper']],
    ['IS_EMPTY on a column', { column: 'email', operator: 'IS_EMPTY' }, ['grace hopper']],
    ['IS_EMPTY on an attribute (missing or empty text)', { column: 'plan', operator: 'IS_EMPTY' }, ['Linus']],
    ['IS_EMPTY on tags', { column: 'tags', operator: 'IS_EMPTY' }, ['Alan Turing', 'Linus']],
    ['IS_NOT_EMPTY on an attribute', { column: 'vip', operator: 'IS_NOT_EMPTY' }, ['Ada Lovelace', 'grace hopper']],
    ['IS_NOT_EMPTY on a column', { column: 'country', operator: 'IS_NOT_EMPTY' }, ['Ada Lovelace', 'Alan Turing', 'grace hopper']],
    ['attribute names ignore case', { column: 'PLAN', value: 'silver', operator: 'IS' }, ['Alan Turing']],
  ])('%s', async (_label, filter, expected) => {
    expect(await preview([{ conjuction: 'AND', ...filter }])).toEqual(expected);
  });

  it('no filters select every contact of the workspace', async () => {
    expect(await preview([])).toEqual(['Ada Lovelace', 'Alan Turing', 'Linus', 'grace hopper']);
  });
});

describe('AND and OR', () => {
  it('AND narrows, OR widens', async () => {
    expect(
      await preview([
        { column: 'country', value: 'UK', operator: 'IS' },
        { column: 'age', value: '36', operator: 'IS', conjuction: 'AND' },
      ]),
    ).toEqual(['Ada Lovelace']);
    expect(
      await preview([
        { column: 'plan', value: 'silver', operator: 'IS' },
        { column: 'email', operator: 'IS_EMPTY', conjuction: 'OR' },
      ]),
    ).toEqual(['Alan Turing', 'grace hopper']);
  });

  it('AND binds tighter than OR: a OR b AND c is a OR (b AND c)', async () => {
    // Left to right, ((plan = gold OR country = US) AND vip = false), would select grace hopper only.
    const filters: F[] = [
      { column: 'plan', value: 'gold', operator: 'IS', conjuction: 'AND' },
      { column: 'country', value: 'US', operator: 'IS', conjuction: 'OR' },
      { column: 'vip', value: 'false', operator: 'IS', conjuction: 'AND' },
    ];
    expect(await preview(filters)).toEqual(['Ada Lovelace', 'grace hopper']);
    // a AND b OR c AND d = (a AND b) OR (c AND d)
    expect(
      await preview([
        { column: 'country', value: 'UK', operator: 'IS' },
        { column: 'age', value: '41', operator: 'IS', conjuction: 'AND' },
        { column: 'name', value: 'lin', operator: 'STARTS_WITH', conjuction: 'OR' },
        { column: 'age', operator: 'IS_NOT_EMPTY', conjuction: 'AND' },
      ]),
    ).toEqual(['Alan Turing', 'Linus']);
  });
});

describe('saved segments', () => {
  it('filters the contact list by a saved segment, page by page', async () => {
    const seg = await ta.call('POST', '/segment', {
      token: agent.token,
      body: {
        name: 'Gold or US',
        workspaceId: admin.workspaceId,
        filters: [
          { column: 'plan', value: 'GOLD', operator: 'CONTAINS', conjuction: 'AND' },
          { column: 'country', value: 'US', operator: 'IS', conjuction: 'OR' },
        ],
      },
    });
    expect(seg.statusCode).toBe(201);
    const first = await ta.call('GET', `/workspace/${admin.workspaceId}/contacts`, { token: agent.token, query: { segmentId: seg.json().id, limit: '1' } });
    expect(first.statusCode).toBe(200);
    expect(first.json().items).toHaveLength(1);
    const second = await ta.call('GET', `/workspace/${admin.workspaceId}/contacts`, {
      token: agent.token,
      query: { segmentId: seg.json().id, limit: '1', cursor: first.json().nextCursor },
    });
    const names = [...first.json().items, ...second.json().items].map((c: { name: string }) => c.name).sort();
    expect(names).toEqual(['Ada Lovelace', 'grace hopper']);
    expect(second.json().nextCursor).toBeNull();
  });

  it('refuses unknown columns and values that do not fit the format with 400', async () => {
    const res = await ta.call('POST', '/segment', {
      token: agent.token,
      body: {
        name: 'Broken',
        workspaceId: admin.workspaceId,
        filters: [
          { column: 'shoeSize', value: '42', operator: 'IS', conjuction: 'AND' },
          { column: 'age', value: 'old', operator: 'IS', conjuction: 'AND' },
          { column: 'vip', value: 'yes', operator: 'IS', conjuction: 'AND' },
        ],
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(['Unknown column: shoeSize', 'Filter on age: "old" is not a number', 'Filter on vip: use true or false']);
    const saved = await ta.db.select().from(t.segments).where(eq(t.segments.name, 'Broken'));
    expect(saved).toHaveLength(0);
  });

  it('answers 404 for a segment of another workspace', async () => {
    const theirs = await ta.call('POST', '/segment', { token: other.token, body: { name: 'Theirs', filters: [], workspaceId: other.workspaceId } });
    const res = await ta.call('GET', `/workspace/${admin.workspaceId}/contacts`, { token: agent.token, query: { segmentId: theirs.json().id } });
    expect(res.statusCode).toBe(404);
  });
});

describe('attributes in use', () => {
  it('refuses to delete an attribute a segment or a bot uses, naming them (409)', async () => {
    const attr = (await ta.call('POST', '/attribute', { token: admin.token, body: { name: 'tier', format: 'text', workspaceId: admin.workspaceId } })).json();
    await ta.call('POST', '/segment', {
      token: admin.token,
      body: { name: 'Top tier', workspaceId: admin.workspaceId, filters: [{ column: 'Tier', value: 'top', operator: 'IS', conjuction: 'AND' }] },
    });
    const bot = (await ta.call('POST', '/bot', { token: admin.token, body: { workspaceId: admin.workspaceId, title: 'Tier bot' } })).json();
    const canvas = {
      nodes: [
        { id: 'start', type: 'StartNode', position: { x: 0, y: 0 }, data: { label: 'Start' }, deletable: false },
        {
          id: 'cond', type: 'ConditionNode', position: { x: 0, y: 100 },
          data: { label: 'Tier?', branches: [{ id: 'b', label: 'Top', type: 'Normal', conditions: [{ id: 'c', attributeId: attr.id, operator: 'EQUALS', value: 'top' }] }] },
        },
      ],
      edges: [],
    };
    expect((await ta.call('PATCH', `/bot/${bot.id}`, { token: admin.token, body: { rfInstance: canvas } })).statusCode).toBe(200);

    const res = await ta.call('DELETE', `/attribute/${attr.id}`, { token: admin.token });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Attribute tier is used by bot "Tier bot", segment "Top tier"; remove it from them first');
    expect((await ta.db.select().from(t.attributes).where(eq(t.attributes.id, attr.id))).length).toBe(1);

    const unused = (await ta.call('POST', '/attribute', { token: admin.token, body: { name: 'spare', format: 'text', workspaceId: admin.workspaceId } })).json();
    expect((await ta.call('DELETE', `/attribute/${unused.id}`, { token: admin.token })).statusCode).toBe(200);
  });

  it('refuses a duplicate attribute name with 409', async () => {
    const res = await ta.call('POST', '/attribute', { token: admin.token, body: { name: 'PLAN', format: 'text', workspaceId: admin.workspaceId } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ statusCode: 409, error: 'Conflict', message: 'Attribute with name PLAN already exists' });
  });
});
