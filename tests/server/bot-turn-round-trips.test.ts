/**
 * The round trips of a bot turn (PGlite and PostgreSQL): the turn reads the conversation, its session, the
 * messages to apply, the attribute values and the bot's version in one statement, and writes one statement per
 * table. Each statement is a round trip to the database on the reply's path (and CPU on both sides), so the count
 * is pinned here: a change that adds one shows up as a failure naming the statements.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readTurn } from '../../src/server/repositories/bot-turn-read';
import type { SandboxAccount } from '../../src/sandbox';
import { landedIn } from '../support/customers';
import { buildTestApp, onPostgres, type Session, type TestApp } from '../support/server';
import { loopCanvas } from '../support/loop-bot';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });
let ta: TestApp;
let admin: Session;
let number: SandboxAccount;


beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Round Trip Bakery');
  const body = (b: object) => ({ token: admin.token, body: { ...b, workspaceId: admin.workspaceId } });
  const wish = (await ta.call('POST', '/attribute', body({ name: 'wish', format: 'text', type: 'contact' }))).json();
  number = ta.sandbox.addAccount();
  const account = (await ta.call('POST', '/whatsapp', body({ ...number, verifiedName: undefined }))).json();
  const bot = (await ta.call('POST', '/bot', body({ title: 'Loop' }))).json();
  expect((await ta.call('PATCH', `/bot/${bot.id}`, { token: admin.token, body: { rfInstance: loopCanvas(wish.id) } })).statusCode).toBe(200);
  expect((await ta.call('PATCH', `/bot/${bot.id}/connectWaba`, { token: admin.token, body: { wabaAccountId: account.id } })).statusCode).toBe(200);
  expect((await ta.call('PATCH', `/bot/${bot.id}`, { token: admin.token, body: { isActive: true } })).json()).toMatchObject({ isActive: true });
});
afterAll(async () => {
  await ta?.close();
});

/** What a statement writes or reads, by its text. */
function kindOf(text: string): string {
  const s = text.replace(/\s+/g, ' ').trim().toLowerCase();
  if (s.startsWith('with c as')) return 'read the turn';
  // append_workspace_events: the log's lock, its sequence and the rows in one statement.
  if (s.includes('workspace_events')) return 'insert events';
  if (s.includes('pgboss.job')) return 'insert a job';
  const m = /^(insert into|update) "?([a-z_]+)"?/.exec(s);
  return m ? `${m[1] === 'update' ? 'update' : 'insert into'} ${m[2]}` : s.slice(0, 80);
}

/**
 * The statements of the transaction of the next `bots.turn` the app runs (BEGIN, COMMIT and the like left out:
 * PGlite runs those itself), while `act` runs.
 */
async function statementsOfNextTurn(act: () => Promise<unknown>): Promise<string[]> {
  const app = ta.app.parley;
  const inTurn = new AsyncLocalStorage<{ counting: boolean }>();
  const inTransaction = new AsyncLocalStorage<string[]>();
  const seen: string[][] = [];
  const session = (ta.db as unknown as { session: object }).session;
  const proto = Object.getPrototypeOf(session) as { prepareQuery: (q: { sql: string }, ...rest: unknown[]) => unknown };
  const prepareQuery = proto.prepareQuery;
  proto.prepareQuery = function (this: unknown, q, ...rest) {
    const list = inTransaction.getStore();
    if (list && !/^\s*(begin|commit|rollback|savepoint|release)/i.test(q.sql)) list.push(q.sql);
    return prepareQuery.call(this, q, ...rest);
  };
  const transaction = ta.database.transaction;
  ta.database.transaction = (fn) => {
    const turn = inTurn.getStore();
    if (!turn?.counting) return transaction(fn);
    // The turn's own transaction only (its sends' writes come after it, in the same async context).
    turn.counting = false;
    const list: string[] = [];
    seen.push(list);
    return transaction((tx) => inTransaction.run(list, () => fn(tx)));
  };
  const onInbound = app.services.bots.onInbound;
  app.services.bots.onInbound = (data) => inTurn.run({ counting: true }, () => onInbound(data));
  try {
    await act();
    await app.jobs.drain({ timeoutMs: 30_000 });
  } finally {
    app.services.bots.onInbound = onInbound;
    ta.database.transaction = transaction;
    proto.prepareQuery = prepareQuery;
  }
  expect(seen).toHaveLength(1);
  return seen[0].map(kindOf);
}

describe("a bot turn's round trips", () => {
  const waId = '16508870001';
  const say = (text: string) => ta.sandbox.customers.say(waId, text, { phoneNumberId: number.phoneNumberId });

  it('starting a session: one read, then one statement per table (the session inserted with the state its walk reached)', async () => {
    const statements = await statementsOfNextTurn(() => say('hi'));
    expect(statements).toEqual([
      'read the turn',
      'update conversations',
      'insert into conversation_events',
      'insert into bot_sessions',
      // The session's expiry, then the turn's sends (bots.deliver).
      'insert a job',
      'insert a job',
      'insert events',
    ]);
    expect(ta.sandbox.sent.filter((m) => m.waId === waId)).toHaveLength(1);
  });

  it('answering the waiting question: one read, the contact, the session, the sends job and the events', async () => {
    const statements = await statementsOfNextTurn(() => say('cakes'));
    expect(statements).toEqual(['read the turn', 'update contacts', 'update bot_sessions', 'insert a job', 'insert events']);
    // The reply and the question again.
    expect(ta.sandbox.sent.filter((m) => m.waId === waId)).toHaveLength(3);
  });

  // PGlite is one session: no turn can commit while another waits for its lock.
  it.skipIf(!onPostgres)('reads again when a turn of the conversation committed while this one waited for its lock', async () => {
    const { conversation } = await landedIn(ta, admin.workspaceId, waId);
    const ws = admin.workspaceId;
    const read = () => ta.database.transaction((tx) => readTurn(tx, ws, conversation.id, new Date(0), new Date(), []));
    expect((await read()).stale).toBe(false);
    // Another turn: holds the conversation, moves the session on, commits once the read below is waiting for it.
    let locked!: () => void;
    let commit!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const mayCommit = new Promise<void>((r) => (commit = r));
    const other = ta.database.transaction(async (tx) => {
      await tx.execute(sql`select id from conversations where id = ${conversation.id} for update`);
      await tx.execute(sql`update bot_sessions set step = step + 1 where conversation_id = ${conversation.id} and status = 'active'`);
      locked();
      await mayCommit;
    });
    await isLocked;
    const waiting = read();
    await sleep(300);
    commit();
    await other;
    const got = await waiting;
    expect(got.stale).toBe(true);
    // Read again (what the turn does), under the lock, after that commit: nothing is stale and the step is the new one.
    const again = await read();
    expect(again.stale).toBe(false);
    expect(again.facts.session?.step).toBe(got.facts.session?.step);
  });
});
