/** A local S3-compatible server (s3rver) with one bucket, for the S3 file store's tests. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3Config } from '../../src/server/config';
import { s3ClientOf } from '../../src/server/storage/s3-file-store';

export interface TestBucket {
  s3: S3Config;
  client: S3Client;
  /** The keys of the bucket's objects under `prefix`. */
  keys(prefix?: string): Promise<string[]>;
  close(): Promise<void>;
}

export async function startTestBucket(bucket = 'parley-test'): Promise<TestBucket> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const { port } = await server.run();
  const s3: S3Config = {
    bucket,
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
  };
  const client = s3ClientOf(s3);
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    s3,
    client,
    async keys(prefix = '') {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      return (listed.Contents ?? []).map((o) => o.Key!).sort();
    },
    async close() {
      client.destroy();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
