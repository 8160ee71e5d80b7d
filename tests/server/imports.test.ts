/** CSV import end to end: upload, create, the durable job, stored contacts, counts, error report, resumption. */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { multipartBody } from '../support/multipart';

let ta: TestApp;
let admin: Session;
let agent: Session;
let other: Session;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Import Shop');
  agent = await ta.newMember(admin, 'agent');
  other = await ta.newAdmin('Other Shop');
  for (const [name, format] of [['plan', 'text'], ['age', 'number'], ['vip', 'boolean']] as const) {
    await ta.call('POST', '/attribute', { token: admin.token, body: { name, format, workspaceId: admin.workspaceId } });
  }
});
afterAll(async () => {
  await ta?.close();
});

async function upload(content: Buffer | string, session = agent, mimeType = 'text/csv', fileName = 'contacts.csv') {
  const { payload, headers } = multipartBody({ fileName, mimeType, content });
  const res = await ta.app.inject({ method: 'POST', url: '/import-history/upload', payload, headers: { ...headers, authorization: `Bearer ${session.token}` } });
  return res;
}
async function uploaded(content: Buffer | string) {
  const res = await upload(content);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().fileUrl as string;
}
type MapEntry = { columnName: string; attribute?: string | null };
const phoneName: MapEntry[] = [
  { columnName: 'phone', attribute: 'phoneNumber' },
  { columnName: 'name', attribute: 'name' },
];
function createImport(fileUrl: string, columnAttributeMap: MapEntry[] = phoneName, extra: Record<string, unknown> = {}) {
  return ta.call('POST', '/import-history', {
    token: agent.token,
    body: { fileName: 'contacts.csv', fileUrl, workspaceId: admin.workspaceId, columnAttributeMap, ...extra },
  });
}
async function history(id: string) {
  const [row] = await ta.db.select().from(t.importHistories).where(eq(t.importHistories.id, id));
  return row;
}
/** Uploads, creates the import, waits for the job; answers the stored history row. */
async function importCsv(content: Buffer | string, map: MapEntry[] = phoneName, extra: Record<string, unknown> = {}) {
  const res = await createImport(await uploaded(content), map, extra);
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json().status).toBe('pending');
  await ta.app.parley.jobs.drain({ timeoutMs: 60_000 });
  return history(res.json().id);
}
const contactByPhone = async (phone: string) =>
  (await ta.db.select().from(t.contacts).where(and(eq(t.contacts.workspaceId, admin.workspaceId), eq(t.contacts.phoneNumber, phone))))[0];
const fetchFile = (url: string) => ta.call('GET', new URL(url).pathname, { token: agent.token });

describe('a CSV import', () => {
  it('creates new contacts, updates existing ones (attributes merged), and reports rejected rows', async () => {
    await ta.db.insert(t.contacts).values({ workspaceId: admin.workspaceId, name: 'Old Name', phoneNumber: '+14155550101', attributes: { plan: 'silver', vip: true } });
    const csv = [
      'Phone,Name,E-mail,Plan,Age,VIP,Notes',
      '+1 415 555 0101,Ada Updated,ada@math.org,gold,36,,x',
      '(415) 555-0102,Bob National,,,41,no,y',
      '0044 7911 123456,Carol Intl,carol@uk.example,silver,,yes,z',
      'not a phone,Dan Invalid,,,,,',
      ',No Phone,,,,,',
      '+14155550104,Eve Age,,,old,,',
      '+14155550105,Fay Dup,,bronze,,,',
      '+1 (415) 555-0105,Fay Again,fay@dup.example,,50,,',
    ].join('\n');
    const map: MapEntry[] = [
      { columnName: 'phone', attribute: 'phoneNumber' },
      { columnName: 'name', attribute: 'name' },
      { columnName: 'E-mail', attribute: 'email' },
      { columnName: 'plan', attribute: 'plan' },
      { columnName: 'age', attribute: 'age' },
      { columnName: 'vip', attribute: 'vip' },
      { columnName: 'Notes', attribute: null },
    ];
    const h = await importCsv(csv, map);
    expect(h).toMatchObject({ status: 'completed', createdCount: 3, updatedCount: 2, rejectedCount: 3, processedRows: 8, failureReason: null });

    expect(await contactByPhone('+14155550101')).toMatchObject({ name: 'Ada Updated', email: 'ada@math.org', attributes: { plan: 'gold', age: 36, vip: true } });
    expect(await contactByPhone('+14155550102')).toMatchObject({ name: 'Bob National', attributes: { age: 41, vip: false } });
    expect(await contactByPhone('+447911123456')).toMatchObject({ name: 'Carol Intl', attributes: { plan: 'silver', vip: true } });
    expect(await contactByPhone('+14155550105')).toMatchObject({ name: 'Fay Again', email: 'fay@dup.example', attributes: { plan: 'bronze', age: 50 } });
    expect(await contactByPhone('+14155550104')).toBeUndefined();

    const listed = await ta.call('GET', `/workspace/${admin.workspaceId}/import-history`, { token: agent.token });
    const entry = listed.json().items.find((i: { id: string }) => i.id === h.id);
    expect(entry).toMatchObject({ status: 'completed', createdCount: 3, updatedCount: 2, rejectedCount: 3 });
    const report = await fetchFile(entry.errorReportUrl);
    expect(report.statusCode).toBe(200);
    expect(report.body).toBe(
      ['row,value,reason', '5,not a phone,Not a valid phone number', '6,,No phone number', '7,old,age must be a number', ''].join('\r\n'),
    );

    const events = await ta.db
      .select({ type: t.workspaceEvents.type, payload: t.workspaceEvents.payload })
      .from(t.workspaceEvents)
      .where(and(eq(t.workspaceEvents.workspaceId, admin.workspaceId), sql`${t.workspaceEvents.type} like 'import.%'`));
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['import.progress', 'import.finished']));
    const finished = events.find((e) => e.type === 'import.finished')!.payload as { importHistory: { id: string; status: string }; processed: number; total: number };
    expect(finished).toMatchObject({ importHistory: { id: h.id, status: 'completed' }, processed: 8, total: 8 });
  });

  it('reads a BOM, quoted newlines and a semicolon delimiter', async () => {
    const h = await importCsv('\uFEFFphone;name\r\n+14155550111;"Line\nBreak; Inc"\r\n+14155550112;"Quote ""Q"""\r\n');
    expect(h).toMatchObject({ status: 'completed', createdCount: 2, rejectedCount: 0 });
    expect((await contactByPhone('+14155550111')).name).toBe('Line\nBreak; Inc');
    expect((await contactByPhone('+14155550112')).name).toBe('Quote "Q"');
  });

  it('reads Latin-1 files and tab-separated files', async () => {
    const h = await importCsv(Buffer.from('phone,name\n+14155550113,José Müller\n', 'latin1'));
    expect(h.status).toBe('completed');
    expect((await contactByPhone('+14155550113')).name).toBe('José Müller');
    const tabbed = await importCsv('phone\tname\n+14155550114\tTab Person\n');
    expect(tabbed.status).toBe('completed');
    expect((await contactByPhone('+14155550114')).name).toBe('Tab Person');
  });

  it('rejects ragged rows into the report and imports the rest', async () => {
    const h = await importCsv('phone,name\n+14155550121,Ok One\n+14155550122,Too,Many\n+14155550123\n+14155550124,Ok Two\n');
    expect(h).toMatchObject({ status: 'completed', createdCount: 2, rejectedCount: 2 });
    const rejected = await ta.db.select().from(t.importRejections).where(eq(t.importRejections.importId, h.id));
    expect(rejected.map((r) => [r.rowNumber, r.reason]).sort()).toEqual([
      [3, 'Expected 2 fields as in the header, found 3'],
      [4, 'Expected 2 fields as in the header, found 1'],
    ]);
  });

  it('uses the default country given for national numbers', async () => {
    const h = await importCsv('phone,name\n030 901820,Berlin Office\n', phoneName, { defaultCountry: 'DE' });
    expect(h.status).toBe('completed');
    expect(await contactByPhone('+4930901820')).toMatchObject({ name: 'Berlin Office' });
  });
});

describe('files an import refuses', () => {
  it('refuses an empty file, a binary file and a non-CSV upload with a clear 400', async () => {
    const empty = await createImport(await uploaded(''));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('The file is empty');
    const binary = await createImport(await uploaded(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x08, 0x00])));
    expect(binary.statusCode).toBe(400);
    expect(binary.json().message).toBe('The file is not a CSV text file');
    const png = await upload(Buffer.from('89504e47', 'hex'), agent, 'image/png', 'photo.png');
    expect(png.statusCode).toBe(400);
    expect(await ta.db.select().from(t.importHistories).where(eq(t.importHistories.fileName, 'never'))).toHaveLength(0);
  });

  it('refuses a map without phoneNumber, and mapped columns the file lacks', async () => {
    const url = await uploaded('phone,name\n+14155550131,A\n');
    const noPhone = await createImport(url, [{ columnName: 'name', attribute: 'name' }]);
    expect(noPhone.statusCode).toBe(400);
    expect(noPhone.json().message).toEqual(['At least one column must be mapped to phoneNumber']);
    const missing = await createImport(url, [{ columnName: 'mobile', attribute: 'phoneNumber' }]);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('"mobile" is not a column of the file; its columns are: phone, name');
    const unknownAttr = await createImport(url, [...phoneName, { columnName: 'name', attribute: 'shoeSize' }]);
    expect(unknownAttr.json().message).toBe('Unknown attribute: shoeSize');
  });

  it('accepts only a fileUrl this server stored for the same workspace', async () => {
    const before = (await ta.db.select().from(t.importHistories)).length;
    for (const fileUrl of ['file:///etc/passwd', 'http://parley.test/files/../../secret', '/files/x/imports/y/z.csv']) {
      const res = await createImport(fileUrl);
      expect(res.statusCode, fileUrl).toBe(400);
    }
    const theirs = await upload('phone\n+14155550141\n', other);
    const res = await createImport(theirs.json().fileUrl);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('fileUrl must be the fileUrl answered by POST /import-history/upload in this workspace');
    expect((await ta.db.select().from(t.importHistories)).length).toBe(before);
  });

  it('fails a header-only file and a malformed CSV with a reason, writing no contact', async () => {
    const headerOnly = await importCsv('phone,name\n');
    expect(headerOnly).toMatchObject({ status: 'failed', failureReason: 'The file has a header row but no contacts' });
    const malformed = await importCsv('phone,name\n+14155550151,Fine\n+14155550152,"never closed\n+14155550153,Lost\n');
    expect(malformed.status).toBe('failed');
    expect(malformed.failureReason).toMatch(/^The file is not valid CSV: a quoted value opened at line \d+ is never closed$/);
    expect(await contactByPhone('+14155550151')).toBeUndefined();
  });

  it('refuses a file over the 200 MB limit with 413', async () => {
    const big = Buffer.alloc(200 * 1024 * 1024 + 1, 0x41);
    const res = await upload(big);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('The file is larger than the limit of 200 MB');
  }, 60_000);
});

describe('resumption', () => {
  it('resumes after a crash mid-way without duplicates and with exact counts', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => `+1415555${String(200 + i).padStart(4, '0')},Person ${i}`);
    rows[4] = 'bad,Rejected Person';
    const fileUrl = await uploaded(['phone,name', ...rows].join('\n'));
    const [row] = await ta.db
      .insert(t.importHistories)
      .values({ workspaceId: admin.workspaceId, fileName: 'crash.csv', fileUrl, columnAttributeMap: phoneName, memberId: agent.member.id })
      .returning();
    const imports = ta.app.parley.services.imports;
    await expect(imports.runner.run(row.id, { chunkSize: 3, failAfterChunks: 2 })).rejects.toThrow('Injected failure after 2 chunks');
    expect(await history(row.id)).toMatchObject({ status: 'pending', processedRows: 6, createdCount: 5, rejectedCount: 1 });

    // The durable job picks it up again (as after a restart) and carries on after row 6.
    await ta.app.parley.jobs.send('contacts.import', { importId: row.id, workspaceId: admin.workspaceId });
    await ta.app.parley.jobs.drain({ timeoutMs: 60_000 });
    expect(await history(row.id)).toMatchObject({ status: 'completed', processedRows: 10, createdCount: 9, updatedCount: 0, rejectedCount: 1 });
    const [{ n }] = await ta.db
      .select({ n: sql<number>`count(*)::int` })
      .from(t.contacts)
      .where(and(eq(t.contacts.workspaceId, admin.workspaceId), sql`${t.contacts.phoneNumber} like '+1415555020%'`));
    expect(n).toBe(9);
    const rejected = await ta.db.select().from(t.importRejections).where(eq(t.importRejections.importId, row.id));
    expect(rejected).toHaveLength(1);
  });
});
