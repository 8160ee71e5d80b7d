// The cache's offline search and its FTS upkeep, on real SQLite without a server: a first sync builds the
// indexes once at its end (and an interrupted one is repaired on the next start), searches with many or few
// hits answer the same newest-first order, and later changes (a deleted contact too) keep the index current.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { Contact, ConversationListEntry, Message } from '../../src/shared';
import { workspaceMigrations } from '../../src/main/cache/migrations';
import { migrate } from '../../src/main/cache/sqlite';
import { WorkspaceCache } from '../../src/main/cache/workspace-cache';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-cache-search-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const WS = '00000000-0000-4000-8000-000000000001';
const id = (kind: number, i: number) => `00000000-0000-4000-${8000 + kind}-${String(i).padStart(12, '0')}`;
const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();

function contact(i: number, name: string, extra: Partial<Contact> = {}): Contact {
  return {
    id: id(1, i), createdAt: at(i), workspaceId: WS, name, attributes: {}, channel: 'WhatsApp', phoneNumber: `+35191${String(i).padStart(7, '0')}`,
    email: null, tags: [], country: 'PT', city: 'Lisbon', meta_source_id: null, meta_source_type: null, meta_ctwa_clid: null, ...extra,
  };
}
function message(i: number, conversationId: string, text: string): Message {
  return {
    id: id(3, i), type: 'text', header: null, text, mediaUrl: null, footer: null, action: null, templateComponents: null, createdAt: at(i),
    creator: 'user', conversationId, memberId: null, status: 'received', failureReason: null,
  };
}
function conversation(i: number, c: Contact, text: string): ConversationListEntry {
  const conversationId = id(2, i);
  return {
    id: conversationId, createdAt: at(i), isActive: true, channel: 'WhatsApp', contactId: c.id, workspaceId: WS, whatsappAccountId: null,
    assigneeMemberId: null, assigneeBotId: null, lastMessageAt: at(i), Contact: c, lastMessage: message(i, conversationId, text), unread: true,
  };
}
const names = (contacts: { items: Contact[] }) => contacts.items.map((c) => c.name);

describe('cache search', () => {
  it('a first sync builds the search indexes at its end, and finds any word of a contact or a message', () => {
    const cache = new WorkspaceCache(path.join(dir, 'first.sqlite'));
    const gen = cache.beginFullSync();
    const ada = contact(1, 'Ada Lovelace', { email: 'ada@example.com', tags: ['vip'] });
    const grace = contact(2, 'Grace Hopper', { city: 'Arlington' });
    cache.putContacts([ada, grace], gen);
    cache.putConversations([conversation(1, ada, 'Where is my parcel?'), conversation(2, grace, 'Do you ship to Lisbon?')], gen);
    cache.finishFullSync(gen, at(10));
    // any word of any field, not only the first
    expect(names(cache.searchContacts({ search: 'lovelace' }))).toEqual(['Ada Lovelace']);
    expect(names(cache.searchContacts({ search: 'vip' }))).toEqual(['Ada Lovelace']);
    expect(names(cache.searchContacts({ search: 'arlington hop' }))).toEqual(['Grace Hopper']);
    // a phone number as people type it, whole or its first digits
    expect(names(cache.searchContacts({ search: ada.phoneNumber! }))).toEqual(['Ada Lovelace']);
    expect(names(cache.searchContacts({ search: '+351 91 000 0001' }))).toEqual(['Ada Lovelace']);
    expect(names(cache.searchContacts({ search: '(351) 91-000' }))).toEqual(['Grace Hopper', 'Ada Lovelace']);
    expect(cache.searchMessages('parcel').map((m) => m.text)).toEqual(['Where is my parcel?']);

    // Later writes keep the index current (FTS triggers running again).
    cache.applyEvents([
      { seq: 1, workspaceId: WS, type: 'contact.updated', createdAt: at(11), payload: { contact: { ...ada, name: 'Augusta King' } } },
      { seq: 2, workspaceId: WS, type: 'message.created', createdAt: at(12), payload: { message: message(12, id(2, 2), 'Any news on the refund?') } },
    ]);
    expect(cache.searchContacts({ search: 'lovelace' }).items).toEqual([]);
    expect(names(cache.searchContacts({ search: 'augusta' }))).toEqual(['Augusta King']);
    expect(cache.searchMessages('refund').map((m) => m.conversationId)).toEqual([id(2, 2)]);
    cache.close();
  });

  it('a contact deleted on the server (contact.deleted) leaves the cache with its conversation, messages and search entries', () => {
    const cache = new WorkspaceCache(path.join(dir, 'deleted.sqlite'));
    const gen = cache.beginFullSync();
    const ada = contact(1, 'Ada Lovelace', { email: 'ada@example.com' });
    const grace = contact(2, 'Grace Hopper');
    cache.putContacts([ada, grace], gen);
    cache.putConversations([conversation(1, ada, 'Where is my parcel?'), conversation(2, grace, 'Do you ship to Lisbon?')], gen);
    cache.finishFullSync(gen, at(10));
    cache.putMessages([message(11, id(2, 1), 'The parcel never came')]);
    expect(names(cache.searchContacts({ search: 'lovelace' }))).toEqual(['Ada Lovelace']);

    const change = cache.applyEvents([{ seq: 1, workspaceId: WS, type: 'contact.deleted', createdAt: at(12), payload: { contactId: ada.id } }]);
    expect(change).toEqual({ conversationIds: [id(2, 1)], contacts: true });
    // Offline search no longer finds the contact by any field, nor its messages.
    for (const search of ['lovelace', 'ada@example.com', ada.phoneNumber!]) expect(cache.searchContacts({ search }).items).toEqual([]);
    expect(cache.searchMessages('parcel')).toEqual([]);
    expect(names(cache.searchContacts())).toEqual(['Grace Hopper']);
    expect(cache.conversation(id(2, 1))).toBeNull();
    expect(cache.conversationDetail(id(2, 1))).toBeNull();
    expect(cache.counts().open).toBe(1);
    // The other contact is untouched, and its rows still searchable.
    expect(names(cache.searchContacts({ search: 'hopper' }))).toEqual(['Grace Hopper']);
    expect(cache.searchMessages('lisbon').map((m) => m.conversationId)).toEqual([id(2, 2)]);
    expect(cache.lastSeq).toBe(1);
    cache.close();
  });

  it('a first sync cut short (the app quit) leaves a cache whose search works at the next start', () => {
    const file = path.join(dir, 'interrupted.sqlite');
    const cache = new WorkspaceCache(file);
    const gen = cache.beginFullSync();
    cache.putContacts([contact(1, 'Katherine Johnson')], gen);
    cache.close();

    const again = new WorkspaceCache(file);
    expect(names(again.searchContacts({ search: 'katherine' }))).toEqual(['Katherine Johnson']);
    // and the next sync keeps the index current as it writes
    const next = again.beginFullSync();
    again.putContacts([contact(2, 'Dorothy Vaughan')], next);
    expect(names(again.searchContacts({ search: 'vaughan' }))).toEqual(['Dorothy Vaughan']);
    again.close();
  });

  it('answers newest first, page after page, whether a search has a few hits or thousands', () => {
    const cache = new WorkspaceCache(path.join(dir, 'many.sqlite'));
    const gen = cache.beginFullSync();
    // 3,000 contacts: every one is a "Silva", every 100th also an "Okafor"; created in a shuffled order
    const order = Array.from({ length: 3000 }, (_, i) => (i * 7919) % 3000);
    cache.putContacts(order.map((i) => contact(i, i % 100 === 0 ? `Okafor Silva ${i}` : `Maria Silva ${i}`)), gen);
    cache.finishFullSync(gen, at(0));

    const everyPage = (search: string) => {
      const seen: (string | null)[] = [];
      let cursor: string | undefined;
      do {
        const page = cache.searchContacts({ search, limit: 500, cursor });
        seen.push(...names(page));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return seen;
    };
    const many = everyPage('silva');
    expect(many).toHaveLength(3000);
    expect(many.slice(0, 2)).toEqual(['Maria Silva 2999', 'Maria Silva 2998']);
    expect(many.at(-1)).toBe('Okafor Silva 0');
    const few = everyPage('okafor');
    expect(few).toHaveLength(30);
    expect(few.slice(0, 2)).toEqual(['Okafor Silva 2900', 'Okafor Silva 2800']);
    // both words: the few
    expect(names(cache.searchContacts({ search: 'silva okafor', limit: 3 }))).toEqual(['Okafor Silva 2900', 'Okafor Silva 2800', 'Okafor Silva 2700']);
    cache.close();
  });

  it('a cache from before the deferred indexes (schema 1) keeps its search after the upgrade', () => {
    const file = path.join(dir, 'v1.sqlite');
    const v1 = new Database(file);
    migrate(v1, workspaceMigrations.slice(0, 1));
    v1.prepare(`INSERT INTO contacts (id, created_at, name, phone, email, city, tags, data) VALUES (?, ?, 'Radia Perlman', '+1', NULL, 'Boston', '', ?)`).run(
      id(1, 1), at(1), JSON.stringify(contact(1, 'Radia Perlman')),
    );
    v1.close();

    const cache = new WorkspaceCache(file);
    expect(cache.db.pragma('user_version', { simple: true })).toBe(workspaceMigrations.length);
    expect(names(cache.searchContacts({ search: 'perlman' }))).toEqual(['Radia Perlman']);
    cache.putContacts([contact(1, 'Radia Joy Perlman')]);
    expect(names(cache.searchContacts({ search: 'joy' }))).toEqual(['Radia Joy Perlman']);
    cache.close();
  });
});
