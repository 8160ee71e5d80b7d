/**
 * The file store as a unit (the `files` part of the mutation score, seconds per mutant): keys, safe
 * names, sizes, signed links and the one check of every file reference a request carries, here on the disk store
 * (the same cases on the S3 store: s3-file-store.test.ts). The same rules through the HTTP routes are in
 * storage.test.ts and file-references.test.ts.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../src/server/errors';
import { createFileStore, fileAreas, formatBytes, parseKey, safeFileName, tooLarge, type FileStore } from '../../src/server/storage/file-store';
import { fileStoreCases } from '../support/file-store-cases';

const wsA = randomUUID();
let dataDir: string;
let store: FileStore;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-file-store-'));
  store = createFileStore({ dataDir, publicUrl: 'http://parley.test/', secret: 'test-secret' });
});
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Where the disk store keeps a key's file. */
const diskPath = (key: string) => path.join(dataDir, 'files', ...key.split('/'));

/**
 * Runs `work` under umask 000, so a mode the store does not set itself would show as 0666. In a worker thread (the
 * mutation runner's pool) the umask cannot be changed: the process's own (022 as a rule) then shows it as 0644.
 */
async function withoutUmask<T>(work: () => Promise<T> | T): Promise<T> {
  let previous: number | undefined;
  try {
    previous = process.umask(0);
  } catch {
    previous = undefined;
  }
  try {
    return await work();
  } finally {
    if (previous !== undefined) process.umask(previous);
  }
}
const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('parseKey', () => {
  const u = '0a1b2c3d-0000-4000-8000-00000000abcd';
  it('reads workspace, area and file name of a well-formed key of every area', () => {
    for (const area of fileAreas) {
      expect(parseKey(`${wsA}/${area}/${u}/photo.png`)).toEqual({ workspaceId: wsA, area, fileName: 'photo.png' });
    }
    expect(parseKey(`${wsA}/imports/${u}/${'a'.repeat(120)}`)?.fileName).toHaveLength(120);
  });

  it('refuses anything else: other areas, bad ids, traversal, hidden or long names, extra parts', () => {
    for (const key of [
      `${wsA}/secrets/${u}/a.png`,
      `not-a-uuid/imports/${u}/a.png`,
      `${wsA}/imports/not-a-uuid/a.png`,
      `${wsA}/imports/${u}/a..png`,
      `${wsA}/imports/${u}/..`,
      `${wsA}/imports/${u}/.hidden`,
      `${wsA}/imports/${u}/-dash`,
      `${wsA}/imports/${u}/${'a'.repeat(121)}`,
      `${wsA}/imports/${u}/a b.png`,
      `${wsA}/imports/${u}/a.png/x`,
      `x${wsA}/imports/${u}/a.png`,
      `${wsA}/imports/${u}/a.png\nx`,
      `${wsA.toUpperCase()}/imports/${u}/a.png`,
      `${wsA}/imports/${u}/`,
      '',
    ]) {
      expect(parseKey(key), JSON.stringify(key)).toBeNull();
    }
  });
});

describe('safeFileName', () => {
  it('keeps a plain name and its extension', () => {
    expect(safeFileName('contacts-2026_11.csv')).toBe('contacts-2026_11.csv');
  });
  it('drops folders, either slash', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('C:\\Users\\ada\\photo.png')).toBe('photo.png');
  });
  it('replaces runs of other characters with one underscore, accents decomposed', () => {
    expect(safeFileName('my photo (1).png')).toBe('my_photo_1_.png');
    expect(safeFileName('café.png')).toBe('cafe_.png');
    expect(safeFileName('ﬁle.txt')).toBe('file.txt');
  });
  it('collapses dot runs and strips leading dots, dashes and underscores', () => {
    expect(safeFileName('a...b..csv')).toBe('a.b.csv');
    expect(safeFileName('.env')).toBe('env');
    expect(safeFileName('-_.x.csv')).toBe('x.csv');
  });
  it('keeps the last 120 characters, and names an empty result "file"', () => {
    const long = `${'b'.repeat(200)}.csv`;
    expect(safeFileName(long)).toBe(long.slice(-120));
    expect(safeFileName('')).toBe('file');
    expect(safeFileName('...')).toBe('file');
    expect(safeFileName('日本')).toBe('file');
  });
});

describe('formatBytes and tooLarge', () => {
  it('answers KB rounded up below a megabyte, MB to one decimal from a megabyte', () => {
    expect(formatBytes(0)).toBe('0 KB');
    expect(formatBytes(1)).toBe('1 KB');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1025)).toBe('2 KB');
    expect(formatBytes(1024 * 1024 - 1)).toBe('1024 KB');
    expect(formatBytes(1024 * 1024)).toBe('1 MB');
    expect(formatBytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
    expect(formatBytes(16 * 1024 * 1024 + 200_000)).toBe('16.2 MB');
  });
  it('refuses with 413 and the limit in words', () => {
    const e = tooLarge(5 * 1024 * 1024);
    expect(e).toBeInstanceOf(HttpError);
    expect([e.statusCode, e.message]).toEqual([413, 'The file is larger than the limit of 5 MB']);
  });
});

describe('the disk store', () => {
  fileStoreCases(() => ({
    store,
    kept: async (ws, area) => {
      const dir = path.join(dataDir, 'files', ws, area);
      return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String).sort() : [];
    },
  }));

  it('keeps each file in its own folder under PARLEY_DATA_DIR/files, its name and type beside it, no partial file left', async () => {
    const saved = await store.put({ workspaceId: wsA, area: 'imports', fileName: 'my list.csv', mimeType: 'text/csv', data: Buffer.from('name,phone\n') });
    expect(fs.readFileSync(diskPath(saved.key), 'utf8')).toBe('name,phone\n');
    expect(fs.readdirSync(path.dirname(diskPath(saved.key))).sort()).toEqual(['my_list.csv', 'my_list.csv.meta.json']);
    expect(await store.withLocalCopy(saved.key, async (p) => p)).toBe(diskPath(saved.key));
    await store.remove(saved.key);
    expect(fs.existsSync(path.dirname(diskPath(saved.key)))).toBe(false);
  });

  it('keeps a stored file readable by the server\'s own OS user only (0600), its name and type too, whatever the umask', async () => {
    const saved = await withoutUmask(() => store.put({ workspaceId: wsA, area: 'imports', fileName: 'private.csv', mimeType: 'text/csv', data: Buffer.from('name,phone\n') }));
    expect(modeOf(diskPath(saved.key))).toBe(0o600);
    expect(modeOf(`${diskPath(saved.key)}.meta.json`)).toBe(0o600);
  });

  it('knows nothing of a file whose content is gone', async () => {
    const saved = await store.put({ workspaceId: wsA, area: 'imports', fileName: 'gone.csv', mimeType: 'text/csv', data: Buffer.from('x') });
    fs.rmSync(diskPath(saved.key));
    expect(await store.stat(saved.key)).toBeNull();
  });

  it('a link signed with the store\'s own kept secret still verifies after a restart; another secret refuses it', async () => {
    const key = `${wsA}/bot-media/${randomUUID()}/pic.png`;
    const partsOf = (url: string) => {
      const u = new URL(url);
      return { expires: u.searchParams.get('expires') ?? undefined, sig: u.searchParams.get('sig') ?? undefined };
    };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-file-store-'));
    try {
      const first = await withoutUmask(() => createFileStore({ dataDir: dir, publicUrl: 'http://parley.test' }));
      expect(fs.readFileSync(path.join(dir, 'files', '.signing-key'), 'utf8')).toMatch(/^[0-9a-f]{64}$/);
      // the kept secret is readable by the server's own OS user only
      expect(modeOf(path.join(dir, 'files', '.signing-key'))).toBe(0o600);
      const link = partsOf(first.signedUrl(key, 600));
      const again = createFileStore({ dataDir: dir, publicUrl: 'http://parley.test' });
      expect(again.verifySignature(key, link.expires, link.sig)).toBe(true);
      expect(store.verifySignature(key, link.expires, link.sig)).toBe(false);
      const sameSecret = createFileStore({ dataDir: dir, publicUrl: 'http://parley.test', secret: 'test-secret' });
      const ours = partsOf(store.signedUrl(key, 600));
      expect(sameSecret.verifySignature(key, ours.expires, ours.sig)).toBe(true);
      expect(first.verifySignature(key, ours.expires, ours.sig)).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the keys of its own URLs with a public URL at the root, written with a trailing slash', async () => {
    const key = `${wsA}/imports/${randomUUID()}/list.csv`;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-file-store-'));
    try {
      const root = createFileStore({ dataDir: dir, publicUrl: 'http://parley.test/', secret: 'test-secret' });
      expect(root.url(key)).toBe(`http://parley.test/files/${key}`);
      expect(root.keyFromUrl(root.url(key))).toBe(key);
      expect(root.keyFromUrl(`http://parley.test/files/${key}?expires=1&sig=x`)).toBe(key);
      expect(root.keyFromUrl(`http://parley.test/x/files/${key}`)).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('honours a public URL with a path', () => {
    const key = `${wsA}/imports/${randomUUID()}/list.csv`;
    const under = createFileStore({ dataDir, publicUrl: 'https://example.com/parley//', secret: 's' });
    expect(under.url(key)).toBe(`https://example.com/parley/files/${key}`);
    expect(under.keyFromUrl(`https://example.com/parley/files/${key}`)).toBe(key);
    expect(under.keyFromUrl(`https://example.com/files/${key}`)).toBeNull();
    expect(under.keyFromUrl(`https://example.com/parleyfiles/${key}`)).toBeNull();
    expect(under.keyFromUrl(`/files/${key}`)).toBe(key);
  });
});
