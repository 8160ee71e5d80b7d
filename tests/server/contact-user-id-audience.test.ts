/** Customers known by a WhatsApp user id in the audience: search, segments and the contacts export. */
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { buildTestApp, type Session, type TestApp } from '../support/server';

let ta: TestApp;
let admin: Session;
let chatty: string;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Username Shop');
  const w = admin.workspaceId;
  await ta.db.insert(t.contacts).values([
    { workspaceId: w, name: 'Maria Hidden', phoneNumber: null, userId: 'US.13491208655302741918', username: 'maria.k' },
    { workspaceId: w, name: 'Marco Phone', phoneNumber: '+14155550101', userId: 'US.2002', username: null },
    { workspaceId: w, name: null, phoneNumber: null, userId: 'BR.77', username: '=cmd' },
    { workspaceId: w, name: 'Zed', phoneNumber: '+14155550102' },
  ]);
  const [contact] = await ta.db.insert(t.contacts).values({ workspaceId: w, userId: 'US.3003', username: 'chatty' }).returning();
  await ta.db.insert(t.conversations).values({ workspaceId: w, contactId: contact.id, isActive: true });
  chatty = contact.id;
  // Another workspace's contact with the same user id never shows.
  const other = await ta.newAdmin('Other Username Shop');
  await ta.db.insert(t.contacts).values({ workspaceId: other.workspaceId, name: 'Maria Clone', userId: 'US.13491208655302741918', username: 'maria.k' });
});
afterAll(async () => {
  await ta?.close();
});

const search = async (q: string) => {
  const res = await ta.call('GET', `/workspace/${admin.workspaceId}/contacts`, { token: admin.token, query: { search: q } });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().items as { userId: string }[]).map((c) => c.userId).sort();
};
type F = { column: string; value?: string; operator: string; conjuction?: 'AND' | 'OR' };
async function preview(filters: F[]) {
  const res = await ta.call('POST', `/workspace/${admin.workspaceId}/segments/preview`, { token: admin.token, body: { filters } });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().items as { userId: string }[]).map((c) => c.userId).sort();
}

describe('contact search', () => {
  it('finds a contact by username prefix, with or without @, ignoring case', async () => {
    expect(await search('maria.k')).toEqual(['US.13491208655302741918']);
    expect(await search('@Mari')).toEqual(['US.13491208655302741918']);
    // "mar" is also a name prefix: the username and the names both match.
    expect(await search('mar')).toEqual(['US.13491208655302741918', 'US.2002']);
    expect(await search('@nobody')).toEqual([]);
  });

  it('finds a contact by its whole user id, the country letters in any case', async () => {
    expect(await search('US.13491208655302741918')).toEqual(['US.13491208655302741918']);
    expect(await search(' us.2002 ')).toEqual(['US.2002']);
    expect(await search('US.134912')).toEqual([]);
  });

  it('finds the conversation of a contact by username in live chat', async () => {
    const res = await ta.call('GET', `/workspace/${admin.workspaceId}/conversations`, { token: admin.token, query: { tab: 'open', search: '@chat' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items.map((c: { contactId: string }) => c.contactId)).toEqual([chatty]);
  });
});

describe('segments on userId and username', () => {
  it.each<[string, F, string[]]>([
    ['userId IS', { column: 'userId', value: 'US.2002', operator: 'IS' }, ['US.2002']],
    ['userId STARTS_WITH', { column: 'userId', value: 'us.', operator: 'STARTS_WITH' }, ['US.13491208655302741918', 'US.2002', 'US.3003']],
    ['username IS, written with @', { column: 'username', value: '@maria.k', operator: 'IS' }, ['US.13491208655302741918']],
    ['username CONTAINS', { column: 'username', value: 'CMD', operator: 'CONTAINS' }, ['BR.77']],
    ['username IS_EMPTY', { column: 'username', operator: 'IS_EMPTY' }, ['US.2002', null as unknown as string]],
  ])('%s', async (_label, filter, expected) => {
    expect(await preview([{ conjuction: 'AND', ...filter }])).toEqual(expected.sort());
  });

  it('saves a segment on username and lists its contacts', async () => {
    const seg = await ta.call('POST', '/segment', {
      token: admin.token,
      body: { name: 'Has username', filters: [{ column: 'username', operator: 'IS_NOT_EMPTY', conjuction: 'AND' }], workspaceId: admin.workspaceId },
    });
    expect(seg.statusCode, seg.body).toBe(201);
    const list = await ta.call('GET', `/workspace/${admin.workspaceId}/contacts`, { token: admin.token, query: { segmentId: seg.json().id } });
    expect(list.json().items.map((c: { username: string }) => c.username).sort()).toEqual(['=cmd', 'chatty', 'maria.k']);
  });
});

describe('contacts export', () => {
  it('writes userId and username; a phone-less contact has an empty phone, a formula-like username stays text', async () => {
    const res = await ta.call('GET', `/workspace/${admin.workspaceId}/contacts/export.csv`, { token: admin.token });
    expect(res.statusCode).toBe(200);
    const rows = parse(res.body, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]).slice(0, 4)).toEqual(['name', 'phoneNumber', 'userId', 'username']);
    expect(rows.find((r) => r.userId === 'US.13491208655302741918')).toMatchObject({ name: 'Maria Hidden', phoneNumber: '', username: 'maria.k' });
    expect(rows.find((r) => r.userId === 'US.2002')).toMatchObject({ phoneNumber: '+14155550101', username: '' });
    expect(rows.find((r) => r.userId === 'BR.77')).toMatchObject({ phoneNumber: '', username: "'=cmd" });
    expect(rows.find((r) => r.name === 'Zed')).toMatchObject({ userId: '', username: '' });
  });

  it("a campaign's log export names a phone-less recipient by user id and username", async () => {
    const w = admin.workspaceId;
    const [maria] = await ta.db.select().from(t.contacts).where(eq(t.contacts.userId, 'US.13491208655302741918')).limit(1);
    const [campaign] = await ta.db
      .insert(t.campaigns)
      .values({ workspaceId: w, name: 'Ids', type: 'oneTime', status: 'completed', rfInstance: {}, memberId: admin.member.id })
      .returning();
    await ta.db.insert(t.campaignLogs).values({
      workspaceId: w, campaignId: campaign.id, contactId: maria.id, stepId: 's1', phoneNumber: '', templateName: 'promo',
      messageStatus: 'success', deliveryState: 'sent', reason: null,
    });
    const res = await ta.call('GET', `/campaign/${campaign.id}/logs.csv`, { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    const rows = parse(res.body, { columns: true }) as Record<string, string>[];
    expect(rows).toEqual([expect.objectContaining({ phoneNumber: '', userId: 'US.13491208655302741918', username: 'maria.k', templateName: 'promo' })]);
  });
});
