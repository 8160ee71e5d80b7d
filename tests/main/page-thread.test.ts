// The page thread of a full sync (src/main/cache/page-thread.ts): one thread per process, reused by every sync;
// what it writes is what parsing in the main thread writes; a page the server garbled fails the sync as before;
// and when the thread cannot start or stops half-way, the sync still completes, parsing in the main thread.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleFromSource, inThreadPages, type PageParser, PageThread, pageThread, stopPageThread, type WorkerSource } from '../../src/main/cache/page-thread';
import { ServerAnswerError } from '../../src/main/cache/server-api';
import { createSync } from '../../src/main/cache/sync';
import { WorkspaceCache } from '../../src/main/cache/workspace-cache';
import { source, WS } from './paging-source';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-page-thread-'));
afterAll(async () => {
  await stopPageThread();
  fs.rmSync(dir, { recursive: true, force: true });
});

let files = 0;
/** A first sync of 700 contacts and 500 conversations into a new cache; answers the cache, still open. */
async function syncedCache(pages?: PageParser, api = source(700, 500)): Promise<WorkspaceCache> {
  const cache = new WorkspaceCache(path.join(dir, `cache-${++files}.sqlite`));
  await createSync({ api, cache, workspaceId: WS, conversationsWithMessages: 0, pages }).fullSync();
  return cache;
}

const everything = (cache: WorkspaceCache) =>
  ['contacts', 'conversations', 'messages', 'attributes', 'members'].map((table) =>
    cache.db.prepare(`SELECT * FROM ${table} ORDER BY id`).raw().all(),
  );

describe('page thread', () => {
  it('one thread serves every sync of the process, and the caches it fills equal those parsed in the main thread', async () => {
    const thread = pageThread();
    const first = await syncedCache();
    const second = await syncedCache();
    const inMain = await syncedCache(inThreadPages);
    expect(thread.started.count).toBe(1);
    expect(first.counts().open).toBe(500);
    expect(everything(first)).toEqual(everything(inMain));
    expect(everything(second)).toEqual(everything(inMain));
    for (const cache of [first, second, inMain]) cache.close();
  });

  it('starts in well under a second (bundled once per process, not TypeScript loaded in the thread)', async () => {
    await stopPageThread();
    const t0 = performance.now();
    const page = await pageThread().parse('contacts', '{"items":[],"nextCursor":null}');
    const ms = performance.now() - t0;
    expect(page).toEqual({ rows: [], nextCursor: null });
    expect(pageThread().started.count).toBe(2);
    // on an idle machine about 0.1 s; the limit leaves room for a loaded one
    expect(ms).toBeLessThan(3000);
  });

  it('stopping the thread (quit) while it starts still answers the page on its way; a later page starts a new thread', async () => {
    const thread = new PageThread(bundleFromSource);
    const page = thread.parse('contacts', '{"items":[],"nextCursor":"2"}');
    await thread.stop();
    await expect(page).resolves.toEqual({ rows: [], nextCursor: '2' });
    expect(thread.started.count).toBe(1);
    // a later page starts a new thread
    await expect(thread.parse('members', '{"items":[],"nextCursor":null}')).resolves.toEqual({ rows: [], nextCursor: null });
    expect(thread.started.count).toBe(2);
    await thread.stop();
  });

  it('a page that is not JSON, or not the list the route describes, fails the sync as a server answer would', async () => {
    const notJson = source(700, 0, { contactPageText: (page) => (page === 2 ? '<html>proxy error</html>' : undefined) });
    await expect(syncedCache(undefined, notJson)).rejects.toThrow(new ServerAnswerError(200, 'listContacts: the answer is not JSON'));
    const wrongShape = source(700, 0, { contactPageText: (page) => (page === 1 ? '{"items":[{"id":"x"}],"nextCursor":null}' : undefined) });
    await expect(syncedCache(undefined, wrongShape)).rejects.toThrow(/invalid_type/);
  });

  it('a thread that cannot start leaves the sync parsing in the main thread', async () => {
    const log: string[] = [];
    const thread = new PageThread(async () => {
      throw new Error('esbuild is not installed');
    }, (line) => log.push(line));
    const cache = await syncedCache(thread);
    expect(cache.counts().open).toBe(500);
    expect(cache.searchContacts({ search: 'okafor' }).items).toHaveLength(1);
    expect(log).toEqual(['page thread: esbuild is not installed; pages are parsed in the main thread']);
    expect(thread.started.count).toBe(0);
    cache.close();
  });

  it('a thread that fails as it loads, or stops half-way through a sync, leaves the pages to the main thread', async () => {
    const failing: WorkerSource[] = [
      { code: "throw new Error('the thread cannot load its code')" },
      // takes the first page, then stops without answering
      { code: "require('node:worker_threads').parentPort.on('message', () => process.exit(3))" },
    ];
    for (const code of failing) {
      const log: string[] = [];
      const thread = new PageThread(async () => code, (line) => log.push(line));
      const cache = await syncedCache(thread);
      expect(cache.counts().open).toBe(500);
      expect(cache.db.prepare('SELECT count(*) AS n FROM contacts').get()).toEqual({ n: 700 });
      expect(log).toHaveLength(1);
      expect(log[0]).toMatch(/^page thread: .*; pages are parsed in the main thread$/);
      cache.close();
    }
  });
});
