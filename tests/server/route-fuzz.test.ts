/**
 * Generated fuzzing over the route table: for EVERY route of src/shared/api/routes.ts, fast-check
 * takes the route's valid example request and replaces one part of it (a body field at any depth, a path
 * parameter, a query parameter) with hostile input: NUL and lone surrogates, 100 kB strings, right-to-left and
 * zero-width characters, NaN-like and huge numbers, deep and wide JSON, `__proto__` keys, malformed cursors and
 * ids of another workspace. Every answer must be below 500 and, when refused, `{ statusCode, message, error }`;
 * the other workspace must not change. Routes added later are fuzzed without anyone remembering to.
 *
 * Run time is bounded: a few runs per route and a time limit per route (seed printed on failure to replay).
 */
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { type RouteDef, type RouteName, routeNames, routes } from '../../src/shared/api/routes';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { type Seeded, seedWorkspace, snapshotWorkspace } from '../support/fixtures';
import { exampleBody, exampleParams } from '../support/route-examples';

// FUZZ_RUNS raises the runs for a deeper local search (seeds of failures are printed to replay).
const runsPerRoute = Number(process.env.FUZZ_RUNS ?? 5);
// Generous: the limit bounds a slow route, and fast-check counts a property stopped before its first run as failed.
const msPerRoute = 5000 * Math.max(1, runsPerRoute / 5);

let ta: TestApp;
let caller: Session;
let other: Session;
let mine: Seeded;
let theirs: Seeded;

beforeAll(async () => {
  ta = await buildTestApp();
  caller = await ta.newAdmin('Fuzz Caller');
  other = await ta.newAdmin('Fuzz Bystander');
  mine = await seedWorkspace(ta, caller);
  theirs = await seedWorkspace(ta, other);
});
afterAll(async () => {
  await ta?.close();
});

const cursorOf = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** Hostile values, each a JSON value (or raw JSON text for what JSON.stringify cannot say). */
const hostileString = fc.oneof(
  fc.constantFrom(
    'a\u0000b',
    '\u0000',
    '\uD800',
    'x\uDFFFy',
    '\u202Eevil\u202C',
    '\u200B\u200C\u200D\uFEFF',
    'مرحبا بالعالم',
    "'; drop table contacts; --",
    '%00',
    '../../etc/passwd',
    '{{1}}{{2}}',
    'NaN',
    'Infinity',
    '-1',
    '1e400',
    '0x10',
    ' ',
    '',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constant('x'.repeat(100_000)),
  fc.constant('😀'.repeat(30_000)),
);
const hostileNumber = fc.oneof(
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, 1e308, -1e308, -1, 0, 2 ** 31, -(2 ** 63), 0.5),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const deepJson = fc.integer({ min: 20, max: 60 }).map((n) => JSON.parse('['.repeat(n) + ']'.repeat(n)) as unknown);
const wideJson = fc.constantFrom(
  Array.from({ length: 5000 }, (_, i) => i),
  Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, 'v'])),
  Array.from({ length: 3000 }, () => ({ id: 'x' })),
);
const malformedCursor = fc.constantFrom(
  cursorOf([new Date().toISOString(), 'not-a-uuid']),
  cursorOf(['+275760-09-13T00:00:00.000Z', '00000000-0000-4000-8000-000000000000']),
  cursorOf({ __proto__: { at: 1 } }),
  'not a cursor',
  '====',
  cursorOf('x'.repeat(300)),
);
const theirId = fc.constantFrom<() => string>(
  () => theirs.workspaceId,
  () => theirs.inviteToken,
  ...Object.keys({ bot: 1, campaign: 1, attribute: 1, contact: 1, conversation: 1, invitee: 1, segment: 1, whatsappTemplate: 1, whatsappAccount: 1 }).map(
    (k) => () => theirs.ids[k as keyof Seeded['ids']],
  ),
).map((f) => f());

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileString, weight: 4 },
  { arbitrary: hostileNumber, weight: 2 },
  { arbitrary: theirId, weight: 2 },
  { arbitrary: malformedCursor, weight: 1 },
  { arbitrary: deepJson, weight: 1 },
  { arbitrary: wideJson, weight: 1 },
  { arbitrary: fc.constantFrom(null, true, [], {}, [null]), weight: 1 },
);

/** Every place in a JSON value where a hostile value can go: [] is the value itself. */
function pathsOf(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pathsOf(v, [...at, i])));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...at, k]));
  return out;
}
function replaced(value: unknown, path: (string | number)[], by: unknown): unknown {
  if (path.length === 0) return by;
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  copy[head] = replaced(copy[head], rest, by);
  return copy;
}

type Mutation =
  | { where: 'body'; path: number; value: unknown }
  | { where: 'proto'; value: unknown }
  | { where: 'param'; index: number; value: unknown }
  | { where: 'query'; key: string; value: unknown };

function mutationFor(def: RouteDef): fc.Arbitrary<Mutation> {
  const options: fc.Arbitrary<Mutation>[] = [];
  if (def.body) {
    options.push(fc.record({ where: fc.constant('body' as const), path: fc.nat(), value: hostileValue }));
    options.push(fc.record({ where: fc.constant('proto' as const), value: fc.constantFrom<unknown>({ isAdmin: true }, { workspaceId: 'x' }, null, 1) }));
  }
  if (def.params) options.push(fc.record({ where: fc.constant('param' as const), index: fc.nat(), value: fc.oneof(hostileString, theirId) }));
  const queryKeys = [...Object.keys(def.query?.shape ?? {}), 'limit', 'cursor', '__proto__', 'constructor'];
  options.push(fc.record({ where: fc.constant('query' as const), key: fc.constantFrom(...queryKeys), value: fc.oneof(hostileString, malformedCursor, theirId, hostileNumber.map(String)) }));
  return fc.oneof(...options);
}

/** The request a mutation makes of the route's valid example. */
function requestOf(name: RouteName, def: RouteDef, m: Mutation) {
  const params = exampleParams(def, mine);
  let body: unknown = exampleBody(name, mine);
  let raw: string | undefined;
  const query: Record<string, string> = {};
  if (m.where === 'body') {
    const paths = pathsOf(body);
    body = replaced(body, paths[m.path % paths.length], m.value);
  } else if (m.where === 'proto') {
    // JSON text: a JS object literal would set the prototype instead of sending the key.
    const text = JSON.stringify(body ?? {});
    raw = text.startsWith('{') ? `{"__proto__":${JSON.stringify(m.value)},"constructor":{"prototype":{"x":1}}${text === '{}' ? '' : ','}${text.slice(1)}` : text;
  } else if (m.where === 'param') {
    const keys = Object.keys(params);
    if (keys.length) params[keys[m.index % keys.length]] = String(m.value);
  } else {
    query[m.key] = String(m.value);
  }
  const payload = raw ?? (body === undefined ? undefined : JSON.stringify(body));
  return { url: def.path.replace(/:([A-Za-z]+)/g, (_, k: string) => encodeAny(params[k])), query, payload };
}

/** The rows of every workspace this member is in, as snapshotWorkspace shows them. */
async function snapshotOfMember(memberId: string): Promise<string> {
  const memberships = await ta.db.select().from(t.workspaceMembers).where(eq(t.workspaceMembers.memberId, memberId));
  const snapshots = await Promise.all(memberships.map((m) => snapshotWorkspace(ta, m.workspaceId)));
  return snapshots.join(' ');
}

/** encodeURIComponent, except that a lone surrogate (which it refuses) goes as the bytes a raw client would send. */
function encodeAny(value: string): string {
  return [...value]
    .map((ch) => {
      try {
        return encodeURIComponent(ch);
      } catch {
        const c = ch.charCodeAt(0);
        return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
      }
    })
    .join('');
}

const entries = routeNames.map((n) => [n, routes[n] as RouteDef] as const);

describe.each(entries)('%s', (name, def) => {
  it('answers hostile input below 500, in the error shape, without touching another workspace', async () => {
    const before = await snapshotWorkspace(ta, theirs.workspaceId);
    await fc.assert(
      fc.asyncProperty(mutationFor(def), async (m) => {
        const { url, query, payload } = requestOf(name, def, m);
        const res = await ta.call(def.method, url, {
          token: caller.token,
          query,
          body: payload,
          headers: payload === undefined ? {} : { 'content-type': 'application/json' },
        });
        const label = `${def.method} ${url.slice(0, 120)} ${JSON.stringify(query).slice(0, 120)} ${String(payload).slice(0, 160)}: ${res.statusCode} ${res.body.slice(0, 200)}`;
        // A route whose capability has not landed answers 501 once access is granted.
        if (!(def.pending && res.statusCode === 501)) expect(res.statusCode, label).toBeLessThan(500);
        if (res.statusCode >= 400) {
          const answer = res.json();
          expect(Object.keys(answer).sort(), label).toEqual(['error', 'message', 'statusCode']);
          expect(answer.statusCode).toBe(res.statusCode);
          expect(typeof answer.error).toBe('string');
          expect(typeof answer.message === 'string' || Array.isArray(answer.message), label).toBe(true);
        }
        // Nothing of the other workspace leaks into an answer. A value the caller sent (their invitation token as its
        // own bot's title, say, in this request or an earlier one) may come back from the caller's own stored rows:
        // that is an echo, not a leak, so a hit is a leak unless the caller's own data holds the value: the rows of
        // every workspace the caller is in (a workspace this request created, named so, included) and their member row.
        for (const secret of [theirs.inviteToken, other.member.id]) {
          if (!res.body.includes(secret)) continue;
          const own = `${await snapshotOfMember(caller.member.id)} ${JSON.stringify(await ta.db.select().from(t.members).where(eq(t.members.id, caller.member.id)))}`;
          expect(own.includes(secret), `${label}: answers ${secret} of the other workspace`).toBe(true);
        }
      }),
      { numRuns: runsPerRoute, interruptAfterTimeLimit: msPerRoute, markInterruptAsFailure: false },
    );
    expect(await snapshotWorkspace(ta, theirs.workspaceId)).toBe(before);
  });
});

/**
 * Deterministic sweep beside the fuzzing: every id in a route's example (body field at any depth, path parameter)
 * replaced by text that is no id at all. The row it names cannot exist, so the answer is a refusal, never a 500.
 */
/** The deterministic sweeps' own caller and workspace, seeded once and untouched by the fuzzing above. */
let sweepSeed: Promise<{ caller: Session; seeded: Seeded }> | undefined;
function sweepWorkspace() {
  sweepSeed ??= ta.newAdmin('Sweep Caller').then(async (caller) => ({ caller, seeded: await seedWorkspace(ta, caller) }));
  return sweepSeed;
}
const UUID_LIKE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
describe('every id given as text that is no id', () => {
  // A workspace of its own: the fuzzing above may have deleted the seeded rows, and a route whose resource is
  // gone answers 404 before it ever reads the id under test.
  let sweeper: Session;
  let fresh: Seeded;
  beforeAll(async () => {
    ({ caller: sweeper, seeded: fresh } = await sweepWorkspace());
  });
  it.each(entries)('%s answers below 500', async (name, def) => {
    const example = exampleBody(name, fresh);
    const bodyIds = pathsOf(example).filter((p) => p.length > 0 && UUID_LIKE.test(String(p.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], example))));
    const params = exampleParams(def, fresh);
    const cases = [
      ...bodyIds.map((p) => ({ url: def.path.replace(/:([A-Za-z]+)/g, (_, k: string) => encodeURIComponent(params[k])), payload: JSON.stringify(replaced(example, p, '{{1}}')) })),
      ...Object.keys(params).map((k) => ({
        url: def.path.replace(/:([A-Za-z]+)/g, (_, key: string) => encodeURIComponent(key === k ? 'not-an-id' : params[key])),
        payload: example === undefined ? undefined : JSON.stringify(example),
      })),
    ];
    for (const c of cases) {
      const res = await ta.call(def.method, c.url, { token: sweeper.token, body: c.payload, headers: c.payload === undefined ? {} : { 'content-type': 'application/json' } });
      if (def.pending && res.statusCode === 501) continue;
      expect(res.statusCode, `${def.method} ${c.url} ${String(c.payload).slice(0, 200)}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
    }
  });
});

/**
 * Deterministic sweep beside the fuzzing: every route that takes a body, given an empty object. A patch that
 * changes nothing is a valid request for most of them (the answer is the row as it is); for the others, a refusal.
 * Never a 500 (an update statement with nothing to set is the classic way to get one).
 */
describe('every body given as an empty object', () => {
  let caller2: Session;
  let fresh: Seeded;
  beforeAll(async () => {
    ({ caller: caller2, seeded: fresh } = await sweepWorkspace());
  });
  it.each(entries.filter(([, def]) => def.body !== undefined || def.multipart !== undefined))('%s answers below 500', async (_name, def) => {
    const params = exampleParams(def, fresh);
    const url = def.path.replace(/:([A-Za-z]+)/g, (_, key: string) => encodeURIComponent(params[key]));
    const res = await ta.call(def.method, url, { token: caller2.token, body: '{}', headers: { 'content-type': 'application/json' } });
    if (def.pending && res.statusCode === 501) return;
    expect(res.statusCode, `${def.method} ${url}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
  });
});
