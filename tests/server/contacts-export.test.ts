/** Contacts export to CSV: streamed, the current filter or segment, admins only, quoted properly. */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { buildTestApp, type Session, type TestApp } from '../support/server';

let ta: TestApp;
let admin: Session;
let agent: Session;
let goldSegment: string;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Export Works');
  agent = await ta.newMember(admin, 'agent');
  const w = admin.workspaceId;
  for (const [name, format] of [['plan', 'text'], ['age', 'number']] as const) {
    await ta.call('POST', '/attribute', { token: admin.token, body: { name, format, workspaceId: w } });
  }
  await ta.db.insert(t.contacts).values([
    { workspaceId: w, name: 'Ada "Countess" Lovelace', phoneNumber: '+14155550101', email: 'ada@math.org', country: 'GB', attributes: { plan: 'gold', age: 36 }, tags: ['math', 'poetry'] },
    { workspaceId: w, name: 'Turing, Alan', phoneNumber: '+447700900123', email: 'alan@bletchley.uk', attributes: { plan: 'silver' } },
    { workspaceId: w, name: '=HYPERLINK("http://evil")', phoneNumber: '+14155550199', attributes: { plan: 'gold\nline two' } },
  ]);
  // Enough contacts that the file is written over several database pages (1,000 a page).
  await ta.db.insert(t.contacts).values(
    Array.from({ length: 1200 }, (_, i) => ({ workspaceId: w, name: `Bulk ${i}`, phoneNumber: `+1415556${String(i).padStart(4, '0')}`, attributes: { plan: 'bronze' } })),
  );
  const seg = await ta.call('POST', '/segment', {
    token: admin.token,
    body: { name: 'Gold', filters: [{ column: 'plan', value: 'gold', operator: 'STARTS_WITH', conjuction: 'AND' }], workspaceId: w },
  });
  goldSegment = seg.json().id;
  // Another workspace's contact never shows.
  const other = await ta.newAdmin('Other Shop');
  await ta.db.insert(t.contacts).values({ workspaceId: other.workspaceId, name: 'Ada Clone', phoneNumber: '+14155550101', attributes: { plan: 'gold' } });
});
afterAll(async () => {
  await ta?.close();
});

const exportCsv = (session: Session, query: Record<string, string> = {}) =>
  ta.call('GET', `/workspace/${admin.workspaceId}/contacts/export.csv`, { token: session.token, query });
const rowsOf = (body: string) => parse(body, { columns: true }) as Record<string, string>[];

describe('GET /workspace/{id}/contacts/export.csv', () => {
  it('writes every contact with its attributes as CSV a spreadsheet opens as it is', async () => {
    const res = await exportCsv(admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="contacts-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows = rowsOf(res.body);
    expect(rows).toHaveLength(1203);
    expect(Object.keys(rows[0])).toEqual(['name', 'phoneNumber', 'userId', 'username', 'email', 'country', 'city', 'tags', 'optedOut', 'createdAt', 'plan', 'age']);
    expect(rows.find((r) => r.phoneNumber === '+14155550101')).toMatchObject({
      name: 'Ada "Countess" Lovelace', email: 'ada@math.org', country: 'GB', tags: 'math;poetry', optedOut: 'false', plan: 'gold', age: '36',
    });
    expect(rows.find((r) => r.phoneNumber === '+447700900123')).toMatchObject({ name: 'Turing, Alan', email: 'alan@bletchley.uk', country: '', plan: 'silver', age: '' });
    // A formula is kept as text; a line break stays inside its cell.
    expect(rows.find((r) => r.phoneNumber === '+14155550199')).toMatchObject({ name: `'=HYPERLINK("http://evil")`, plan: 'gold\nline two' });
    expect(res.body).not.toContain('Ada Clone');
  });

  it('exports only the current search, segment or opt-out filter', async () => {
    expect(rowsOf((await exportCsv(admin, { search: 'turing' })).body).map((r) => r.name)).toEqual(['Turing, Alan']);
    const gold = rowsOf((await exportCsv(admin, { segmentId: goldSegment })).body).map((r) => r.phoneNumber).sort();
    expect(gold).toEqual(['+14155550101', '+14155550199']);
    expect(rowsOf((await exportCsv(admin, { optedOut: 'true' })).body)).toEqual([]);
    expect((await exportCsv(admin, { segmentId: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
  });

  it('is for admins only: an agent gets 403; a download link carries the token as ?token=', async () => {
    const denied = await exportCsv(agent);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    const viaLink = await ta.call('GET', `/workspace/${admin.workspaceId}/contacts/export.csv`, { query: { token: admin.token, search: 'ada' } });
    expect(viaLink.statusCode).toBe(200);
    expect(rowsOf(viaLink.body).map((r) => r.name)).toEqual(['Ada "Countess" Lovelace']);
  });
});
