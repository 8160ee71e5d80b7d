/**
 * The S3 file store against a local S3-compatible server (s3rver): the same cases as the disk store
 * (tests/support/file-store-cases.ts), then what is particular to a bucket: metadata kept on the object, large files
 * sent in parts, the signing secret kept in the bucket.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileStore } from '../../src/server/storage/file-store';
import { createS3FileStore } from '../../src/server/storage/s3-file-store';
import { fileStoreCases, readAll, refusal } from '../support/file-store-cases';
import { startTestBucket, type TestBucket } from '../support/s3';

let bucket: TestBucket;
let store: FileStore;
const closers: (() => void)[] = [];

beforeAll(async () => {
  bucket = await startTestBucket();
  const s3 = await createS3FileStore({ s3: bucket.s3, publicUrl: 'http://parley.test/', secret: 'test-secret' });
  closers.push(s3.close);
  store = s3.store;
});
afterAll(async () => {
  for (const close of closers) close();
  await bucket?.close();
});

describe('the S3 store', () => {
  fileStoreCases(() => ({ store, kept: (ws, area) => bucket.keys(`${ws}/${area}/`) }));

  const ws = randomUUID();
  const MiB = 1024 * 1024;
  const chunksOf = (total: number, size = MiB) => Readable.from(Array.from({ length: Math.ceil(total / size) }, (_, i) => Buffer.alloc(Math.min(size, total - i * size), 97 + (i % 26))));

  it('keeps the file\'s type, name and workspace as the object\'s own metadata, under the file\'s key', async () => {
    const saved = await store.put({ workspaceId: ws, area: 'imports', fileName: 'Liste été.csv', mimeType: 'text/csv', data: Buffer.from('phone\n') });
    expect(await bucket.keys(`${ws}/`)).toEqual([saved.key]);
    const head = await bucket.client.send(new HeadObjectCommand({ Bucket: bucket.s3.bucket, Key: saved.key }));
    expect([head.ContentType, head.ContentLength]).toEqual(['text/csv', 6]);
    expect(head.Metadata).toEqual({ 'workspace-id': ws, 'mime-type': 'text%2Fcsv', 'file-name': 'Liste%20%C3%A9t%C3%A9.csv' });
  });

  it('sends a file larger than one part in parts as it arrives, and reads it back whole', async () => {
    const saved = await store.put({ workspaceId: ws, area: 'whatsapp-media', fileName: 'video.mp4', mimeType: 'video/mp4', data: chunksOf(17 * MiB + 5), maxBytes: 20 * MiB });
    expect(saved.size).toBe(17 * MiB + 5);
    expect(await store.stat(saved.key)).toEqual({ mimeType: 'video/mp4', fileName: 'video.mp4', size: 17 * MiB + 5 });
    const body = await readAll(await store.open(saved.key));
    expect(body.length).toBe(17 * MiB + 5);
    expect([body[0], body[MiB], body[17 * MiB]]).toEqual(['a', 'b', 'r']);
  });

  it('refuses a file that passes the limit after parts were sent, and keeps no object of it', async () => {
    const before = await bucket.keys(`${ws}/bot-media/`);
    const r = await refusal(store.put({ workspaceId: ws, area: 'bot-media', fileName: 'big.bin', mimeType: 'application/octet-stream', data: chunksOf(12 * MiB), maxBytes: 10 * MiB }));
    expect(r).toEqual({ statusCode: 413, message: 'The file is larger than the limit of 10 MB' });
    expect(await bucket.keys(`${ws}/bot-media/`)).toEqual(before);
  });

  it('treats an object Parley did not store (no metadata) as no file', async () => {
    const key = `${ws}/imports/${randomUUID()}/foreign.csv`;
    await bucket.client.send(new PutObjectCommand({ Bucket: bucket.s3.bucket, Key: key, Body: 'x' }));
    expect(await store.stat(key)).toBeNull();
    expect(await refusal(store.resolveReference(store.url(key), { workspaceId: ws, field: 'fileUrl' }))).toMatchObject({ statusCode: 404 });
  });

  it('without SECRETS_KEY, keeps one signing secret in the bucket that every process sharing it signs with', async () => {
    const first = await createS3FileStore({ s3: bucket.s3, publicUrl: 'http://parley.test' });
    const second = await createS3FileStore({ s3: bucket.s3, publicUrl: 'http://parley.test' });
    closers.push(first.close, second.close);
    const key = `${ws}/bot-media/${randomUUID()}/pic.png`;
    const link = new URL(first.store.signedUrl(key, 600)).searchParams;
    expect(second.store.verifySignature(key, link.get('expires') ?? undefined, link.get('sig') ?? undefined)).toBe(true);
    expect(store.verifySignature(key, link.get('expires') ?? undefined, link.get('sig') ?? undefined)).toBe(false);
    expect(await bucket.keys('.parley/')).toEqual(['.parley/signing-key']);
  });
});
