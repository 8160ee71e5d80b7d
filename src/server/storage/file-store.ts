/**
 * The file store: uploads on local disk under PARLEY_DATA_DIR/files (or in an S3 bucket: s3-file-store.ts, over
 * the same core, `fileStoreOver`), addressed by keys of the form
 * `<workspaceId>/<area>/<uuid>/<file name>`. The workspace in the key is what the /files route checks
 * membership against, and what `createImport` checks a fileUrl against, so a key can never point outside
 * the store or into another workspace.
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HttpError, badRequest, notFound } from '../errors';

/** whatsapp-media: inbound customer media; template-media: template header samples (WhatsApp channel). */
export const fileAreas = ['bot-media', 'profile-photos', 'imports', 'import-reports', 'whatsapp-media', 'template-media'] as const;
export type FileArea = (typeof fileAreas)[number];

export interface PutInput {
  workspaceId: string;
  area: FileArea;
  fileName: string;
  mimeType: string;
  data: Buffer | Readable;
  /** Refuses (413) and removes the partial file once more than this many bytes arrive. */
  maxBytes?: number;
}
export interface StoredFile {
  key: string;
  url: string;
  size: number;
}
export interface FileMeta {
  mimeType: string;
  fileName: string;
  size: number;
}

/**
 * What a file reference of a request names once resolved: a file of the caller's own workspace in this store,
 * or an address elsewhere that is handed on as it is and never signed.
 */
export type FileReference = { kind: 'stored'; key: string; url: string } | { kind: 'external'; url: string };

export interface ResolveOptions {
  /** The caller's workspace: a stored file must belong to it. */
  workspaceId: string;
  /** The request field, named in the refusal. */
  field: string;
  /** Areas a stored file may come from (any area of the workspace when absent). */
  areas?: readonly FileArea[];
  /** Whether an http(s) address outside this store is accepted. */
  allowExternal?: boolean;
  /** The refusal for anything that is not an acceptable file (default: 404, as for an unknown file). */
  refusal?: HttpError;
}

export interface FileStore {
  put(input: PutInput): Promise<StoredFile>;
  /** The file's content; fails (as reading an unknown file does) when the key names nothing stored. */
  open(key: string): Promise<Readable>;
  /** Metadata of a stored file, or null when the key names nothing stored. */
  stat(key: string): Promise<FileMeta | null>;
  /** An expiring link anyone can fetch (for links handed to Meta). */
  signedUrl(key: string, ttlSeconds: number): string;
  url(key: string): string;
  /** The key a URL of this store names (public URL, or path), or null for anything else. */
  keyFromUrl(url: string): string | null;
  /**
   * The one check of every file reference a request carries (template header media, template mediaUrl, bot
   * media links, import fileUrl): an address of this store must name an existing file of `workspaceId` (another
   * workspace's file is refused exactly like an unknown one); anything else must be an external http(s) URL,
   * where the caller allows those.
   */
  resolveReference(value: string, opts: ResolveOptions): Promise<FileReference>;
  /** The link handed to Meta: a stored file as an expiring signed link, an external URL as it is. */
  publicLink(ref: FileReference, ttlSeconds: number): string;
  verifySignature(key: string, expires: string | undefined, sig: string | undefined): boolean;
  remove(key: string): Promise<void>;
  /**
   * Runs `work` with a path on this machine's disk holding the file (readers that need random access or a
   * worker thread, such as the import job): the file itself on disk, a temporary copy of a remote object that
   * is removed once `work` settles. When the key names nothing stored, the path names no file.
   */
  withLocalCopy<T>(key: string, work: (path: string) => Promise<T>): Promise<T>;
}

/** Where a store keeps the bytes; keys, links, signatures and reference checks are the same for every kind. */
export interface ObjectBackend {
  /** Stores the (size-limited) content under `key` with its metadata; nothing is left when `content` fails. */
  write(key: string, meta: { workspaceId: string; mimeType: string; fileName: string }, content: Readable): Promise<void>;
  read(key: string): Promise<Readable>;
  stat(key: string): Promise<FileMeta | null>;
  remove(key: string): Promise<void>;
  withLocalCopy<T>(key: string, work: (path: string) => Promise<T>): Promise<T>;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const KEY = new RegExp(`^(${UUID})/(${fileAreas.join('|')})/(${UUID})/([A-Za-z0-9][A-Za-z0-9._-]{0,119})$`);

export function parseKey(key: string): { workspaceId: string; area: FileArea; fileName: string } | null {
  const m = KEY.exec(key);
  if (!m || m[4].includes('..')) return null;
  return { workspaceId: m[1], area: m[2] as FileArea, fileName: m[4] };
}

/** A file name safe on every disk and in a URL, keeping the extension readable. */
export function safeFileName(name: string): string {
  const base = path.basename(name.replace(/\\/g, '/')).normalize('NFKD');
  const cleaned = base
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/^[._-]+/, '')
    .slice(-120);
  return cleaned || 'file';
}

export function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round((n / (1024 * 1024)) * 10) / 10} MB` : `${Math.ceil(n / 1024)} KB`;
}

export const tooLarge = (maxBytes: number) => new HttpError(413, `The file is larger than the limit of ${formatBytes(maxBytes)}`);

/** The content of an upload, refused (413) once more than `maxBytes` arrive or when its sender cut it. */
async function* sizeLimited(source: Readable, maxBytes: number | undefined, counted: { size: number }): AsyncGenerator<Buffer> {
  const max = maxBytes ?? Number.POSITIVE_INFINITY;
  for await (const chunk of source) {
    counted.size += (chunk as Buffer).length;
    if (counted.size > max) throw tooLarge(max);
    yield chunk as Buffer;
  }
  // @fastify/multipart cuts a file at its limit and marks it truncated instead of failing the stream.
  if ((source as Readable & { truncated?: boolean }).truncated) throw tooLarge(maxBytes ?? counted.size);
}

export interface FileLinkOptions {
  publicUrl: string;
  /** Secret the signed links derive from. */
  secret: string;
}

/**
 * A file store over a backend: keys, addresses, signed links and the reference check are the same whether
 * the bytes are on disk or in a bucket, so the tenancy rules are one code path.
 */
export function fileStoreOver(objects: ObjectBackend, opts: FileLinkOptions): FileStore {
  const signingKey = createHmac('sha256', 'parley-file-links').update(opts.secret).digest();
  const base = opts.publicUrl.replace(/\/+$/, '');
  const sign = (key: string, expires: string) => createHmac('sha256', signingKey).update(`${key}\n${expires}`).digest('base64url');
  const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');
  const baseUrl = new URL(base);
  const filesPrefix = `${baseUrl.pathname.replace(/\/+$/, '')}/files/`;
  /**
   * The encoded key part of an address of this store (`/files/...`, or any spelling of PUBLIC_URL's origin
   * followed by it, dot segments resolved), or null for an address elsewhere. Query and fragment are ignored.
   */
  const storePath = (value: string): string | null => {
    if (value.startsWith('/files/')) return value.slice('/files/'.length).split(/[?#]/)[0];
    let u: URL;
    try {
      u = new URL(value);
    } catch {
      return null;
    }
    if (u.origin !== baseUrl.origin || !u.pathname.startsWith(filesPrefix)) return null;
    return u.pathname.slice(filesPrefix.length);
  };
  const validKey = (key: string) => {
    if (!parseKey(key)) throw new Error('Invalid file key');
    return key;
  };

  const store: FileStore = {
    async put(input) {
      const key = validKey(`${input.workspaceId}/${input.area}/${randomUUID()}/${safeFileName(input.fileName)}`);
      const counted = { size: 0 };
      const source = Buffer.isBuffer(input.data) ? Readable.from([input.data]) : input.data;
      const content = Readable.from(sizeLimited(source, input.maxBytes, counted), { objectMode: false });
      await objects.write(key, { workspaceId: input.workspaceId, mimeType: input.mimeType, fileName: input.fileName }, content);
      return { key, url: `${base}/files/${encodeKey(key)}`, size: counted.size };
    },
    open: async (key) => objects.read(validKey(key)),
    stat: async (key) => (parseKey(key) ? objects.stat(key) : null),
    signedUrl(key, ttlSeconds) {
      const expires = String(Math.floor(Date.now() / 1000) + Math.max(1, Math.floor(ttlSeconds)));
      return `${base}/files/${encodeKey(key)}?expires=${expires}&sig=${sign(key, expires)}`;
    },
    url: (key) => `${base}/files/${encodeKey(key)}`,
    keyFromUrl(url) {
      const p = storePath(url);
      if (p === null) return null;
      let key: string;
      try {
        key = p.split('/').map(decodeURIComponent).join('/');
      } catch {
        return null;
      }
      return parseKey(key) ? key : null;
    },
    async resolveReference(value, opts) {
      const refusal = opts.refusal ?? notFound(`${opts.field}: no file of this workspace has this address`);
      if (storePath(value) !== null) {
        const key = store.keyFromUrl(value);
        const parsed = key ? parseKey(key) : null;
        if (!key || !parsed || parsed.workspaceId !== opts.workspaceId) throw refusal;
        if (opts.areas && !opts.areas.includes(parsed.area)) throw refusal;
        if (!(await store.stat(key))) throw refusal;
        return { kind: 'stored', key, url: store.url(key) };
      }
      if (!opts.allowExternal) throw refusal;
      let parsedUrl: URL;
      try {
        parsedUrl = new URL(value);
      } catch {
        throw badRequest(`${opts.field} must be a file uploaded to this workspace or an http(s) address`);
      }
      if (parsedUrl.protocol !== 'https:' && parsedUrl.protocol !== 'http:') {
        throw badRequest(`${opts.field} must be a file uploaded to this workspace or an http(s) address`);
      }
      return { kind: 'external', url: value };
    },
    publicLink(ref, ttlSeconds) {
      return ref.kind === 'stored' ? store.signedUrl(ref.key, ttlSeconds) : ref.url;
    },
    verifySignature(key, expires, sig) {
      if (!expires || !sig || !/^\d{1,12}$/.test(expires)) return false;
      if (Number(expires) * 1000 < Date.now()) return false;
      const want = Buffer.from(sign(key, expires));
      const got = Buffer.from(sig);
      return want.length === got.length && timingSafeEqual(want, got);
    },
    remove: async (key) => (parseKey(key) ? objects.remove(key) : undefined),
    withLocalCopy: async (key, work) => objects.withLocalCopy(validKey(key), work),
  };
  return store;
}

export interface FileStoreOptions {
  /** PARLEY_DATA_DIR; files live under its `files` folder. */
  dataDir: string;
  publicUrl: string;
  /** Secret the signed links derive from; absent means a random key kept in the store's folder. */
  secret?: string;
}

/** The store on local disk: each file in its own folder, beside it its name and type in a `.meta.json`. */
export function createFileStore(opts: FileStoreOptions): FileStore {
  const root = path.resolve(opts.dataDir, 'files');
  fs.mkdirSync(root, { recursive: true });
  const pathOf = (key: string) => path.join(root, ...key.split('/'));
  const metaPath = (key: string) => `${pathOf(key)}.meta.json`;
  const disk: ObjectBackend = {
    async write(key, meta, content) {
      const file = pathOf(key);
      await fsp.mkdir(path.dirname(file), { recursive: true });
      const partial = `${file}.part`;
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          done(null, chunk);
        },
      });
      try {
        // Streamed to disk: a 200 MB upload never sits in memory.
        await pipeline(content, counter, fs.createWriteStream(partial, { mode: 0o600 }));
        // The customer's file name and type: as private as the file.
        await fsp.writeFile(metaPath(key), JSON.stringify({ mimeType: meta.mimeType, fileName: meta.fileName, size }), { mode: 0o600 });
        await fsp.rename(partial, file);
      } catch (err) {
        await fsp.rm(path.dirname(file), { recursive: true, force: true });
        throw err;
      }
    },
    read: async (key) => fs.createReadStream(pathOf(key)),
    async stat(key) {
      try {
        const meta = JSON.parse(await fsp.readFile(metaPath(key), 'utf8')) as FileMeta;
        await fsp.access(pathOf(key));
        return meta;
      } catch {
        return null;
      }
    },
    async remove(key) {
      await fsp.rm(path.dirname(pathOf(key)), { recursive: true, force: true });
    },
    withLocalCopy: (key, work) => work(pathOf(key)),
  };
  return fileStoreOver(disk, { publicUrl: opts.publicUrl, secret: opts.secret ?? localSecret(root) });
}

/** A random signing secret kept beside the files, so signed links survive a restart. */
function localSecret(root: string): string {
  const file = path.join(root, '.signing-key');
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    const secret = randomBytes(32).toString('hex');
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}
