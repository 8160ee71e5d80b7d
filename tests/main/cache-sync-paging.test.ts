// A first sync over many REST pages, without a server: a source that answers the route table's list shapes
// page by page (parsed with the same schemas as real answers). Every row arrives, search works at the end,
// and a page that fails leaves a cache that is not taken for synced and that the next attempt completes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSync } from '../../src/main/cache/sync';
import { WorkspaceCache } from '../../src/main/cache/workspace-cache';
import { id, source, WS } from './paging-source';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-cache-paging-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('first sync over many pages', () => {
  it('stores every row of thousands over many pages, newest first, and search finds them', async () => {
    const cache = new WorkspaceCache(path.join(dir, 'many.sqlite'));
    const api = source(2_500, 1_300);
    await createSync({ api, cache, workspaceId: WS, conversationsWithMessages: 0 }).fullSync();

    expect(api.requests).toBe(1 + 13 + 7 + 2); // me, contact pages, conversation pages, attributes and members
    expect(cache.db.prepare('SELECT (SELECT count(*) FROM contacts) AS contacts, (SELECT count(*) FROM conversations) AS conversations').get()).toEqual({
      contacts: 2_500,
      conversations: 1_300,
    });
    expect(cache.listConversations('open', { limit: 2 }).items.map((c) => c.lastMessage?.text)).toEqual(['Question number 1300', 'Question number 1299']);
    expect(cache.searchContacts({ search: 'okafor' }).items.map((c) => c.name)).toEqual([
      'Customer 2500 Okafor', 'Customer 2000 Okafor', 'Customer 1500 Okafor', 'Customer 1000 Okafor', 'Customer 500 Okafor',
    ]);
    expect(cache.searchMessages('1299').map((m) => m.conversationId)).toEqual([id(2, 1299)]);
    expect(cache.lastSyncedAt).not.toBeNull();
    cache.close();
  });

  it('a page that fails fails the sync: the cache is not taken for synced, and the next attempt completes it', async () => {
    const file = path.join(dir, 'failing.sqlite');
    const cache = new WorkspaceCache(file);
    await expect(createSync({ api: source(600, 1_300, { failAt: 4 }), cache, workspaceId: WS, conversationsWithMessages: 0 }).fullSync()).rejects.toThrow(/503/);
    expect(cache.lastSyncedAt).toBeNull();
    cache.close();

    // the app starts again (the interrupted first sync's search indexes are repaired) and syncs
    const again = new WorkspaceCache(file);
    await createSync({ api: source(600, 1_300), cache: again, workspaceId: WS, conversationsWithMessages: 0 }).fullSync();
    expect(again.lastSyncedAt).not.toBeNull();
    expect(again.counts().open).toBe(1_300);
    expect(again.searchContacts({ search: 'customer 1250' }).items.map((c) => c.name)).toEqual(['Customer 1250']);
    again.close();
  });
});
