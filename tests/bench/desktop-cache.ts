/**
 * The desktop cache (better-sqlite3, FTS5): first sync of 100,000 conversations and 100,000 contacts, offline
 * contact search over them, and applying 10,000 stream events.
 *
 * The first sync runs the real sync code (src/main/cache/sync.ts: paging, zod parsing of every page with the
 * route table's schemas, the cache's upserts, FTS indexes built at the end) against an in-process source that
 * hands over REST pages of 200 as JSON text, as fetch would (serialising them is the server's work and is done
 * before the clock starts; JSON.parse and the schema check are the client's and are timed), instead of the real
 * server: seeding 200,000 rows through the HTTP API and serving them back would measure the server on this
 * shared 2-core machine, not the cache.
 *
 * The floor is the least SQLite work that ends in the same database: the same rows, already in the column
 * values the cache stores, plain INSERTs into the same tables with the same indexes, in one transaction, and
 * the two FTS indexes built once at the end (the fastest way to fill them). No parsing, no JSON, no upserts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import type { z } from 'zod';
import { routes, type RouteName } from '../../src/shared/api/routes';
import type { Contact, ConversationListEntry, Message, WorkspaceEvent } from '../../src/shared';
import { WorkspaceEvent as WorkspaceEventSchema } from '../../src/shared';
import { workspaceMigrations } from '../../src/main/cache/migrations';
import type { ServerApi } from '../../src/main/cache/server-api';
import { openSqlite } from '../../src/main/cache/sqlite';
import { createSync } from '../../src/main/cache/sync';
import { WorkspaceCache } from '../../src/main/cache/workspace-cache';
import type { Benchmark } from './types';

/** 100,000 by default; PARLEY_BENCH_CACHE_ROWS runs it smaller (a quick check on a loaded machine). */
const ROWS = Number(process.env.PARLEY_BENCH_CACHE_ROWS ?? 100_000);
const EVENTS = 10_000;
const PAGE = 200;
const WS = '00000000-0000-4000-8000-000000000001';
const ME = '00000000-0000-4000-8000-0000000000aa';

const first = ['Ada', 'Grace', 'Alan', 'Katherine', 'Hedy', 'Linus', 'Margaret', 'Dorothy', 'Tim', 'Barbara', 'Edsger', 'Frances', 'John', 'Radia', 'Ken', 'Sophie'];
const last = ['Lovelace', 'Hopper', 'Turing', 'Johnson', 'Lamarr', 'Torvalds', 'Hamilton', 'Vaughan', 'Berners', 'Liskov', 'Dijkstra', 'Allen', 'Backus', 'Perlman', 'Thompson', 'Wilson'];
const cities = ['Lisbon', 'Porto', 'Berlin', 'Madrid', 'Paris', 'Nairobi', 'Lagos', 'Mumbai', 'Jakarta', 'Lima'];
const words = ['order', 'parcel', 'invoice', 'refund', 'delivery', 'size', 'colour', 'price', 'stock', 'return', 'hello', 'thanks'];

const uuid = (kind: number, i: number) => `00000000-0000-4000-${String(8000 + kind)}-${String(i).padStart(12, '0')}`;
const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();

function contactOf(i: number): Contact {
  return {
    id: uuid(1, i), createdAt: at(i), workspaceId: WS, name: `${first[i % 16]} ${last[(i >> 4) % 16]} ${i}`, attributes: { plan: i % 3 ? 'gold' : 'free' },
    channel: 'WhatsApp', phoneNumber: `+1415${String(i).padStart(7, '0')}`, email: i % 2 ? `user${i}@example.com` : null, tags: i % 5 ? [] : ['vip'],
    country: 'PT', city: cities[i % cities.length]!, meta_source_id: null, meta_source_type: null, meta_ctwa_clid: null,
  };
}
function messageOf(i: number, conversationId: string, n = 0): Message {
  return {
    id: uuid(3, i * 10 + n), type: 'text', header: null, text: `${words[i % words.length]} ${words[(i >> 3) % words.length]} number ${i}`, mediaUrl: null, footer: null,
    action: null, templateComponents: null, createdAt: at(i + n), creator: n % 2 ? 'agent' : 'user', conversationId, memberId: null, status: 'received', failureReason: null,
  };
}
function conversationOf(i: number): ConversationListEntry {
  const id = uuid(2, i);
  return {
    id, createdAt: at(i), isActive: i % 4 !== 0, channel: 'WhatsApp', contactId: uuid(1, i), workspaceId: WS, whatsappAccountId: null,
    assigneeMemberId: i % 3 === 0 ? ME : null, assigneeBotId: null, lastMessageAt: at(i), Contact: contactOf(i), lastMessage: messageOf(i, id), unread: i % 7 === 0,
  };
}

/** Serves the generated pages (JSON text, newest first) as the REST lists would, parsed like real answers. */
function inProcessSource(contactPages: string[], conversationPages: string[], timing: { parseMs: number }): ServerApi {
  const answer = (name: RouteName, query: Record<string, string | number | undefined>): string => {
    const index = Number(query.cursor ?? 0);
    switch (name) {
      case 'getMe':
        return JSON.stringify({ id: ME, uid: 'bench', role: 'agent', createdAt: at(0), currentWorkspaceId: WS, workspaceIds: [WS], Workspaces: [] });
      case 'listContacts':
        return contactPages[index]!;
      case 'listConversations':
        return conversationPages[index]!;
      default:
        return JSON.stringify({ items: [], nextCursor: null });
    }
  };
  return {
    async get(name, _params, query = {}) {
      const text = answer(name, query);
      const s = performance.now();
      // what response.json() and the client's schema check do
      const parsed = (routes[name].response as z.ZodType).parse(JSON.parse(text)) as never;
      timing.parseMs += performance.now() - s;
      return parsed;
    },
    // eslint-disable-next-line require-yield
    async *events() {
      throw new Error('not used by the benchmark');
    },
  };
}

/**
 * The REST pages of a list of ROWS rows, newest (row ROWS) first, as the server would send them: JSON text, the
 * cursor being the page's index. Rows are made a page at a time, so the benchmark holds text, not 200,000
 * objects whose garbage collection would be charged to the sync.
 */
function pagesOf<T>(rowOf: (i: number) => T): string[] {
  const pages: string[] = [];
  for (let start = 0; start < ROWS; start += PAGE) {
    const items = Array.from({ length: Math.min(PAGE, ROWS - start) }, (_, k) => rowOf(ROWS - start - k));
    pages.push(JSON.stringify({ items, nextCursor: start + PAGE < ROWS ? String(pages.length + 1) : null }));
  }
  return pages;
}

/** Times every call of the named methods of `target` into `timing.ms`. */
function timeMethods<T extends object>(target: T, names: (keyof T)[], timing: { ms: number }): void {
  for (const name of names) {
    const original = target[name] as (...args: unknown[]) => unknown;
    (target as Record<keyof T, unknown>)[name] = (...args: unknown[]) => {
      const s = performance.now();
      try {
        return original.apply(target, args);
      } finally {
        timing.ms += performance.now() - s;
      }
    };
  }
}

/** The floor: the same rows as stored column values, plain INSERTs, one transaction, FTS built once. */
function floorRun(file: string): { ms: number; cpuMs: number } {
  const newestFirst = Array.from({ length: ROWS }, (_, k) => ROWS - k);
  const contactRows = newestFirst.map((i) => {
    const c = contactOf(i);
    return [c.id, c.createdAt, c.name, c.phoneNumber, c.email, c.city, c.tags.join(' '), JSON.stringify(c)];
  });
  const conversationRows = newestFirst.map((i) => {
    const { Contact: _contact, lastMessage, unread, ...v } = conversationOf(i);
    return [v.id, v.contactId, v.isActive ? 1 : 0, v.assigneeMemberId, v.assigneeBotId, v.lastMessageAt, unread ? 1 : 0, JSON.stringify(v), JSON.stringify(lastMessage), lastMessage!.createdAt];
  });
  const messageRows = newestFirst.map((i) => {
    const m = conversationOf(i).lastMessage!;
    return [m.id, m.conversationId, m.createdAt, m.text, JSON.stringify(m)];
  });
  const db = openSqlite(file, workspaceMigrations);
  const insertContact = db.prepare('INSERT INTO contacts (id, created_at, name, phone, email, city, tags, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const insertConversation = db.prepare(
    'INSERT INTO conversations (id, contact_id, is_active, assignee_member_id, assignee_bot_id, activity_at, unread, data, last_message, last_message_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertMessage = db.prepare('INSERT INTO messages (id, conversation_id, created_at, text, data) VALUES (?, ?, ?, ?, ?)');
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  db.transaction(() => {
    db.exec("INSERT INTO meta (key, value) VALUES ('ftsDeferred', '1')");
    for (const row of contactRows) insertContact.run(row);
    for (const row of conversationRows) insertConversation.run(row);
    for (const row of messageRows) insertMessage.run(row);
    db.exec("DELETE FROM meta WHERE key = 'ftsDeferred'; INSERT INTO contacts_fts (contacts_fts) VALUES ('rebuild'); INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');");
  })();
  const ms = performance.now() - t0;
  const cpuMs = cpuMsSince(cpu0);
  db.close();
  return { ms, cpuMs };
}

/**
 * Milliseconds the garbage collector paused this thread from now until the returned function is called (Node
 * reports them from the event loop, so it waits a turn for the last ones).
 */
function gcPauses(): () => Promise<number> {
  let ms = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) ms += entry.duration;
  });
  observer.observe({ entryTypes: ['gc'] });
  return async () => {
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    for (const entry of observer.takeRecords()) ms += entry.duration;
    observer.disconnect();
    return ms;
  };
}

/** CPU time of this process since `start` (user + system), ms: on a shared machine it says what the work costs. */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const round = (v: number, digits = 1) => Math.round(v * 10 ** digits) / 10 ** digits;

export const benchmark: Benchmark = {
  name: 'desktop-cache',
  async run({ log }) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-cache-'));
    try {
      const loadAtStart = os.loadavg()[0]!;
      const { ms: floorMs, cpuMs: floorCpuMs } = floorRun(path.join(dir, 'floor.sqlite'));
      log(`floor: ${round(floorMs)} ms (CPU ${round(floorCpuMs)} ms)`);

      // First sync through the real sync code; the time split into parsing (the source) and cache writes.
      log(`serving ${ROWS} contacts and ${ROWS} conversations as REST pages`);
      const contactPages = pagesOf(contactOf);
      const conversationPages = pagesOf(conversationOf);
      const parsing = { parseMs: 0 };
      const writing = { ms: 0 };
      const cache = new WorkspaceCache(path.join(dir, 'workspace.sqlite'));
      timeMethods(cache, ['beginFullSync', 'openBatch', 'putContacts', 'putConversations', 'commitBatch', 'putAttributes', 'putMembers', 'finishFullSync'], writing);
      const sync = createSync({ api: inProcessSource(contactPages, conversationPages, parsing), cache, workspaceId: WS, conversationsWithMessages: 0 });
      let gc = gcPauses();
      let t0 = performance.now();
      let cpu0 = process.cpuUsage();
      await sync.fullSync();
      const syncMs = performance.now() - t0;
      const syncCpuMs = cpuMsSince(cpu0);
      const syncGcMs = await gc();
      log(`first sync: ${round(syncMs)} ms (CPU ${round(syncCpuMs)} ms; parsing ${round(parsing.parseMs)} ms, cache writes ${round(writing.ms)} ms, garbage collection ${round(syncGcMs)} ms)`);
      const counted = cache.db
        .prepare(
          `SELECT (SELECT count(*) FROM contacts) AS contacts, (SELECT count(*) FROM conversations) AS conversations,
             (SELECT count(*) FROM contacts_fts WHERE contacts_fts MATCH 'lovelace') AS found,
             (SELECT count(*) FROM contacts WHERE name LIKE '% Lovelace %') AS lovelaces`,
        )
        .get() as { contacts: number; conversations: number; found: number; lovelaces: number };
      // every row stored, and the search index built over all of them
      if (counted.contacts !== ROWS || counted.conversations !== ROWS || counted.found !== counted.lovelaces) throw new Error(`sync stored ${JSON.stringify(counted)}`);

      // Offline contact search: any word (first name, surname, city, number, e-mail), first page of 50.
      const queries = ['lovelace', 'grace', 'lisbon', 'hopper ada', 'user4242', 'turing porto', 'vip', 'johnson', 'dijk', '4155'];
      const searchMs: number[] = [];
      let found = 0;
      for (let round = 0; round < 30; round++) {
        for (const q of queries) {
          const s = performance.now();
          found += cache.searchContacts({ search: q, limit: 50 }).items.length;
          searchMs.push(performance.now() - s);
        }
      }

      // 10,000 stream events (as JSON text off the wire: parsed, then applied in the stream's batches).
      const frames: string[] = [];
      let seq = cache.lastSeq;
      for (let i = 0; i < EVENTS; i++) {
        const n = 1 + (i % ROWS);
        const conversation = conversationOf(ROWS - n + 1);
        const event: WorkspaceEvent =
          i % 10 === 9
            ? { seq: ++seq, workspaceId: WS, type: 'contact.updated', createdAt: at(ROWS + i), payload: { contact: { ...conversation.Contact, name: `Renamed ${i}` } } }
            : { seq: ++seq, workspaceId: WS, type: 'message.created', createdAt: at(ROWS + i), payload: { message: messageOf(ROWS + i, conversation.id, 1) } };
        frames.push(JSON.stringify(event));
      }
      let eventsParseMs = 0;
      gc = gcPauses();
      t0 = performance.now();
      cpu0 = process.cpuUsage();
      for (let i = 0; i < frames.length; i += 50) {
        const s = performance.now();
        const batch = frames.slice(i, i + 50).map((f) => WorkspaceEventSchema.parse(JSON.parse(f)));
        eventsParseMs += performance.now() - s;
        sync.apply(batch);
      }
      const eventsMs = performance.now() - t0;
      const eventsCpuMs = cpuMsSince(cpu0);
      const eventsGcMs = await gc();
      log(`${EVENTS} events: ${round(eventsMs)} ms (CPU ${round(eventsCpuMs)} ms; parsing ${round(eventsParseMs)} ms, garbage collection ${round(eventsGcMs)} ms)`);
      const loadAtEnd = os.loadavg()[0]!;
      if (cache.lastSeq !== seq) throw new Error('not every event was applied');
      await sync.stop();
      cache.close();

      return {
        metrics: {
          firstSyncSeconds: { value: round(syncMs / 1000, 2), unit: 's', goal: 5, description: `first sync of ${ROWS} conversations (with contact and last message) and ${ROWS} contacts, pages of ${PAGE}, parsed with the route schemas` },
          firstSyncFloorSeconds: { value: round(floorMs / 1000, 2), unit: 's', description: 'the same rows as stored column values, plain INSERTs into the same tables and indexes, one transaction, both FTS indexes built once at the end' },
          firstSyncCpuSeconds: { value: round(syncCpuMs / 1000, 2), unit: 's', description: 'CPU time of the first sync (user + system): on a loaded machine, what it costs' },
          firstSyncFloorCpuSeconds: { value: round(floorCpuMs / 1000, 2), unit: 's', description: 'CPU time of the floor' },
          firstSyncVsFloor: { value: round(syncMs / floorMs, 2), unit: 'x', description: 'first sync / floor' },
          firstSyncWritesSeconds: { value: round(writing.ms / 1000, 2), unit: 's', description: 'of the first sync: the cache\'s own SQLite work (upserts, 1,000 rows per transaction, FTS built at the end, a checkpoint), comparable to the floor' },
          firstSyncGcSeconds: { value: round(syncGcMs / 1000, 2), unit: 's', description: 'of the first sync: garbage collection pauses (they fall inside the two figures above)' },
          firstSyncParseSeconds: { value: round(parsing.parseMs / 1000, 2), unit: 's', description: 'of the first sync: JSON.parse and the route schemas\' check of the 1,000 pages' },
          contactSearchP95: { value: round(percentile(searchMs, 95), 2), unit: 'ms', goal: 50, description: `FTS5 contact search over ${ROWS} contacts, first page of 50; queries ${queries.join(' | ')} (${found} rows returned in all)` },
          contactSearchP50: { value: round(percentile(searchMs, 50), 2), unit: 'ms', description: 'median of the same searches' },
          applyEventsMs: { value: round(eventsMs), unit: 'ms', goal: 1000, description: `${EVENTS} stream events (90% message.created, 10% contact.updated) parsed and applied in batches of 50` },
          applyEventsCpuMs: { value: round(eventsCpuMs), unit: 'ms', description: 'CPU time of applying the events (user + system)' },
          applyEventsGcMs: { value: round(eventsGcMs), unit: 'ms', description: 'of which garbage collection pauses' },
          applyEventsParseMs: { value: round(eventsParseMs), unit: 'ms', description: 'of which JSON.parse and the event schema check' },
        },
        notes: [
          `load average (1 min) at the start ${loadAtStart.toFixed(2)}, at the end ${loadAtEnd.toFixed(2)}, on ${os.cpus().length} cores`,
          'The first sync feeds REST pages as JSON text from an in-process source (parsed with JSON.parse and the route schemas, as the client does with a real answer) instead of the HTTP server: seeding and serving 200,000 rows through the server on this shared machine would measure the server, not the cache. The sync against the real server is covered by tests/main/cache-sync.test.ts.',
          'The floor is the least SQLite work that ends in the same database: the stored column values prepared beforehand, plain INSERTs into the same tables and indexes in one transaction, both FTS indexes built once at the end.',
        ],
      };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};
