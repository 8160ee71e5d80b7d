/**
 * What every file store does, whatever keeps the bytes: keys, sizes and limits, signed links, and the one check
 * of every file reference. tests/server/file-store.test.ts runs these on the disk store, s3-file-store.test.ts on
 * the S3 store; each adds what is particular to its kind.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../src/server/errors';
import { type FileArea, type FileStore, parseKey } from '../../src/server/storage/file-store';

export interface StoreUnderTest {
  /** Made with publicUrl http://parley.test/ and secret 'test-secret'. */
  store: FileStore;
  /** What is kept (files, partial files, objects) for a workspace's area, to see that a refusal leaves nothing. */
  kept(workspaceId: string, area: FileArea): Promise<string[]>;
}

export async function refusal(p: Promise<unknown>): Promise<{ statusCode: number; message: string }> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(HttpError);
    return { statusCode: (e as HttpError).statusCode, message: (e as Error).message };
  }
  throw new Error('expected a refusal');
}

export const readAll = async (r: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of r) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

export function fileStoreCases(subject: () => StoreUnderTest): void {
  const wsA = randomUUID();
  const wsB = randomUUID();
  let store: FileStore;
  beforeAll(() => {
    store = subject().store;
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const kept = (ws: string, area: FileArea) => subject().kept(ws, area);

  describe('put, stat, open, remove', () => {
    it('stores a file under a key of its workspace and area, with a URL and its size', async () => {
      const saved = await store.put({ workspaceId: wsA, area: 'imports', fileName: 'my list.csv', mimeType: 'text/csv', data: Buffer.from('name,phone\n') });
      expect(parseKey(saved.key)).toEqual({ workspaceId: wsA, area: 'imports', fileName: 'my_list.csv' });
      expect(saved.url).toBe(`http://parley.test/files/${saved.key}`);
      expect(saved.size).toBe(11);
      expect(await store.stat(saved.key)).toEqual({ mimeType: 'text/csv', fileName: 'my list.csv', size: 11 });
      expect(await readAll(await store.open(saved.key))).toBe('name,phone\n');
      await store.remove(saved.key);
      expect(await store.stat(saved.key)).toBeNull();
    });

    it('keeps the customer\'s own file name and type as they were sent', async () => {
      const saved = await store.put({ workspaceId: wsA, area: 'whatsapp-media', fileName: 'Relevé n°3 (copie).pdf', mimeType: 'application/pdf', data: Buffer.from('%PDF') });
      expect(await store.stat(saved.key)).toEqual({ mimeType: 'application/pdf', fileName: 'Relevé n°3 (copie).pdf', size: 4 });
    });

    it('streams a file in chunks and counts every byte; a file at the limit is kept', async () => {
      const saved = await store.put({ workspaceId: wsA, area: 'bot-media', fileName: 'a.bin', mimeType: 'application/octet-stream', data: Readable.from([Buffer.alloc(600), Buffer.alloc(400)]), maxBytes: 1000 });
      expect(saved.size).toBe(1000);
      expect((await store.stat(saved.key))?.size).toBe(1000);
    });

    it('refuses a file over the limit with 413 and keeps nothing of it', async () => {
      const before = await kept(wsA, 'bot-media');
      const r = await refusal(store.put({ workspaceId: wsA, area: 'bot-media', fileName: 'big.bin', mimeType: 'application/octet-stream', data: Readable.from([Buffer.alloc(600), Buffer.alloc(401)]), maxBytes: 1000 }));
      expect(r).toEqual({ statusCode: 413, message: 'The file is larger than the limit of 1 KB' });
      expect(await kept(wsA, 'bot-media')).toEqual(before);
    });

    it('refuses a stream its sender cut at the limit (truncated), naming the limit, and keeps nothing', async () => {
      const before = await kept(wsA, 'imports');
      const cut = Object.assign(Readable.from([Buffer.alloc(10)]), { truncated: true });
      expect(await refusal(store.put({ workspaceId: wsA, area: 'imports', fileName: 'cut.csv', mimeType: 'text/csv', data: cut, maxBytes: 2 * 1024 * 1024 }))).toEqual({
        statusCode: 413,
        message: 'The file is larger than the limit of 2 MB',
      });
      const cut2 = Object.assign(Readable.from([Buffer.alloc(3000)]), { truncated: true });
      expect((await refusal(store.put({ workspaceId: wsA, area: 'imports', fileName: 'cut.csv', mimeType: 'text/csv', data: cut2 }))).message).toBe(
        'The file is larger than the limit of 3 KB',
      );
      expect(await kept(wsA, 'imports')).toEqual(before);
    });

    it('removing a file that is not there (any more) is not an error', async () => {
      const saved = await store.put({ workspaceId: wsA, area: 'imports', fileName: 'twice.csv', mimeType: 'text/csv', data: Buffer.from('x') });
      await store.remove(saved.key);
      await expect(store.remove(saved.key)).resolves.toBeUndefined();
      await expect(store.remove(`${wsA}/imports/${randomUUID()}/never.csv`)).resolves.toBeUndefined();
      await expect(store.remove('../../etc')).resolves.toBeUndefined();
    });

    it('refuses to store under a workspace that is not an id, or to open what is not a key', async () => {
      await expect(store.put({ workspaceId: '../x', area: 'imports', fileName: 'a.csv', mimeType: 'text/csv', data: Buffer.from('x') })).rejects.toThrow('Invalid file key');
      await expect(store.open('../../etc/passwd')).rejects.toThrow('Invalid file key');
      await expect(store.withLocalCopy('../../etc/passwd', async () => 1)).rejects.toThrow('Invalid file key');
    });

    it('knows nothing of a malformed key or an unknown key', async () => {
      expect(await store.stat('../../etc/passwd')).toBeNull();
      expect(await store.stat(`${wsA}/imports/${randomUUID()}/a.csv`)).toBeNull();
    });

    it('hands a reader a path on disk holding the file, and a path naming no file for an unknown key', async () => {
      const saved = await store.put({ workspaceId: wsA, area: 'imports', fileName: 'copy.csv', mimeType: 'text/csv', data: Buffer.from('phone\n+1\n') });
      expect(await store.withLocalCopy(saved.key, async (p) => fs.readFileSync(p, 'utf8'))).toBe('phone\n+1\n');
      expect(await store.withLocalCopy(`${wsA}/imports/${randomUUID()}/none.csv`, async (p) => fs.existsSync(p))).toBe(false);
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
}
