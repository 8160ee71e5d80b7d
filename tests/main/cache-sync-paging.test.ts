// A first sync over many REST pages, without a server: a source that answers the route table's list shapes
// page by page (parsed with the same schemas as real answers). Every row arrives, search works at the end,
// and a page that fails leaves a cache that is not taken for synced and that the next attempt completes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { z } from 'zod';
import { afterAll, describe, expect, it } from 'vitest';
import { routes, type RouteName } from '../../src/shared/api/routes';
import type { Contact, ConversationListEntry } from '../../src/shared';
import { ServerAnswerError, type ServerApi } from '../../src/main/cache/server-api';
import { createSync } from '../../src/main/cache/sync';
import { WorkspaceCache } from '../../src/main/cache/workspace-cache';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-cache-paging-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const WS = '00000000-0000-4000-8000-000000000001';
const ME = '00000000-0000-4000-8000-0000000000aa';
const id = (kind: number, i: number) => `00000000-0000-4000-${8000 + kind}-${String(i).padStart(12, '0')}`;
const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
const PAGE = 200;

const contact = (i: number): Contact => ({
  id: id(1, i), createdAt: at(i), workspaceId: WS, name: `Customer ${i}${i % 500 === 0 ? ' Okafor' : ''}`, attributes: {}, channel: 'WhatsApp',
  phoneNumber: `+35191${String(i).padStart(7, '0')}`, email: null, tags: [], country: 'PT', city: 'Porto', meta_source_id: null, meta_source_type: null, meta_ctwa_clid: null,
});
const conversation = (i: number): ConversationListEntry => ({
  id: id(2, i), createdAt: at(i), isActive: true, channel: 'WhatsApp', contactId: id(1, i), workspaceId: WS, whatsappAccountId: null,
  assigneeMemberId: null, assigneeBotId: null, lastMessageAt: at(i), Contact: contact(i), unread: false,
  lastMessage: {
    id: id(3, i), type: 'text', header: null, text: `Question number ${i}`, mediaUrl: null, footer: null, action: null, templateComponents: null,
    createdAt: at(i), creator: 'user', conversationId: id(2, i), memberId: null, status: 'received', failureReason: null,
  },
});

/** Newest first, pages of 200, the cursor being the next page's index; `failAt` makes that page answer 503. */
function source(contacts: number, conversations: number, opts: { failAt?: number; onConversationPage?: (page: number) => void } = {}): ServerApi & { requests: number } {
  const list = <T>(n: number, of: (i: number) => T, cursor: string | undefined) => {
    const page = Number(cursor ?? 0);
    const items = Array.from({ length: Math.max(0, Math.min(PAGE, n - page * PAGE)) }, (_, k) => of(n - page * PAGE - k));
    return { items, nextCursor: (page + 1) * PAGE < n ? String(page + 1) : null };
  };
  const api = {
    requests: 0,
    async get(name: RouteName, _params?: Record<string, string>, query: Record<string, string | number | undefined> = {}) {
      api.requests++;
      const cursor = query.cursor as string | undefined;
      if (name === 'listConversations') opts.onConversationPage?.(Number(cursor ?? 0));
      if (name === 'listConversations' && opts.failAt !== undefined && Number(cursor ?? 0) === opts.failAt) {
        throw new ServerAnswerError(503, 'listConversations: 503 Service Unavailable');
      }
      const body =
        name === 'getMe'
          ? { id: ME, uid: 'paging', role: 'agent', createdAt: at(0), currentWorkspaceId: WS, workspaceIds: [WS], Workspaces: [] }
          : name === 'listContacts'
            ? list(contacts, contact, cursor)
            : name === 'listConversations'
              ? list(conversations, conversation, cursor)
              : { items: [], nextCursor: null };
      return (routes[name].response as z.ZodType).parse(JSON.parse(JSON.stringify(body))) as never;
    },
    // eslint-disable-next-line require-yield
    async *events(): AsyncGenerator<never> {
      throw new Error('no stream in this test');
    },
  };
  return api as ServerApi & { requests: number };
}

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

  it('keeps the pages written before a failure, and what the agent changed meanwhile', async () => {
    const file = path.join(dir, 'kept.sqlite');
    const cache = new WorkspaceCache(file);
    // the agent marks the newest conversation unread while the sync asks for the third page of conversations
    const markUnread = (page: number) => {
      if (page === 3) expect(cache.setUnread(id(2, 1_300), true)).toBe(true);
    };
    const api = source(600, 1_300, { failAt: 4, onConversationPage: markUnread });
    await expect(createSync({ api, cache, workspaceId: WS, conversationsWithMessages: 0 }).fullSync()).rejects.toThrow(/503/);
    cache.close();

    const reopened = new WorkspaceCache(file);
    expect(reopened.lastSyncedAt).toBeNull();
    // four whole pages of 200 arrived before the fifth failed; they are there to browse offline
    expect(reopened.counts().open).toBe(800);
    expect(reopened.conversation(id(2, 1_300))?.unread).toBe(true);
    expect(reopened.searchContacts({ search: 'customer 1201' }).items.map((c) => c.name)).toEqual(['Customer 1201']);
    reopened.close();
  });
});
