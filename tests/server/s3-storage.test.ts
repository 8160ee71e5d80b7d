/**
 * The server with its files in an S3 bucket (S3_BUCKET, here a local s3rver): uploads land in the bucket and
 * not on disk, come back through /files to members only, other workspaces' files are refused like unknown ones,
 * the size limit holds, and a CSV import reads its file from the bucket.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { multipartBody } from '../support/multipart';
import { startTestBucket, type TestBucket } from '../support/s3';
import { buildTestApp, type Session, type TestApp } from '../support/server';

let bucket: TestBucket;
let ta: TestApp;
let admin: Session;
let stranger: Session;

beforeAll(async () => {
  bucket = await startTestBucket('parley-app');
  ta = await buildTestApp({ s3: bucket.s3 });
  admin = await ta.newAdmin('Bucket Shop');
  stranger = await ta.newAdmin('Other Shop');
});
afterAll(async () => {
  await ta?.close();
  await bucket?.close();
});

const upload = (url: string, session: Session, file: Parameters<typeof multipartBody>[0]) => {
  const { payload, headers } = multipartBody(file);
  return ta.app.inject({ method: 'POST', url, payload, headers: { ...headers, authorization: `Bearer ${session.token}` } });
};
const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;
const keyOf = (url: string) => ta.app.parley.services.deps.files.keyFromUrl(url)!;
const onDisk = (workspaceId: string) => fs.existsSync(path.join(ta.app.parley.config.dataDir, 'files', workspaceId));

describe('files in an S3 bucket', () => {
  it('stores an upload in the bucket, not on disk, and serves it back to members through its URL', async () => {
    const csv = 'phone,name\n+14155550101,Ada\n';
    const res = await upload('/import-history/upload', admin, { fileName: 'contacts.csv', mimeType: 'text/csv', content: csv });
    expect(res.statusCode, res.body).toBe(201);
    const { fileUrl } = res.json();
    expect(await bucket.keys(`${admin.workspaceId}/`)).toEqual([keyOf(fileUrl)]);
    expect(onDisk(admin.workspaceId)).toBe(false);

    const got = await ta.call('GET', pathOf(fileUrl), { token: admin.token });
    expect([got.statusCode, got.body, got.headers['content-type'], got.headers['content-length']]).toEqual([200, csv, 'text/csv', String(csv.length)]);
    expect((await ta.call('GET', pathOf(fileUrl))).statusCode).toBe(401);
  });

  it('serves a signed link (as handed to Meta) without a token, and refuses a tampered one', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const bot = (await ta.call('POST', '/bot', { token: admin.token, body: { workspaceId: admin.workspaceId } })).json();
    const res = await upload(`/bot/${bot.id}/uploadMedia`, admin, { fileName: 'logo.png', mimeType: 'image/png', content: png });
    expect(res.statusCode, res.body).toBe(201);
    const signed = ta.app.parley.services.deps.files.signedUrl(keyOf(res.json().mediaLink), 600);
    const viaLink = await ta.call('GET', pathOf(signed));
    expect([viaLink.statusCode, viaLink.rawPayload.equals(png)]).toEqual([200, true]);
    expect((await ta.call('GET', pathOf(signed.replace(/sig=./, 'sig=0')))).statusCode).toBe(403);
  });

  it('refuses another workspace\'s file exactly like an unknown one, to read or to import', async () => {
    const theirs = (await upload('/import-history/upload', stranger, { fileName: 'theirs.csv', mimeType: 'text/csv', content: 'phone\n+14155550141\n' })).json().fileUrl as string;
    const unknown = `http://parley.test/files/${admin.workspaceId}/imports/${randomUUID()}/none.csv`;
    const readTheirs = await ta.call('GET', pathOf(theirs), { token: admin.token });
    const readUnknown = await ta.call('GET', pathOf(unknown), { token: admin.token });
    expect([readTheirs.statusCode, readTheirs.json()]).toEqual([404, readUnknown.json()]);
    const importOf = (fileUrl: string) =>
      ta.call('POST', '/import-history', {
        token: admin.token,
        body: { fileName: 'x.csv', fileUrl, workspaceId: admin.workspaceId, columnAttributeMap: [{ columnName: 'phone', attribute: 'phoneNumber' }] },
      });
    const importTheirs = await importOf(theirs);
    expect([importTheirs.statusCode, importTheirs.json().message]).toEqual([400, 'fileUrl must be the fileUrl answered by POST /import-history/upload in this workspace']);
    expect((await importOf(unknown)).json()).toEqual(importTheirs.json());
  });

  it('refuses a file over the route\'s limit with 413 and the limit in words, keeping nothing in the bucket', async () => {
    const bot = (await ta.call('POST', '/bot', { token: admin.token, body: { workspaceId: admin.workspaceId } })).json();
    const before = await bucket.keys(`${admin.workspaceId}/bot-media/`);
    const res = await upload(`/bot/${bot.id}/uploadMedia`, admin, { fileName: 'big.mp4', mimeType: 'video/mp4', content: Buffer.alloc(16 * 1024 * 1024 + 10, 1) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ statusCode: 413, error: 'Payload Too Large', message: 'The file is larger than the limit of 16 MB' });
    expect(await bucket.keys(`${admin.workspaceId}/bot-media/`)).toEqual(before);
  });

  it('imports a CSV read from the bucket, and keeps its report of rejected rows there too', async () => {
    const csv = 'phone,name\n+14155550111,Grace\nnot a phone,Bad\n';
    const fileUrl = (await upload('/import-history/upload', admin, { fileName: 'list.csv', mimeType: 'text/csv', content: csv })).json().fileUrl as string;
    const created = await ta.call('POST', '/import-history', {
      token: admin.token,
      body: {
        fileName: 'list.csv',
        fileUrl,
        workspaceId: admin.workspaceId,
        columnAttributeMap: [
          { columnName: 'phone', attribute: 'phoneNumber' },
          { columnName: 'name', attribute: 'name' },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    await ta.app.parley.jobs.drain({ timeoutMs: 60_000 });
    const [row] = await ta.db.select().from(t.importHistories).where(eq(t.importHistories.id, created.json().id));
    expect([row.status, row.processedRows, row.rejectedCount]).toEqual(['completed', 2, 1]);
    const [grace] = await ta.db.select().from(t.contacts).where(and(eq(t.contacts.workspaceId, admin.workspaceId), eq(t.contacts.phoneNumber, '+14155550111')));
    expect(grace?.name).toBe('Grace');
    expect(await bucket.keys(`${admin.workspaceId}/import-reports/`)).toEqual([row.errorReportKey]);
    expect(onDisk(admin.workspaceId)).toBe(false);
  });
});
