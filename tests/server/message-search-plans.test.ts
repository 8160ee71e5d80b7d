/**
 * The workspace message search answers the same pages whichever plan it takes (repositories/message-search.ts):
 * a word in at most 2,000 messages (the index's matches fetched by id and sorted) and a word in more (the walk of
 * the newest-first index), on the first page and on later ones (a dense word's tail is selective again). Each is
 * paged to its end with cursors and compared with the same search done in memory; another workspace's messages
 * with the same words never show.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { Database } from '../../src/server/db/client';
import { workspaceMatches } from '../../src/server/repositories/message-search';
import { openTestDatabase } from '../support/server';

let database: Database;
let dispose: () => Promise<void>;
const TOTAL = 4_500;

/** The words of message i (0 = oldest): `dense` in every 10th, `rare` in three old ones, `broad` in 2,100 old ones. */
function textOf(i: number): string {
  const words = [`note ${i}`];
  if (i % 10 === 3) words.push('dense');
  if (i === 17 || i === 900 || i === 1_800) words.push('rare');
  if (i < 2_100) words.push('broad');
  return words.join(' ');
}

async function seed(name: string): Promise<{ ws: string; texts: string[] }> {
  const db = database.db;
  const [w] = await db.insert(t.workspaces).values({ name }).returning();
  const [contact] = await db.insert(t.contacts).values({ workspaceId: w.id, name: `${name} customer`, phoneNumber: '+14155550123' }).returning();
  const [conversation] = await db.insert(t.conversations).values({ workspaceId: w.id, contactId: contact.id }).returning();
  const start = Date.UTC(2026, 10, 1);
  const texts = Array.from({ length: TOTAL }, (_, i) => textOf(i));
  for (let from = 0; from < TOTAL; from += 500) {
    await db.insert(t.messages).values(
      texts.slice(from, from + 500).map((text, k) => ({
        workspaceId: w.id,
        conversationId: conversation.id,
        type: 'text' as const,
        text,
        creator: 'user' as const,
        status: 'received',
        createdAt: new Date(start + (from + k) * 1000),
      })),
    );
  }
  return { ws: w.id, texts };
}

/** Every page of a search, its texts in the order answered. */
async function allPages(ws: string, word: string, limit: number): Promise<string[]> {
  const texts: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 200; pages++) {
    const page = await workspaceMatches(database.db, ws, [word], { limit, cursor });
    expect(page.items.length).toBeLessThanOrEqual(limit);
    texts.push(...page.items.map((h) => h.message.text!));
    if (!page.nextCursor) return texts;
    cursor = page.nextCursor;
  }
  throw new Error('more pages than messages');
}

let mine: { ws: string; texts: string[] };

beforeAll(async () => {
  ({ database, dispose } = await openTestDatabase());
  mine = await seed('Searching Shop');
  await seed('Other Shop');
}, 120_000);
afterAll(async () => {
  await dispose?.();
});

describe('workspace message search', () => {
  const newestFirst = (word: string) =>
    mine.texts
      .map((text, i) => ({ text, i }))
      .filter((m) => m.text.split(' ').includes(word))
      .sort((a, b) => b.i - a.i)
      .map((m) => m.text);

  it.each([
    ['dense', 50, 'a word in every tenth message: matches fetched by id'],
    ['rare', 2, 'a word in three old messages: the matches are fetched by id'],
    ['broad', 50, 'a word in 2,100 old messages: the newest-first walk'],
  ])('answers every match of %s once, newest first, page by page (%s per page: %s)', async (word, limit) => {
    const expected = newestFirst(word);
    const got = await allPages(mine.ws, word, limit);
    expect(got).toHaveLength(expected.length);
    // texts are unique per message (`note i`), so equal lists mean the same messages in the same order
    expect(got).toEqual(expected);
  }, 120_000);

  it('the first page of a dense word is its newest matches, with a cursor to the rest', async () => {
    const page = await workspaceMatches(database.db, mine.ws, ['dense'], { limit: 50 });
    expect(page.items.map((h) => h.message.text)).toEqual(newestFirst('dense').slice(0, 50));
    expect(page.nextCursor).not.toBeNull();
  });
});
