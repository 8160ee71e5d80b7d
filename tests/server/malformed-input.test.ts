/**
 * Malformed input that used to reach SQL, the multipart parser or the job queue and answer 500:
 * cursors naming no row, multipart bodies without their closing boundary, JSON nested 20,000 levels deep.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RouteDef, routeNames, routes } from '../../src/shared/api/routes';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { type Seeded, seedWorkspace } from '../support/fixtures';
import { exampleBody, exampleUrl } from '../support/route-examples';
import { postWebhook } from '../support/sandbox-webhooks';

let ta: TestApp;
let admin: Session;
let s: Seeded;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Malformed Ltd');
  s = await seedWorkspace(ta, admin);
});
afterAll(async () => {
  await ta?.close();
});

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const entries = routeNames.map((n) => [n, routes[n] as RouteDef] as const);
const paged = entries.filter(([, d]) => d.query && 'cursor' in d.query.shape && !d.stream);

describe.each(paged)('%s', (_name, def) => {
  it('answers 400 to a cursor with a non-UUID id, a date out of range, or the wrong shape', async () => {
    const now = new Date().toISOString();
    const cursors = [
      cursorOf([now, 'not-a-uuid']),
      cursorOf([now, "1' or '1'='1"]),
      cursorOf(['+275760-09-13T00:00:00.000Z', '00000000-0000-4000-8000-000000000000']),
      cursorOf(['-000001-01-01T00:00:00.000Z', '00000000-0000-4000-8000-000000000000']),
      cursorOf([12, '00000000-0000-4000-8000-000000000000']),
      cursorOf({ at: now }),
      cursorOf(null),
    ];
    for (const cursor of cursors) {
      const res = await ta.call('GET', exampleUrl(def, s), { token: admin.token, query: { cursor } });
      expect(res.statusCode, Buffer.from(cursor, 'base64url').toString()).toBe(400);
      expect(res.json()).toEqual({ statusCode: 400, message: 'Invalid cursor', error: 'Bad Request' });
    }
  });
});

const uploads = entries.filter(([, d]) => d.multipart);

describe.each(uploads)('%s', (_name, def) => {
  it('answers 400 to a multipart body without its closing boundary', async () => {
    const boundary = '----parleytruncated';
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="${def.multipart!.field}"; filename="a.png"\r\n` +
      `Content-Type: ${def.multipart!.mimeTypes[0]}\r\n\r\n`;
    for (const payload of [head + 'x'.repeat(2000), head, `--${boundary}\r\nContent-Disposition: form-da`]) {
      const res = await ta.app.inject({
        method: def.method,
        url: exampleUrl(def, s),
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(res.statusCode, payload.slice(-30)).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
  });
});

const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

describe('deeply nested JSON', () => {
  it('a signed webhook nested 20,000 levels deep answers 400 and queues nothing', async () => {
    const queued: unknown[] = [];
    const channel = ta.app.parley.services.channel;
    const original = channel.enqueueWebhook;
    channel.enqueueWebhook = async (payload: unknown) => {
      queued.push(payload);
    };
    try {
      for (const raw of [deep(20_000), `{"object":"whatsapp_business_account","entry":${deep(20_000)}}`]) {
        const res = await postWebhook(ta, raw);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      }
      // Brackets inside strings are text, not nesting.
      expect((await postWebhook(ta, { object: 'whatsapp_business_account', entry: [], note: '['.repeat(500) })).statusCode).toBe(200);
    } finally {
      channel.enqueueWebhook = original;
    }
    expect(queued).toHaveLength(1);
  });

  it.each(entries.filter(([, d]) => d.body))('%s answers 400 to a body nested 20,000 levels deep', async (name, def) => {
    const valid = exampleBody(name, s);
    const raw = Array.isArray(valid) ? deep(20_000) : `{"x":${deep(20_000)}}`;
    const res = await ta.call(def.method, exampleUrl(def, s), { token: admin.token, body: raw, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The JSON body nests deeper than 64 levels');
  });
});
