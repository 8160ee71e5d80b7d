// The desktop cache against the real server stack: first sync through the REST lists, live updates from the
// workspace event stream, resume after the last sequence, a full reload on `reset`, offline and back.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { SyncStatus } from '../../src/shared/ipc';
import { createServerApi, type ServerApi } from '../../src/main/cache/server-api';
import { createSync, type Sync } from '../../src/main/cache/sync';
import { WorkspaceCache } from '../../src/main/cache/workspace-cache';
import type { Session } from '../support/server';
import { untilValue } from '../support/until';
import { type DeskStack, startDeskStack } from './stack-support';
import { signInWithPassword } from '../../scripts/lib/identity-rest';
import { emulatorHost } from '../support/server';

let stack: DeskStack;
let ta: DeskStack['ta'];
let base: string;
let admin: DeskStack['admin'];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-cache-'));

beforeAll(async () => {
  stack = await startDeskStack('Offline Shop', '1650556');
  ({ ta, base, admin } = stack);
});
afterAll(async () => {
  await stack?.ta.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const customerWrites = (text: string, name?: string) => stack.customerWrites(text, name);

/** fetch that can lose the network: `down` refuses new requests, `cut()` breaks the open ones. */
function flakyFetch() {
  const open = new Set<AbortController>();
  const net = {
    down: false,
    cut() {
      for (const c of open) c.abort(new TypeError('network lost'));
      open.clear();
    },
    fetch: (async (input: URL | RequestInfo, init?: RequestInit) => {
      if (net.down) throw new TypeError('fetch failed');
      const controller = new AbortController();
      open.add(controller);
      const signal = init?.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal;
      return fetch(input, { ...init, signal });
    }) as typeof fetch,
  };
  return net;
}

function apiFor(session: Session, fetchImpl: typeof fetch = fetch): ServerApi {
  let token = session.token;
  return createServerApi({
    baseUrl: () => base,
    idToken: async (force) => {
      if (force) token = (await signInWithPassword(emulatorHost(), session.email, session.password)).idToken;
      return token;
    },
    fetch: fetchImpl,
  });
}

describe('desktop cache sync', () => {
  let cache: WorkspaceCache;
  let sync: Sync;
  const statuses: SyncStatus[] = [];
  const file = () => path.join(dir, 'workspace.sqlite');

  it('first sync pages through the REST lists into the cache', async () => {
    const first = await customerWrites('Hi, where is my parcel?', 'Ada Lovelace');
    await customerWrites('Do you ship to Lisbon?', 'Grace Hopper');
    // A contact without a conversation is cached too.
    await ta.db.insert(t.contacts).values({ workspaceId: admin.workspaceId, name: 'Katherine Johnson', phoneNumber: '+14155550999' });

    cache = new WorkspaceCache(file());
    sync = createSync({ api: apiFor(admin), cache, workspaceId: admin.workspaceId, onStatus: (s) => statuses.push(s), retryDelayMs: [100, 500] });
    sync.start();
    await untilValue('the first sync', () => sync.status().state === 'live' && cache.lastSyncedAt);

    expect(cache.memberId).toBe(admin.member.id);
    const open = cache.listConversations('open');
    expect(open.items.map((c) => c.Contact.name)).toEqual(['Grace Hopper', 'Ada Lovelace']);
    const ada = open.items[1]!;
    expect(ada.id).toBe(first.conversation.id);
    expect(ada.lastMessage?.text).toBe('Hi, where is my parcel?');
    expect(ada.unread).toBe(true);
    expect(cache.conversationDetail(ada.id)?.Message.map((m) => m.text)).toEqual(['Hi, where is my parcel?']);
    expect(cache.searchContacts().items.map((c) => c.name)).toContain('Katherine Johnson');
    expect(cache.counts()).toMatchObject({ open: 2, closed: 0, me: 0 });
    // the members list is cached with the admin in it
    expect(cache.db.prepare('SELECT count(*) AS n FROM members').get()).toEqual({ n: 1 });
    expect(statuses.at(-1)).toMatchObject({ state: 'live', online: true, workspaceId: admin.workspaceId });
  });

  it('full-text search matches any word of a contact or a message, not only the first', () => {
    expect(cache.searchContacts({ search: 'lovelace' }).items.map((c) => c.name)).toEqual(['Ada Lovelace']);
    expect(cache.searchContacts({ search: 'hop' }).items.map((c) => c.name)).toEqual(['Grace Hopper']);
    expect(cache.searchContacts({ search: 'johnson katherine' }).items.map((c) => c.name)).toEqual(['Katherine Johnson']);
    expect(cache.searchContacts({ search: 'nobody' }).items).toEqual([]);
    // FTS syntax typed by the user is plain text, never an error
    expect(cache.searchContacts({ search: 'lovelace")* (' }).items.map((c) => c.name)).toEqual(['Ada Lovelace']);
    expect(cache.searchMessages('lisbon').map((m) => m.text)).toEqual(['Do you ship to Lisbon?']);
    expect(cache.listConversations('open', { search: 'grace' }).items.map((c) => c.Contact.name)).toEqual(['Grace Hopper']);
  });

  it('stays current from the event stream: a new conversation, a message, an assignment', async () => {
    const before = cache.lastSeq;
    const third = await customerWrites('Is the shop open on Sunday?', 'Mary Jackson');
    await untilValue('the new conversation', () => cache.conversation(third.conversation.id));
    expect(cache.searchMessages('sunday').map((m) => m.conversationId)).toEqual([third.conversation.id]);
    expect(cache.lastSeq).toBeGreaterThan(before);

    const assigned = await ta.call('PATCH', `/conversation/${third.conversation.id}`, {
      token: admin.token,
      body: { assigneeMemberId: admin.member.id },
    });
    expect(assigned.statusCode).toBe(200);
    await untilValue('the assignment', () => cache.conversation(third.conversation.id)?.assigneeMemberId === admin.member.id);
    expect(cache.listConversations('me').items.map((c) => c.id)).toEqual([third.conversation.id]);
    expect(cache.counts()).toMatchObject({ me: 1, assigned: 1, open: 3, unread: { me: 1 } });
  });

  it('resumes after the last sequence applied when the app starts again (no full sync)', async () => {
    await sync.stop();
    const syncedAt = cache.lastSyncedAt;
    const seq = cache.lastSeq;
    cache.close();
    const missed = await customerWrites('Written while the app was closed', 'Dorothy Vaughan');

    cache = new WorkspaceCache(file());
    expect(cache.lastSeq).toBe(seq);
    sync = createSync({ api: apiFor(admin), cache, workspaceId: admin.workspaceId, retryDelayMs: [100, 500] });
    sync.start();
    await untilValue('the missed conversation', () => cache.conversation(missed.conversation.id));
    expect(cache.lastSyncedAt).toBe(syncedAt);
    expect(cache.lastSeq).toBeGreaterThan(seq);
  });

  it('reports offline when the network goes and catches up when it comes back', async () => {
    await sync.stop();
    const net = flakyFetch();
    const seen: SyncStatus[] = [];
    sync = createSync({ api: apiFor(admin, net.fetch), cache, workspaceId: admin.workspaceId, onStatus: (s) => seen.push(s), retryDelayMs: [100, 300] });
    sync.start();
    await untilValue('live', () => sync.status().state === 'live');
    net.down = true;
    net.cut();
    await untilValue('offline', () => sync.status().state === 'offline');
    expect(sync.status()).toMatchObject({ online: false, message: 'The server cannot be reached' });
    // The cache still answers.
    expect(cache.listConversations('open').items.length).toBe(4);

    const whileOffline = await customerWrites('Hello? Anyone there?', 'Hedy Lamarr');
    net.down = false;
    sync.retry();
    await untilValue('back online', () => sync.status().online && sync.status().state === 'live');
    await untilValue('the conversation written while offline', () => cache.conversation(whileOffline.conversation.id));
    expect(seen.map((s) => s.state)).toEqual(expect.arrayContaining(['live', 'offline']));
  });

  it('reloads everything on the stream reset signal (rows gone on the server leave the cache)', async () => {
    await sync.stop();
    // Removed on the server behind the stream's back (as a restored backup would).
    const katherine = cache.searchContacts({ search: 'katherine' }).items[0]!;
    await ta.db.delete(t.contacts).where(eq(t.contacts.id, katherine.id));
    const api = apiFor(admin);
    let resetSent = false;
    const resetting: ServerApi = {
      get: api.get,
      async *events(workspaceId, lastEventId, signal) {
        if (!resetSent) {
          resetSent = true;
          yield { event: 'reset', data: '', id: undefined };
        }
        yield* api.events(workspaceId, lastEventId, signal);
      },
    };
    const syncedAt = cache.lastSyncedAt;
    const changes: boolean[] = [];
    sync = createSync({ api: resetting, cache, workspaceId: admin.workspaceId, onChange: (c) => changes.push(c.full), retryDelayMs: [100, 300] });
    sync.start();
    await untilValue('the full reload', () => cache.lastSyncedAt !== syncedAt && sync.status().state === 'live');
    expect(changes).toContain(true);
    expect(cache.searchContacts({ search: 'katherine' }).items).toEqual([]);
    expect(cache.listConversations('open').items).toHaveLength(5);
    await sync.stop();
    cache.close();
  });
});
