/**
 * The file store as a unit (the `files` part of the mutation score, seconds per mutant): keys, safe
 * names, sizes, signed links and the one check of every file reference a request carries. The same rules through
 * the HTTP routes are in storage.test.ts and file-references.test.ts.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../src/server/errors';
import { createFileStore, fileAreas, formatBytes, parseKey, safeFileName, tooLarge, type FileStore } from '../../src/server/storage/file-store';

const wsA = randomUUID();
const wsB = randomUUID();
let dataDir: string;
let store: FileStore;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-file-store-'));
  store = createFileStore({ dataDir, publicUrl: 'http://parley.test/', secret: 'test-secret' });
});
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});
afterEach(() => {
  vi.useRealTimers();
});

async function refusal(p: Promise<unknown>): Promise<{ statusCode: number; message: string }> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(HttpError);
    return { statusCode: (e as HttpError).statusCode, message: (e as Error).message };
  }
  throw new Error('expected a refusal');
}

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

const readAll = async (r: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of r) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

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

describe('put, stat, open, remove', () => {
  it('stores a file under a key of its workspace and area, with a URL and its size', async () => {
    const saved = await store.put({ workspaceId: wsA, area: 'imports', fileName: 'my list.csv', mimeType: 'text/csv', data: Buffer.from('name,phone\n') });
    expect(parseKey(saved.key)).toEqual({ workspaceId: wsA, area: 'imports', fileName: 'my_list.csv' });
    expect(saved.url).toBe(`http://parley.test/files/${saved.key}`);
    expect(saved.size).toBe(11);
    expect(await store.stat(saved.key)).toEqual({ mimeType: 'text/csv', fileName: 'my list.csv', size: 11 });
    expect(await readAll(store.open(saved.key))).toBe('name,phone\n');
    expect(store.pathOf(saved.key)).toBe(path.join(dataDir, 'files', ...saved.key.split('/')));
    // no partial file left behind
    expect(fs.readdirSync(path.dirname(store.pathOf(saved.key))).sort()).toEqual(['my_list.csv', 'my_list.csv.meta.json']);
    await store.remove(saved.key);
    expect(await store.stat(saved.key)).toBeNull();
    expect(fs.existsSync(path.dirname(store.pathOf(saved.key)))).toBe(false);
  });

  it('streams a file in chunks and counts every byte; a file at the limit is kept', async () => {
    const saved = await store.put({ workspaceId: wsA, area: 'bot-media', fileName: 'a.bin', mimeType: 'application/octet-stream', data: Readable.from([Buffer.alloc(600), Buffer.alloc(400)]), maxBytes: 1000 });
    expect(saved.size).toBe(1000);
    expect((await store.stat(saved.key))?.size).toBe(1000);
  });

  it('refuses a file over the limit with 413 and leaves nothing on disk', async () => {
    const before = fs.readdirSync(path.join(dataDir, 'files', wsA, 'bot-media'));
    const r = await refusal(store.put({ workspaceId: wsA, area: 'bot-media', fileName: 'big.bin', mimeType: 'application/octet-stream', data: Readable.from([Buffer.alloc(600), Buffer.alloc(401)]), maxBytes: 1000 }));
    expect(r).toEqual({ statusCode: 413, message: 'The file is larger than the limit of 1 KB' });
    expect(fs.readdirSync(path.join(dataDir, 'files', wsA, 'bot-media'))).toEqual(before);
  });

  it('refuses a stream its sender cut at the limit (truncated), naming the limit, and leaves nothing', async () => {
    const before = fs.readdirSync(path.join(dataDir, 'files', wsA, 'imports'));
    const cut = Object.assign(Readable.from([Buffer.alloc(10)]), { truncated: true });
    expect(await refusal(store.put({ workspaceId: wsA, area: 'imports', fileName: 'cut.csv', mimeType: 'text/csv', data: cut, maxBytes: 2 * 1024 * 1024 }))).toEqual({
      statusCode: 413,
      message: 'The file is larger than the limit of 2 MB',
    });
    const cut2 = Object.assign(Readable.from([Buffer.alloc(3000)]), { truncated: true });
    expect((await refusal(store.put({ workspaceId: wsA, area: 'imports', fileName: 'cut.csv', mimeType: 'text/csv', data: cut2 }))).message).toBe(
      'The file is larger than the limit of 3 KB',
    );
    expect(fs.readdirSync(path.join(dataDir, 'files', wsA, 'imports'))).toEqual(before);
  });

  it('keeps a stored file readable by the server\'s own OS user only (0600), its name and type too, whatever the umask', async () => {
    const saved = await withoutUmask(() => store.put({ workspaceId: wsA, area: 'imports', fileName: 'private.csv', mimeType: 'text/csv', data: Buffer.from('name,phone\n') }));
    expect(modeOf(store.pathOf(saved.key))).toBe(0o600);
    expect(modeOf(`${store.pathOf(saved.key)}.meta.json`)).toBe(0o600);
  });

  it('removing a file that is not there (any more) is not an error', async () => {
    const saved = await store.put({ workspaceId: wsA, area: 'imports', fileName: 'twice.csv', mimeType: 'text/csv', data: Buffer.from('x') });
    await store.remove(saved.key);
    await expect(store.remove(saved.key)).resolves.toBeUndefined();
    await expect(store.remove(`${wsA}/imports/${randomUUID()}/never.csv`)).resolves.toBeUndefined();
  });

  it('refuses to store under a workspace that is not an id', async () => {
    await expect(store.put({ workspaceId: '../x', area: 'imports', fileName: 'a.csv', mimeType: 'text/csv', data: Buffer.from('x') })).rejects.toThrow('Invalid file key');
    expect(() => store.pathOf('../../etc/passwd')).toThrow('Invalid file key');
    expect(() => store.open('../../etc/passwd')).toThrow('Invalid file key');
  });

  it('knows nothing of a malformed key, an unknown key, or a file whose content is gone', async () => {
    expect(await store.stat('../../etc/passwd')).toBeNull();
    expect(await store.stat(`${wsA}/imports/${randomUUID()}/a.csv`)).toBeNull();
    const saved = await store.put({ workspaceId: wsA, area: 'imports', fileName: 'gone.csv', mimeType: 'text/csv', data: Buffer.from('x') });
    fs.rmSync(store.pathOf(saved.key));
    expect(await store.stat(saved.key)).toBeNull();
    await expect(store.remove('../../etc')).resolves.toBeUndefined();
  });
});

describe('signed links', () => {
  let key = '';
  beforeAll(async () => {
    key = (await store.put({ workspaceId: wsA, area: 'bot-media', fileName: 'pic.png', mimeType: 'image/png', data: Buffer.from('png') })).key;
  });

  const partsOf = (url: string) => {
    const u = new URL(url);
    return { path: u.pathname, expires: u.searchParams.get('expires') ?? undefined, sig: u.searchParams.get('sig') ?? undefined };
  };

  it('signs a link that expires after the given seconds, and verifies it until then', () => {
    vi.useFakeTimers({ now: new Date('2026-11-25T12:00:00.500Z'), toFake: ['Date'] });
    const link = partsOf(store.signedUrl(key, 600));
    expect(link.path).toBe(`/files/${key}`);
    expect(link.expires).toBe(String(Date.parse('2026-11-25T12:10:00Z') / 1000));
    expect(link.sig).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(store.verifySignature(key, link.expires, link.sig)).toBe(true);
    vi.setSystemTime(new Date('2026-11-25T12:10:00.000Z'));
    expect(store.verifySignature(key, link.expires, link.sig)).toBe(true);
    vi.setSystemTime(new Date('2026-11-25T12:10:00.001Z'));
    expect(store.verifySignature(key, link.expires, link.sig)).toBe(false);
  });

  it('gives at least one second, whole seconds only', () => {
    vi.useFakeTimers({ now: new Date('2026-11-25T12:00:00Z'), toFake: ['Date'] });
    const now = Date.parse('2026-11-25T12:00:00Z') / 1000;
    expect(partsOf(store.signedUrl(key, 0)).expires).toBe(String(now + 1));
    expect(partsOf(store.signedUrl(key, 0.4)).expires).toBe(String(now + 1));
    expect(partsOf(store.signedUrl(key, 90.9)).expires).toBe(String(now + 90));
  });

  it('refuses another key, a changed expiry, a changed or missing signature, and a malformed expiry', () => {
    const link = partsOf(store.signedUrl(key, 600));
    const other = `${wsA}/bot-media/${randomUUID()}/pic.png`;
    expect(store.verifySignature(other, link.expires, link.sig)).toBe(false);
    expect(store.verifySignature(key, String(Number(link.expires) + 1), link.sig)).toBe(false);
    expect(store.verifySignature(key, link.expires, `${link.sig!.slice(0, -1)}${link.sig!.endsWith('A') ? 'B' : 'A'}`)).toBe(false);
    expect(store.verifySignature(key, link.expires, link.sig!.slice(0, -1))).toBe(false);
    expect(store.verifySignature(key, link.expires, undefined)).toBe(false);
    expect(store.verifySignature(key, undefined, link.sig)).toBe(false);
    expect(store.verifySignature(key, '', link.sig)).toBe(false);
    expect(store.verifySignature(key, `${link.expires}x`, link.sig)).toBe(false);
    expect(store.verifySignature(key, ` ${link.expires}`, link.sig)).toBe(false);
    expect(store.verifySignature(key, '9'.repeat(13), link.sig)).toBe(false);
  });

  it('a link signed with the store\'s own kept secret still verifies after a restart; another secret refuses it', async () => {
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

  it('publicLink signs a stored file and hands an external address on as it is', () => {
    const signed = store.publicLink({ kind: 'stored', key, url: store.url(key) }, 300);
    const link = partsOf(signed);
    expect(store.verifySignature(key, link.expires, link.sig)).toBe(true);
    expect(signed.startsWith(`http://parley.test/files/${key}?expires=`)).toBe(true);
    expect(store.publicLink({ kind: 'external', url: 'https://cdn.example.com/a.png' }, 300)).toBe('https://cdn.example.com/a.png');
  });
});

describe('keyFromUrl', () => {
  const key = `${wsA}/imports/${randomUUID()}/list.csv`;
  it('reads the key from the public URL, a /files/ path, with any query or fragment', () => {
    expect(store.keyFromUrl(`http://parley.test/files/${key}`)).toBe(key);
    expect(store.keyFromUrl(`http://PARLEY.test:80/files/${key}?expires=1&sig=x`)).toBe(key);
    expect(store.keyFromUrl(`http://parley.test/other/../files/${key}#top`)).toBe(key);
    expect(store.keyFromUrl(`/files/${key}`)).toBe(key);
    expect(store.keyFromUrl(`/files/${key}?sig=1`)).toBe(key);
    expect(store.keyFromUrl(`/files/${key}#x`)).toBe(key);
    expect(store.keyFromUrl(`http://parley.test/files/${key.replace('list', '%6Cist')}`)).toBe(key);
  });
  it('answers null for another origin, another path, a malformed escape or key, and what is not an address', () => {
    for (const url of [
      `https://parley.test/files/${key}`,
      `http://parley.test:8080/files/${key}`,
      `http://evil.test/files/${key}`,
      `http://parley.test/file/${key}`,
      `http://parley.test/x/files/${key}`,
      `files/${key}`,
      `/files/${key}/extra`,
      `http://parley.test/files/${key.replace('list', '%E0%A4%A')}`,
      `http://parley.test/files/${key.replace('list.csv', '..%2F..%2Fx')}`,
      'not a url',
      '',
    ]) {
      expect(store.keyFromUrl(url), url).toBeNull();
    }
  });
  it('reads the keys of its own URLs with a public URL at the root, written with a trailing slash', async () => {
    // a store made inside the test (the file's shared store is made in beforeAll)
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
    const under = createFileStore({ dataDir, publicUrl: 'https://example.com/parley//', secret: 's' });
    expect(under.url(key)).toBe(`https://example.com/parley/files/${key}`);
    expect(under.keyFromUrl(`https://example.com/parley/files/${key}`)).toBe(key);
    expect(under.keyFromUrl(`https://example.com/files/${key}`)).toBeNull();
    expect(under.keyFromUrl(`https://example.com/parleyfiles/${key}`)).toBeNull();
    expect(under.keyFromUrl(`/files/${key}`)).toBe(key);
  });
});

describe('resolveReference: the one check of every file reference', () => {
  let own = '';
  let ownImport = '';
  let theirs = '';
  beforeAll(async () => {
    own = (await store.put({ workspaceId: wsA, area: 'bot-media', fileName: 'own.png', mimeType: 'image/png', data: Buffer.from('a') })).key;
    ownImport = (await store.put({ workspaceId: wsA, area: 'imports', fileName: 'own.csv', mimeType: 'text/csv', data: Buffer.from('a') })).key;
    theirs = (await store.put({ workspaceId: wsB, area: 'bot-media', fileName: 'theirs.png', mimeType: 'image/png', data: Buffer.from('b') })).key;
  });
  const unknown = { statusCode: 404, message: 'mediaUrl: no file of this workspace has this address' };

  it('resolves a file of the caller\'s workspace, in any spelling of its address, to its key and URL', async () => {
    for (const value of [store.url(own), `/files/${own}`, store.signedUrl(own, 60)]) {
      expect(await store.resolveReference(value, { workspaceId: wsA, field: 'mediaUrl' })).toEqual({ kind: 'stored', key: own, url: `http://parley.test/files/${own}` });
    }
  });

  it('refuses another workspace\'s file exactly like an unknown one, external addresses allowed or not', async () => {
    for (const allowExternal of [false, true]) {
      expect(await refusal(store.resolveReference(store.url(theirs), { workspaceId: wsA, field: 'mediaUrl', allowExternal }))).toEqual(unknown);
      expect(await refusal(store.resolveReference(store.url(`${wsA}/bot-media/${randomUUID()}/none.png`), { workspaceId: wsA, field: 'mediaUrl', allowExternal }))).toEqual(unknown);
      expect(await refusal(store.resolveReference(`http://parley.test/files/${wsA}/bot-media/junk`, { workspaceId: wsA, field: 'mediaUrl', allowExternal }))).toEqual(unknown);
    }
  });

  it('refuses a file of another area when the areas are named', async () => {
    const opts = { workspaceId: wsA, field: 'fileUrl', areas: ['imports'] as const };
    expect(await store.resolveReference(store.url(ownImport), opts)).toMatchObject({ kind: 'stored', key: ownImport });
    expect(await refusal(store.resolveReference(store.url(own), opts))).toEqual({ statusCode: 404, message: 'fileUrl: no file of this workspace has this address' });
  });

  it('answers with the caller\'s own refusal when one is given', async () => {
    const mine = new HttpError(400, 'fileUrl must be an upload');
    expect(await refusal(store.resolveReference(store.url(theirs), { workspaceId: wsA, field: 'fileUrl', refusal: mine }))).toEqual({ statusCode: 400, message: 'fileUrl must be an upload' });
    expect(await refusal(store.resolveReference('https://cdn.example.com/a.png', { workspaceId: wsA, field: 'fileUrl', refusal: mine }))).toEqual({
      statusCode: 400,
      message: 'fileUrl must be an upload',
    });
  });

  it('refuses an address elsewhere unless external addresses are allowed, and then only http(s)', async () => {
    expect(await refusal(store.resolveReference('https://cdn.example.com/a.png', { workspaceId: wsA, field: 'mediaUrl' }))).toEqual(unknown);
    const ext = { workspaceId: wsA, field: 'mediaUrl', allowExternal: true };
    expect(await store.resolveReference('https://cdn.example.com/a.png', ext)).toEqual({ kind: 'external', url: 'https://cdn.example.com/a.png' });
    expect(await store.resolveReference('http://cdn.example.com/a.png', ext)).toEqual({ kind: 'external', url: 'http://cdn.example.com/a.png' });
    const bad = { statusCode: 400, message: 'mediaUrl must be a file uploaded to this workspace or an http(s) address' };
    for (const value of ['ftp://cdn.example.com/a.png', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url', '']) {
      expect(await refusal(store.resolveReference(value, ext)), value).toEqual(bad);
    }
  });
});
