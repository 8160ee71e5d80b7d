/** CSV import of customers known by a WhatsApp user id: user_id and username columns, matching, rejections. */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { multipartBody } from '../support/multipart';

let ta: TestApp;
let admin: Session;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('User Id Import Shop');
});
afterAll(async () => {
  await ta?.close();
});

type MapEntry = { columnName: string; attribute?: string | null };
const fullMap: MapEntry[] = [
  { columnName: 'phone', attribute: 'phoneNumber' },
  { columnName: 'user_id', attribute: 'userId' },
  { columnName: 'username', attribute: 'username' },
  { columnName: 'name', attribute: 'name' },
];

async function createImport(csv: string, map: MapEntry[]) {
  const { payload, headers } = multipartBody({ fileName: 'ids.csv', mimeType: 'text/csv', content: csv });
  const up = await ta.app.inject({ method: 'POST', url: '/import-history/upload', payload, headers: { ...headers, authorization: `Bearer ${admin.token}` } });
  expect(up.statusCode, up.body).toBe(201);
  return ta.call('POST', '/import-history', {
    token: admin.token,
    body: { fileName: 'ids.csv', fileUrl: up.json().fileUrl, workspaceId: admin.workspaceId, columnAttributeMap: map },
  });
}
async function importCsv(csv: string, map: MapEntry[] = fullMap) {
  const res = await createImport(csv, map);
  expect(res.statusCode, res.body).toBe(201);
  await ta.app.parley.jobs.drain({ timeoutMs: 60_000 });
  const [row] = await ta.db.select().from(t.importHistories).where(eq(t.importHistories.id, res.json().id));
  return row;
}
const contactsWhere = (cond: ReturnType<typeof eq>) => ta.db.select().from(t.contacts).where(and(eq(t.contacts.workspaceId, admin.workspaceId), cond));
const byUserId = async (userId: string) => (await contactsWhere(eq(t.contacts.userId, userId)))[0];
const byPhone = async (phone: string) => (await contactsWhere(eq(t.contacts.phoneNumber, phone)))[0];

describe('a CSV import with WhatsApp user ids', () => {
  it('creates phone-less contacts, updates contacts by user id, fills identities in, and reports bad user ids', async () => {
    const ws = admin.workspaceId;
    const [known] = await ta.db.insert(t.contacts).values({ workspaceId: ws, userId: 'US.1001', name: 'Known Old' }).returning();
    const [phoneOnly] = await ta.db.insert(t.contacts).values({ workspaceId: ws, phoneNumber: '+14155550201', name: 'Phone Only' }).returning();
    const [holder] = await ta.db.insert(t.contacts).values({ workspaceId: ws, phoneNumber: '+14155550202', name: 'Holds The Phone' }).returning();
    const [other] = await ta.db.insert(t.contacts).values({ workspaceId: ws, userId: 'US.1004', name: 'Other Person' }).returning();
    const csv = [
      'phone,user_id,username,name',
      ',US.1001,@known,Known New',
      '+1 415 555 0201,US.1002,,Phone Gets Id',
      ',US.1003,maria,Maria',
      '+14155550202,US.1004,,Other Renamed',
      ',us 1005,,Bad Id',
      ',,,Nobody',
      ',US.1003,,Maria Again',
    ].join('\n');
    const h = await importCsv(csv);
    expect(h).toMatchObject({ status: 'completed', createdCount: 1, updatedCount: 4, rejectedCount: 2, processedRows: 7 });

    // Matched by user id: the same contact, no duplicate.
    expect(await byUserId('US.1001')).toMatchObject({ id: known.id, name: 'Known New', username: 'known', phoneNumber: null });
    // Matched by phone: the contact takes the user id.
    expect(await byUserId('US.1002')).toMatchObject({ id: phoneOnly.id, name: 'Phone Gets Id', phoneNumber: '+14155550201' });
    // A valid row with a user id and no phone is a contact; the later row of the same user id updates it.
    expect(await byUserId('US.1003')).toMatchObject({ phoneNumber: null, username: 'maria', name: 'Maria Again' });
    // The user id wins; the phone another contact holds is not moved, nor are the two merged.
    expect(await byUserId('US.1004')).toMatchObject({ id: other.id, name: 'Other Renamed', phoneNumber: null });
    expect(await byPhone('+14155550202')).toMatchObject({ id: holder.id, name: 'Holds The Phone', userId: null });
    const all = await contactsWhere(eq(t.contacts.workspaceId, ws));
    expect(all).toHaveLength(5);

    const rejections = await ta.db.select().from(t.importRejections).where(eq(t.importRejections.importId, h.id));
    expect(rejections.map((r) => [r.rowNumber, r.value, r.reason]).sort()).toEqual([
      [6, 'us 1005', 'Not a valid WhatsApp user id (two capital letters, a dot and letters or digits, as US.13491208655302741918)'],
      [7, '', 'No phone number or WhatsApp user id'],
    ]);
  });

  it('accepts a map with a user id column and no phone column; refuses one with neither', async () => {
    const h = await importCsv('user_id,name\nUS.2001,Only Id\n', [
      { columnName: 'user_id', attribute: 'userId' },
      { columnName: 'name', attribute: 'name' },
    ]);
    expect(h).toMatchObject({ status: 'completed', createdCount: 1, rejectedCount: 0 });
    expect(await byUserId('US.2001')).toMatchObject({ name: 'Only Id', phoneNumber: null });
    const refused = await createImport('username,name\nmaria,M\n', [
      { columnName: 'username', attribute: 'username' },
      { columnName: 'name', attribute: 'name' },
    ]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toEqual(['At least one column must be mapped to phoneNumber']);
  });

  it('takes a username on a phone-only file without the user id path', async () => {
    const h = await importCsv('phone,username\n+14155550301,@pat\n', [
      { columnName: 'phone', attribute: 'phoneNumber' },
      { columnName: 'username', attribute: 'username' },
    ]);
    expect(h).toMatchObject({ status: 'completed', createdCount: 1 });
    expect(await byPhone('+14155550301')).toMatchObject({ username: 'pat', userId: null });
  });

  it('rows of one chunk naming a phone and a user id that two earlier rows hold stay two contacts, nothing failing', async () => {
    const csv = ['phone,user_id,username,name', '+14155550401,,,By Phone', ',US.4001,,By Id', '+14155550401,US.4001,both,Both'].join('\n');
    const h = await importCsv(csv);
    expect(h).toMatchObject({ status: 'completed', createdCount: 2, updatedCount: 1, rejectedCount: 0 });
    // The row naming both goes to the user id's contact; the phone stays with the contact that had it.
    expect(await byUserId('US.4001')).toMatchObject({ name: 'Both', username: 'both', phoneNumber: null });
    expect(await byPhone('+14155550401')).toMatchObject({ name: 'By Phone', userId: null });
  });
});
