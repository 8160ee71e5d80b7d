/**
 * Text PostgreSQL cannot hold (NUL, unpaired UTF-16 surrogates) is refused by the shared schemas with a 400 on
 * every field, path and query parameter, before anything is written or sent to Meta.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { type Seeded, seedWorkspace, snapshotWorkspace } from '../support/fixtures';

let ta: TestApp;
let admin: Session;
let s: Seeded;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Null Bytes Ltd');
  s = await seedWorkspace(ta, admin);
});
afterAll(async () => {
  await ta?.close();
});

const hostile = { nul: 'a\u0000b', loneHigh: 'a\uD800b', loneLow: '\uDC00z' };

type Call = [label: string, method: 'GET' | 'POST' | 'PATCH', url: () => string, body?: (v: string) => unknown, query?: (v: string) => Record<string, string>];
const calls: Call[] = [
  ['message text', 'POST', () => '/message', (v) => ({ text: `Hello ${v}`, conversationId: s.ids.conversation })],
  ['contact name', 'PATCH', () => `/contact/${s.ids.contact}`, (v) => ({ name: v })],
  ['contact attribute value', 'PATCH', () => `/contact/${s.ids.contact}`, (v) => ({ attributes: { plan: v } })],
  ['contact attribute name', 'PATCH', () => `/contact/${s.ids.contact}`, (v) => ({ attributes: { [`plan${v}`]: 'x' } })],
  ['bot title', 'PATCH', () => `/bot/${s.ids.bot}`, (v) => ({ title: v })],
  ['segment name', 'POST', () => '/segment', (v) => ({ name: v, filters: [], workspaceId: s.workspaceId })],
  ['segment filter value', 'POST', () => '/segment', (v) => ({ name: 'Seg', filters: [{ column: 'plan', value: v, operator: 'IS' }], workspaceId: s.workspaceId })],
  ['segment preview', 'POST', () => `/workspace/${s.workspaceId}/segments/preview`, (v) => ({ filters: [{ column: 'name', value: v, operator: 'CONTAINS' }] })],
  ['contact search', 'GET', () => `/workspace/${s.workspaceId}/contacts`, undefined, (v) => ({ search: v })],
  ['conversation search', 'GET', () => `/workspace/${s.workspaceId}/conversations`, undefined, (v) => ({ search: v })],
  ['workspace name', 'POST', () => '/workspace', (v) => ({ name: `Shop ${v}` })],
  ['attribute description', 'PATCH', () => `/attribute/${s.ids.attribute}`, (v) => ({ description: v })],
  ['invitation token in the path', 'POST', () => `/auth/sign-up/${encodeURIComponent(`tok${hostile.nul}`)}`, () => ({ email: 'x@acme-test.com', password: 'password1' })],
];

describe.each(Object.entries(hostile))('%s', (kind, value) => {
  // A query string is percent-decoded as UTF-8, where a lone surrogate cannot exist (it arrives as U+FFFD).
  const applicable = calls.filter(([, , , , query]) => kind === 'nul' || !query);
  it.each(applicable)('%s answers 400 and changes nothing', async (_label, method, url, body, query) => {
    const before = await snapshotWorkspace(ta, s.workspaceId);
    const sentBefore = ta.sandbox.sent.length;
    const res = await ta.call(method, url(), { token: admin.token, body: body?.(value), query: query?.(value) });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(JSON.stringify(res.json().message)).toContain('Text cannot contain NUL characters or unpaired surrogates');
    expect(await snapshotWorkspace(ta, s.workspaceId)).toBe(before);
    expect(ta.sandbox.sent.length).toBe(sentBefore);
  });
});

it('a NUL in a path id answers 400 too, not a database error', async () => {
  const res = await ta.call('GET', `/bot/${encodeURIComponent('\u0000')}`, { token: admin.token });
  expect(res.statusCode).toBe(400);
});

it('keeps accepting emoji (paired surrogates) and right-to-left text', async () => {
  const res = await ta.call('PATCH', `/contact/${s.ids.contact}`, { token: admin.token, body: { name: 'Ana 😀 \u202Eשלום' } });
  expect(res.statusCode).toBe(200);
  const [row] = await ta.db.select().from(t.contacts).where(eq(t.contacts.id, s.ids.contact));
  expect(row.name).toBe('Ana 😀 \u202Eשלום');
});
