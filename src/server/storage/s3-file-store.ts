/**
 * The file store in an S3-compatible bucket (S3_BUCKET): the same keys as on disk, used as object keys, with the
 * file's type, name and workspace kept as the object's own metadata (its size is the object's length). Members and
 * Meta still fetch files through Parley's /files route, which streams the object: membership checks and signed
 * links stay one code path, and the bucket stays private.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import type { S3Config } from '../config';
import { type FileMeta, type FileStore, type ObjectBackend, fileStoreOver } from './file-store';

/** Uploads are sent in parts of this size (S3's smallest is 5 MiB): at most one part per upload is in memory. */
const partBytes = 8 * 1024 * 1024;
/** Where the signing secret is kept when SECRETS_KEY is unset; not a file key (those start with a workspace id). */
const signingKeyObject = '.parley/signing-key';

export function s3ClientOf(s3: S3Config): S3Client {
  return new S3Client({
    region: s3.region,
    endpoint: s3.endpoint,
    forcePathStyle: s3.forcePathStyle,
    credentials: s3.credentials,
    // Checksums only where S3 requires them: not every S3-compatible server accepts the newer checksum headers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

const isMissing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
};

/** Metadata values travel as HTTP headers: ASCII only, so the customer's own text is percent-encoded. */
const encodeMeta = (meta: { workspaceId: string; mimeType: string; fileName: string }) => ({
  'workspace-id': meta.workspaceId,
  'mime-type': encodeURIComponent(meta.mimeType),
  'file-name': encodeURIComponent(meta.fileName),
});
/** A content type S3 can carry as a header; anything else stays in the metadata only. */
const headerContentType = (mimeType: string) => (/^[\w.+-]+\/[\w.+-]+(;[\w =.+"-]*)*$/.test(mimeType) ? mimeType : undefined);

function s3Objects(client: S3Client, bucket: string): ObjectBackend {
  const at = (key: string) => ({ Bucket: bucket, Key: key });

  /** Sends the parts of a larger file; the first `pending` bytes are already read. */
  async function multipart(key: string, meta: Record<string, string>, contentType: string | undefined, pending: Buffer, rest: AsyncIterator<Buffer>) {
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ ...at(key), Metadata: meta, ContentType: contentType }));
    const parts: CompletedPart[] = [];
    const send = async (body: Buffer) => {
      const { ETag } = await client.send(new UploadPartCommand({ ...at(key), UploadId, PartNumber: parts.length + 1, Body: body }));
      parts.push({ ETag, PartNumber: parts.length + 1 });
    };
    try {
      let buffered = [pending];
      let size = pending.length;
      for (let next = await rest.next(); !next.done; next = await rest.next()) {
        buffered.push(next.value);
        size += next.value.length;
        if (size >= partBytes) {
          await send(Buffer.concat(buffered));
          buffered = [];
          size = 0;
        }
      }
      if (size > 0) await send(Buffer.concat(buffered));
      await client.send(new CompleteMultipartUploadCommand({ ...at(key), UploadId, MultipartUpload: { Parts: parts } }));
    } catch (err) {
      // A refused or failed upload leaves no object and no parts billed in the bucket.
      await client.send(new AbortMultipartUploadCommand({ ...at(key), UploadId })).catch(() => undefined);
      throw err;
    }
  }

  return {
    async write(key, meta, content) {
      const metadata = encodeMeta(meta);
      const contentType = headerContentType(meta.mimeType);
      const chunks = content[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
      const first: Buffer[] = [];
      let size = 0;
      // A file smaller than one part is one PutObject; a larger one goes up in parts as it arrives.
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
        first.push(next.value);
        size += next.value.length;
        if (size >= partBytes) return multipart(key, metadata, contentType, Buffer.concat(first), chunks);
      }
      await client.send(new PutObjectCommand({ ...at(key), Body: Buffer.concat(first), ContentLength: size, Metadata: metadata, ContentType: contentType }));
    },
    async read(key) {
      const { Body } = await client.send(new GetObjectCommand(at(key)));
      return Body as Readable;
    },
    async stat(key): Promise<FileMeta | null> {
      try {
        const head = await client.send(new HeadObjectCommand(at(key)));
        const m = head.Metadata ?? {};
        // An object without Parley's metadata was not stored by Parley: it is not a file of any workspace.
        if (m['workspace-id'] === undefined || m['file-name'] === undefined || m['mime-type'] === undefined) return null;
        return { mimeType: decodeURIComponent(m['mime-type']), fileName: decodeURIComponent(m['file-name']), size: head.ContentLength ?? 0 };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand(at(key)));
    },
    async withLocalCopy(key, work) {
      const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'parley-file-'));
      const file = path.join(dir, path.basename(key));
      try {
        try {
          const { Body } = await client.send(new GetObjectCommand(at(key)));
          await pipeline(Body as Readable, fs.createWriteStream(file, { mode: 0o600 }));
        } catch (err) {
          if (!isMissing(err)) throw err;
        }
        return await work(file);
      } finally {
        await fsp.rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * The signing secret kept in the bucket, so every server process sharing it signs alike: created once (if no
 * other process created it first), then read back, so racing processes all adopt the one that was kept.
 */
async function keptSecret(client: S3Client, bucket: string): Promise<string> {
  const at = { Bucket: bucket, Key: signingKeyObject };
  try {
    await client.send(new HeadObjectCommand(at));
  } catch (err) {
    if (!isMissing(err)) throw err;
    await client.send(new PutObjectCommand({ ...at, Body: randomBytes(32).toString('hex'), IfNoneMatch: '*' })).catch((e: unknown) => {
      if ((e as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode !== 412) throw e;
    });
  }
  const { Body } = await client.send(new GetObjectCommand(at));
  return (await Body!.transformToString()).trim();
}

export interface S3FileStoreOptions {
  s3: S3Config;
  publicUrl: string;
  /** Secret the signed links derive from; absent means a random key kept in the bucket. */
  secret?: string;
}

/** The S3 store, and `close` to end the client's connections when the server stops. */
export async function createS3FileStore(opts: S3FileStoreOptions): Promise<{ store: FileStore; close: () => void }> {
  const client = s3ClientOf(opts.s3);
  const secret = opts.secret ?? (await keptSecret(client, opts.s3.bucket));
  return { store: fileStoreOver(s3Objects(client, opts.s3.bucket), { publicUrl: opts.publicUrl, secret }), close: () => client.destroy() };
}
