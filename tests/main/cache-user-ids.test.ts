// The desktop cache and customers known by a WhatsApp user id: a contact without a phone is stored, its
// username and user id are kept in columns of their own and searched, and a cache from before them (schema 2)
// is rebuilt with both from its rows' JSON. Real SQLite, no server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { Contact, ConversationListEntry } from '../../src/shared';
import { workspaceMigrations } from '../../src/main/cache/migrations';
import { migrate } from '../../src/main/cache/sqlite';
import { WorkspaceCache } from '../../src/main/cache/workspace-cache';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-cache-user-ids-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const WS = '00000000-0000-4000-8000-000000000001';
const id = (kind: number, i: number) => `00000000-0000-4000-${8000 + kind}-${String(i).padStart(12, '0')}`;
const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();

function contact(i: number, extra: Partial<Contact> = {}): Contact {
  return {
    id: id(1, i), createdAt: at(i), workspaceId: WS, name: null, attributes: {}, channel: 'WhatsApp', phoneNumber: null,
    email: null, tags: [], country: null, city: null, meta_source_id: null, meta_source_type: null, meta_ctwa_clid: null, ...extra,
  };
}
function conversation(i: number, c: Contact): ConversationListEntry {
  return {
    id: id(2, i), createdAt: at(i), isActive: true, channel: 'WhatsApp', contactId: c.id, workspaceId: WS, whatsappAccountId: null,
    assigneeMemberId: null, assigneeBotId: null, lastMessageAt: at(i), Contact: c, lastMessage: null, unread: false,
  };
}
const chatsFound = (cache: WorkspaceCache, search: string) => cache.listConversations('open', { search }).items.map((e) => e.Contact.username);

describe('cache: usernames and user ids', () => {
  it("stores a conversation's phone-less contact with its username and user id, and finds the chat by either", () => {
    const cache = new WorkspaceCache(path.join(dir, 'fresh.sqlite'));
    const maria = contact(1, { userId: 'US.13491208655302741918', username: 'maria.k' });
    const pat = contact(2, { phoneNumber: '+14155550102', userId: 'US.2002', username: 'pat', name: 'Pat' });
    cache.putConversations([conversation(1, maria), conversation(2, pat)]);
    const row = cache.db.prepare('SELECT phone, username, user_id FROM contacts WHERE id = ?').get(maria.id);
    expect(row).toEqual({ phone: null, username: 'maria.k', user_id: 'US.13491208655302741918' });

    expect(chatsFound(cache, '@maria')).toEqual(['maria.k']);
    expect(chatsFound(cache, 'mar')).toEqual(['maria.k']);
    expect(chatsFound(cache, 'US.13491208655302741918')).toEqual(['maria.k']);
    expect(cache.searchContacts({ search: '@pat' }).items.map((c) => c.id)).toEqual([pat.id]);

    // A new username replaces the old one in the search.
    cache.putContacts([{ ...maria, username: 'mk_store' }]);
    expect(chatsFound(cache, '@maria')).toEqual([]);
    expect(chatsFound(cache, 'mk_store')).toEqual(['mk_store']);
    cache.close();
  });

  it('a cache from before (schema 2) is rebuilt with usernames and user ids from its rows, and its search keeps working', () => {
    const file = path.join(dir, 'v2.sqlite');
    const v2 = new Database(file);
    migrate(v2, workspaceMigrations.slice(0, 2));
    const old = contact(1, { name: 'Radia Perlman', phoneNumber: '+14155550101', userId: 'US.77', username: 'radia' });
    v2.prepare(`INSERT INTO contacts (id, created_at, name, phone, email, city, tags, data) VALUES (?, ?, 'Radia Perlman', '+14155550101', NULL, NULL, '', ?)`).run(
      old.id, old.createdAt, JSON.stringify(old),
    );
    v2.close();

    const cache = new WorkspaceCache(file);
    expect(cache.db.pragma('user_version', { simple: true })).toBe(workspaceMigrations.length);
    expect(cache.db.prepare('SELECT username, user_id FROM contacts').get()).toEqual({ username: 'radia', user_id: 'US.77' });
    expect(cache.searchContacts({ search: 'perlman' }).items.map((c) => c.id)).toEqual([old.id]);
    expect(cache.searchContacts({ search: '@radia' }).items.map((c) => c.id)).toEqual([old.id]);
    // A phone-less contact now fits (the old schema required a phone).
    cache.putContacts([contact(2, { userId: 'US.88', username: 'nophone' })]);
    expect(cache.searchContacts({ search: 'nophone' }).items).toHaveLength(1);
    cache.close();
  });
});
