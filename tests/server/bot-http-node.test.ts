/**
 * The bot runtime's HTTPRequest node as a unit (the `bots` part of the mutation score, seconds per
 * mutant): the network rule (public addresses only, unless the host is allowed by name), the answer's limits and
 * words, the JSONPath subset of response mappings, and how the node builds its call. A local HTTP server stands
 * in for the internet; it is reached only through BOT_HTTP_ALLOWED_HOSTS, which is the rule under test.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BotNode } from '../../src/shared';
import { allowedHosts, applyHttpOutcome, buildHttpCall, guardedFetch, isPublicAddress, valueAtPath } from '../../src/server/bots/http-node';
import type { ExecContext, HttpCall, HttpOutcome } from '../../src/server/bots/executor-contract';

let server: http.Server;
let port = 0;
const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
/** Paths whose answer the server saw closed before it had finished sending it. */
const cutOff: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const path = req.url!.split('?')[0];
      if (path === '/json') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"order":{"status":"shipped","items":[{"sku":"A1"}]}}');
      if (path === '/text') return res.writeHead(201).end('plain words');
      if (path === '/missing') return res.writeHead(404).end('nope');
      if (path === '/redirect') return res.writeHead(302, { location: '/json' }).end();
      if (path === '/huge') {
        res.writeHead(200);
        const block = Buffer.alloc(64 * 1024, 97);
        for (let i = 0; i < 17; i++) res.write(block);
        return res.end();
      }
      if (path === '/exact') return res.writeHead(200).end(Buffer.alloc(1_000_000, 98));
      if (path === '/300') return res.writeHead(300).end('multiple choices');
      if (path === '/endless') {
        // more than 1 MB, and then the answer stays open: only the caller can end it
        res.on('close', () => {
          if (!res.writableFinished) cutOff.push(path);
        });
        res.writeHead(200);
        const block = Buffer.alloc(64 * 1024, 97);
        for (let i = 0; i < 17; i++) res.write(block);
        return;
      }
      if (path === '/trickle') {
        // a byte every 50 ms for 20 s: never idle, never done in time
        res.writeHead(200);
        const tick = setInterval(() => res.write('x'), 50);
        const done = setTimeout(() => res.end(), 20_000);
        res.on('close', () => {
          clearInterval(tick);
          clearTimeout(done);
        });
        return;
      }
      if (path === '/drop') {
        // the headers and part of the body, then the connection is gone
        res.writeHead(200, { 'content-length': '100' });
        res.write('partial');
        setImmediate(() => res.socket?.destroy());
        return;
      }
      if (path === '/slow') return setTimeout(() => res.writeHead(200).end('late'), 1500);
      res.writeHead(299).end('odd but fine');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});
afterEach(() => {
  delete process.env.BOT_HTTP_ALLOWED_HOSTS;
});

const call = (over: Partial<HttpCall> & { url: string }): HttpCall => ({ method: 'GET', headers: {}, timeoutMs: 3000, ...over });
const local = (path: string) => `http://127.0.0.1:${port}${path}`;

describe('isPublicAddress', () => {
  it('passes unicast addresses on the public internet, v4, v6 and v4-mapped', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(isPublicAddress(a), a).toBe(true);
  });
  it('refuses private, loopback, link-local, metadata, CGNAT, multicast, unspecified and reserved addresses, and non-addresses', () => {
    for (const a of ['10.0.0.1', '172.16.0.1', '192.168.1.1', '127.0.0.1', '169.254.169.254', '100.64.0.1', '224.0.0.1', '0.0.0.0', '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'example.com', '']) {
      expect(isPublicAddress(a), a).toBe(false);
    }
  });
});

describe('allowedHosts', () => {
  it('reads BOT_HTTP_ALLOWED_HOSTS as comma-separated names, trimmed, in lower case, empties dropped', () => {
    expect([...allowedHosts()]).toEqual([]);
    process.env.BOT_HTTP_ALLOWED_HOSTS = ' Internal.Example ,, 127.0.0.1 ,';
    expect([...allowedHosts()]).toEqual(['internal.example', '127.0.0.1']);
  });
});

describe('guardedFetch: the network rule', () => {
  it('refuses an address written in the URL that is not public, naming it only in the detail the server logs', async () => {
    expect(await guardedFetch(call({ url: local('/json') }))).toEqual({ ok: false, reason: 'The address is not allowed: bots may call public addresses only', detail: '127.0.0.1 is not a public address' });
    expect(await guardedFetch(call({ url: 'http://[::1]:9/x' }))).toEqual({ ok: false, reason: 'The address is not allowed: bots may call public addresses only', detail: '::1 is not a public address' });
    expect(await guardedFetch(call({ url: 'http://169.254.169.254/latest/meta-data' }))).toEqual({ ok: false, reason: 'The address is not allowed: bots may call public addresses only', detail: '169.254.169.254 is not a public address' });
    expect(seen).toEqual([]);
  });

  it('refuses a name that resolves to a non-public address, at connection time; the address is in the logged detail only', async () => {
    const out = await guardedFetch(call({ url: `http://localhost:${port}/json` }));
    expect(out).toMatchObject({ ok: false, reason: 'The address is not allowed: bots may call public addresses only' });
    expect((out as { detail: string }).detail).toMatch(/^localhost resolves to a non-public address \((127\.0\.0\.1|::1)\)$/);
    expect(seen).toEqual([]);
  });

  it('lets a host allowed by name through, by address or by name, in any case', async () => {
    process.env.BOT_HTTP_ALLOWED_HOSTS = '127.0.0.1,LOCALHOST';
    expect(await guardedFetch(call({ url: local('/json') }))).toEqual({
      ok: true,
      status: 200,
      json: { order: { status: 'shipped', items: [{ sku: 'A1' }] } },
      text: '{"order":{"status":"shipped","items":[{"sku":"A1"}]}}',
    });
    const byName = await guardedFetch(call({ url: `http://LocalHost:${port}/text` }));
    expect(byName).toEqual({ ok: true, status: 201, json: null, text: 'plain words' });
  });

  it('answers a name that does not resolve in words, never throwing; the resolver error is in the logged detail only', async () => {
    // a label over 63 characters: the resolver refuses it locally, without asking any DNS server
    const host = `${'a'.repeat(64)}.example`;
    expect(await guardedFetch(call({ url: `http://${host}/x` }))).toEqual({ ok: false, reason: 'The server could not be reached', detail: `getaddrinfo ENOTFOUND ${host}` });
  });

  it('keeps the rule with happy eyeballs off (Node run with --no-network-family-autoselection)', async () => {
    // the socket then asks for one address instead of all of them
    const previous = net.getDefaultAutoSelectFamily();
    const other = http.createServer((_req, res) => res.end('two'));
    await new Promise<void>((r) => other.listen(0, 'localhost', r));
    const otherPort = (other.address() as AddressInfo).port;
    net.setDefaultAutoSelectFamily(false);
    try {
      const refused = await guardedFetch(call({ url: `http://localhost:${otherPort}/x` }));
      expect((refused as { detail: string }).detail).toMatch(/^localhost resolves to a non-public address \((127\.0\.0\.1|::1)\)$/);
      process.env.BOT_HTTP_ALLOWED_HOSTS = 'localhost';
      expect(await guardedFetch(call({ url: `http://localhost:${otherPort}/x` }))).toEqual({ ok: true, status: 200, json: null, text: 'two' });
    } finally {
      net.setDefaultAutoSelectFamily(previous);
      other.closeAllConnections();
      await new Promise((r) => other.close(r));
    }
  });

  it('calls an https address over TLS (here a plain HTTP server: the handshake fails, in words)', async () => {
    process.env.BOT_HTTP_ALLOWED_HOSTS = '127.0.0.1';
    seen.length = 0;
    const out = await guardedFetch(call({ url: `https://127.0.0.1:${port}/json` }));
    expect(out.ok).toBe(false);
    expect(out).toMatchObject({ reason: 'The server could not be reached' });
    expect((out as { detail: string }).detail).toMatch(/EPROTO|SSL|TLS|socket/i);
    // the server never saw an HTTP request: what arrived was a TLS handshake
    expect(seen).toEqual([]);
  });

  it('fails a header that is not a valid header (a line break, text outside Latin-1) in words, never throwing, sending nothing', async () => {
    process.env.BOT_HTTP_ALLOWED_HOSTS = '127.0.0.1';
    seen.length = 0;
    for (const value of ['a\r\nX-Admin: 1', '東京']) {
      expect(await guardedFetch(call({ url: local('/json'), headers: { 'X-City': value } }))).toEqual({
        ok: false,
        reason: 'The header "X-City" is not a valid header (a line break or a character outside Latin-1)',
      });
    }
    expect(await guardedFetch(call({ url: local('/json'), headers: { 'Bad Name': 'x' } }))).toMatchObject({ ok: false, reason: expect.stringContaining('"Bad Name"') });
    expect(seen).toEqual([]);
  });

  it('refuses URLs that are not http(s) or not URLs at all', async () => {
    expect(await guardedFetch(call({ url: 'not a url' }))).toEqual({ ok: false, reason: 'The URL is not valid' });
    for (const url of ['ftp://example.com/x', 'file:///etc/passwd', 'gopher://example.com']) {
      expect(await guardedFetch(call({ url })), url).toEqual({ ok: false, reason: 'Only http and https URLs are allowed' });
    }
  });
});

describe('guardedFetch: the answer', () => {
  beforeAll(() => undefined);
  const allow = () => {
    process.env.BOT_HTTP_ALLOWED_HOSTS = '127.0.0.1';
  };

  it('counts any 2xx as success and anything else as a failure with its status; redirects are not followed', async () => {
    allow();
    expect(await guardedFetch(call({ url: local('/odd') }))).toEqual({ ok: true, status: 299, json: null, text: 'odd but fine' });
    expect(await guardedFetch(call({ url: local('/missing') }))).toEqual({ ok: false, reason: 'The server answered 404', status: 404 });
    expect(await guardedFetch(call({ url: local('/redirect') }))).toEqual({ ok: false, reason: 'The server answered 302', status: 302 });
    expect(await guardedFetch(call({ url: local('/300') }))).toEqual({ ok: false, reason: 'The server answered 300', status: 300 });
  });

  it('counts a final answer below 200 as a failure too (a server answering 101 it was not asked for)', async () => {
    allow();
    const raw = net.createServer((socket) => socket.once('data', () => socket.end('HTTP/1.1 101 Switching Protocols\r\ncontent-length: 0\r\n\r\n')));
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
    try {
      const rawPort = (raw.address() as AddressInfo).port;
      expect(await guardedFetch(call({ url: `http://127.0.0.1:${rawPort}/x` }))).toEqual({ ok: false, reason: 'The server answered 101', status: 101 });
    } finally {
      await new Promise((r) => raw.close(r));
    }
  });

  it('leaves no timer behind once the answer is in (the node\'s timeout does not outlive its call)', async () => {
    allow();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      expect(await guardedFetch(call({ url: local('/json'), timeoutMs: 60_000 }))).toMatchObject({ ok: true, status: 200 });
      // the request closes right after its answer: give it a few turns of the event loop (no clock involved)
      for (let i = 0; i < 100 && vi.getTimerCount() > 0; i++) await new Promise((r) => setImmediate(r));
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives up on an answer over 1 MB, and keeps one of exactly 1 MB', async () => {
    allow();
    expect(await guardedFetch(call({ url: local('/huge') }))).toEqual({ ok: false, reason: 'The answer is larger than 1000000 bytes', status: 200 });
    const exact = await guardedFetch(call({ url: local('/exact') }));
    expect(exact.ok && exact.text.length).toBe(1_000_000);
  });

  it('stops downloading an answer over 1 MB: the connection is closed, not read to its end', async () => {
    allow();
    cutOff.length = 0;
    // a long timeout: only the size limit may end this call
    expect(await guardedFetch(call({ url: local('/endless'), timeoutMs: 120_000 }))).toEqual({ ok: false, reason: 'The answer is larger than 1000000 bytes', status: 200 });
    await expect.poll(() => cutOff, { timeout: 20_000, interval: 20 }).toEqual(['/endless']);
  });

  it('gives up at the node\'s timeout even on an answer that keeps trickling in', async () => {
    allow();
    expect(await guardedFetch(call({ url: local('/trickle'), timeoutMs: 300 }))).toEqual({ ok: false, reason: 'No answer within 300 ms' });
  });

  it('answers an answer cut off half-way as a failure in words', async () => {
    allow();
    expect(await guardedFetch(call({ url: local('/drop') }))).toEqual({ ok: false, reason: 'The server could not be reached', detail: 'aborted' });
  });

  it('gives up after the node\'s timeout, saying so', async () => {
    allow();
    const started = Date.now();
    expect(await guardedFetch(call({ url: local('/slow'), timeoutMs: 200 }))).toEqual({ ok: false, reason: 'No answer within 200 ms' });
    expect(Date.now() - started).toBeLessThan(1400);
  });

  it('sends the method, headers and body; sets the content type unless a header names one; never a body on GET', async () => {
    allow();
    seen.length = 0;
    await guardedFetch(call({ url: local('/text'), method: 'POST', headers: { 'x-token': 'abc' }, body: '{"a":1}', contentType: 'application/json' }));
    await guardedFetch(call({ url: local('/text'), method: 'PUT', headers: { 'Content-Type': 'text/csv' }, body: 'a,b', contentType: 'application/json' }));
    await guardedFetch(call({ url: local('/text'), method: 'PATCH', body: 'x' }));
    await guardedFetch(call({ url: local('/text'), method: 'GET', body: 'ignored', contentType: 'text/plain' }));
    expect(seen.map((s) => [s.method, s.headers['content-type'] ?? null, s.headers['x-token'] ?? null, s.body])).toEqual([
      ['POST', 'application/json', 'abc', '{"a":1}'],
      ['PUT', 'text/csv', null, 'a,b'],
      ['PATCH', null, null, 'x'],
      ['GET', 'text/plain', null, ''],
    ]);
  });

  it('puts no byte of a body on the wire after a GET', async () => {
    allow();
    // a raw server that answers at the end of the headers and then keeps everything else the client sends
    let received = '';
    let closed!: Promise<void>;
    const raw = net.createServer((socket) => {
      closed = new Promise((r) => socket.on('close', () => r()));
      socket.on('data', (chunk: Buffer) => {
        const before = received;
        received += chunk.toString('latin1');
        if (!before.includes('\r\n\r\n') && received.includes('\r\n\r\n')) socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok');
      });
    });
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
    try {
      const rawPort = (raw.address() as AddressInfo).port;
      expect(await guardedFetch(call({ url: `http://127.0.0.1:${rawPort}/x`, method: 'GET', body: 'must-not-be-sent' }))).toMatchObject({ ok: true, text: 'ok' });
      // every byte the client sent has arrived once the server's socket is closed
      await closed;
      expect(received).toMatch(/^GET \/x HTTP\/1\.1\r\n/);
      expect(received).not.toContain('must-not-be-sent');
    } finally {
      await new Promise((r) => raw.close(r));
    }
  });

  it('sends a POST without a body as one, with no content type even when one is named', async () => {
    allow();
    seen.length = 0;
    expect(await guardedFetch(call({ url: local('/text'), method: 'POST', contentType: 'application/json' }))).toEqual({ ok: true, status: 201, json: null, text: 'plain words' });
    expect(seen.map((s) => [s.method, s.headers['content-type'] ?? null, s.body])).toEqual([['POST', null, '']]);
  });

  it('answers a connection failure in words, never throwing', async () => {
    allow();
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const out = await guardedFetch(call({ url: `http://127.0.0.1:${deadPort}/x` }));
    expect(out).toEqual({ ok: false, reason: 'The server could not be reached', detail: expect.stringContaining('ECONNREFUSED') });
  });
});

describe('valueAtPath', () => {
  const json = { order: { status: 'shipped', 'the-id': 7, items: [{ sku: 'A1' }, { sku: 'B2' }], $meta: { n: 0 } }, 'a b': true };
  it('follows .keys, [indexes] and [\'quoted keys\'] from $', () => {
    expect(valueAtPath(json, '$')).toBe(json);
    expect(valueAtPath(json, '$.order.status')).toBe('shipped');
    expect(valueAtPath(json, '$.order.items[1].sku')).toBe('B2');
    expect(valueAtPath(json, "$['a b']")).toBe(true);
    expect(valueAtPath(json, "$.order['the-id']")).toBe(7);
    expect(valueAtPath(json, '$.order.the-id')).toBe(7);
    expect(valueAtPath(json, '$.order.$meta.n')).toBe(0);
    expect(valueAtPath(json, '$._x')).toBeUndefined();
  });
  it('answers undefined past a leaf, a null or a missing key', () => {
    expect(valueAtPath(json, '$.order.status.length')).toBeUndefined();
    expect(valueAtPath({ a: null }, '$.a.b')).toBeUndefined();
    expect(valueAtPath(json, '$.nothing.here')).toBeUndefined();
    expect(valueAtPath(null, '$.a')).toBeUndefined();
    expect(valueAtPath(json, '$.order.items[5]')).toBeUndefined();
  });
  it('reads indexes of more than one digit', () => {
    const list = { rows: Array.from({ length: 12 }, (_v, i) => ({ n: i })) };
    expect(valueAtPath(list, '$.rows[11].n')).toBe(11);
    expect(valueAtPath(list, '$.rows[10].n')).toBe(10);
  });
});

describe("the HTTP node's call", () => {
  type HttpNode = Extract<BotNode, { type: 'HTTPRequestNode' }>;
  /** Builds the call, makes it through the context's seam, stores the mapped values: what the executor does. */
  async function callHttpNode(n: HttpNode, c: ExecContext) {
    const outcome = (await c.env.http(buildHttpCall(n, c), { nodeId: n.id, key: '1:0' }))!;
    applyHttpOutcome(n, outcome, c);
    return outcome;
  }
  const node = (data: Partial<HttpNode['data']>): HttpNode =>
    ({ id: 'h1', type: 'HTTPRequestNode', position: { x: 0, y: 0 }, data: { url: 'https://api.example.com/x', method: 'GET', headers: [], bodyType: 'raw', ...data } }) as HttpNode;

  function context(answer: HttpOutcome, extra: Record<string, string> = {}) {
    const calls: HttpCall[] = [];
    const set: [string, string][] = [];
    const vars: Record<string, string> = { name: 'Ada Lovelace', city: 'São Paulo', token: 't0k', ...extra };
    const c = {
      env: {
        http: async (cl: HttpCall) => {
          calls.push(cl);
          return answer;
        },
      },
      fill: (text: string | undefined) => (text ?? '').replace(/\{\{\s*([^{}]+?)\s*\}\}/g, (_w, n: string) => vars[n] ?? ''),
      set: (id: string, v: string) => set.push([id, v]),
    } as unknown as ExecContext;
    return { c, calls, set };
  }
  const ok = (json: unknown): HttpOutcome => ({ ok: true, status: 200, json, text: JSON.stringify(json) });

  it('fills variables into the URL encoded, into headers as they are, and uses the default timeout of 10 s', async () => {
    const { c, calls } = context(ok({}));
    await callHttpNode(node({ url: 'https://api.example.com/find?name={{ name }}&city={{city}}', headers: [{ key: 'Authorization', value: 'Bearer {{token}}' }] }), c);
    expect(calls).toEqual([
      {
        method: 'GET',
        url: 'https://api.example.com/find?name=Ada%20Lovelace&city=S%C3%A3o%20Paulo',
        headers: { Authorization: 'Bearer t0k' },
        body: undefined,
        contentType: undefined,
        timeoutMs: 10_000,
      },
    ]);
  });

  it('sends a raw body as JSON when it looks like JSON, else as text; a form body url-encoded', async () => {
    const a = context(ok({}));
    await callHttpNode(node({ method: 'POST', body: ' {"name": "{{name}}"}', timeoutMs: 500 }), a.c);
    expect(a.calls[0]).toMatchObject({ body: ' {"name": "Ada Lovelace"}', contentType: 'application/json', timeoutMs: 500 });
    const b = context(ok({}));
    await callHttpNode(node({ method: 'PUT', body: '[1,2]' }), b.c);
    expect(b.calls[0]).toMatchObject({ body: '[1,2]', contentType: 'application/json' });
    const t = context(ok({}));
    await callHttpNode(node({ method: 'POST', body: 'hello {{name}}' }), t.c);
    expect(t.calls[0]).toMatchObject({ body: 'hello Ada Lovelace', contentType: 'text/plain; charset=utf-8' });
    const f = context(ok({}));
    await callHttpNode(node({ method: 'POST', bodyType: 'form', body: 'name = {{name}}\r\ncity={{city}}&q=a=b\n\n' }), f.c);
    expect(f.calls[0]).toMatchObject({ body: 'name=Ada+Lovelace&city=S%C3%A3o+Paulo&q=a%3Db', contentType: 'application/x-www-form-urlencoded' });
    const g = context(ok({}));
    await callHttpNode(node({ method: 'GET', body: 'never sent' }), g.c);
    expect(g.calls[0]).toMatchObject({ body: undefined, contentType: undefined });
  });

  it('fills what a customer typed as data: JSON string content in a JSON body, encoded values in a form body and the URL', async () => {
    const typed = { name: 'x","role":"admin', city: 'a&b=c\n"\\' };
    const j = context(ok({}), typed);
    await callHttpNode(node({ method: 'POST', body: '{"name": "{{name}}", "city": "{{city}}"}' }), j.c);
    expect(JSON.parse(j.calls[0].body!)).toEqual({ name: 'x","role":"admin', city: 'a&b=c\n"\\' });
    const f = context(ok({}), typed);
    await callHttpNode(node({ method: 'POST', bodyType: 'form', body: 'name={{name}}&city={{city}}' }), f.c);
    expect(Object.fromEntries(new URLSearchParams(f.calls[0].body!))).toEqual({ name: 'x","role":"admin', city: 'a&b=c\n"\\' });
    const u = context(ok({}), typed);
    await callHttpNode(node({ url: 'https://api.example.com/find/{{city}}?name={{name}}' }), u.c);
    const url = new URL(u.calls[0].url);
    expect(url.pathname).toBe(`/find/${encodeURIComponent('a&b=c\n"\\')}`);
    expect([...url.searchParams]).toEqual([['name', 'x","role":"admin']]);
  });

  it('sends no body and no content type for a POST without a body', async () => {
    const { c, calls } = context(ok({}));
    await callHttpNode(node({ method: 'POST' }), c);
    expect(calls[0]).toMatchObject({ method: 'POST', body: undefined, contentType: undefined });
  });

  it('sends text that only contains a bracket later on as text, and splits form lines on a bare newline too', async () => {
    const t = context(ok({}));
    await callHttpNode(node({ method: 'POST', body: 'Order for {{name}} [urgent] {ref}' }), t.c);
    expect(t.calls[0]).toMatchObject({ body: 'Order for Ada Lovelace [urgent] {ref}', contentType: 'text/plain; charset=utf-8' });
    const f = context(ok({}));
    await callHttpNode(node({ method: 'POST', bodyType: 'form', body: 'a=1\nb=2' }), f.c);
    expect(f.calls[0]).toMatchObject({ body: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' });
  });

  it('stores mapped values of a successful answer as text, objects as JSON; nothing for missing, null or a failure', async () => {
    const mappings = [
      { id: 'm1', path: '$.order.status', attributeId: 'a1' },
      { id: 'm2', path: '$.order.count', attributeId: 'a2' },
      { id: 'm3', path: '$.order.items', attributeId: 'a3' },
      { id: 'm4', path: '$.order.none', attributeId: 'a4' },
      { id: 'm5', path: '$.order.gone', attributeId: 'a5' },
      { id: 'm6', path: '$.order.paid', attributeId: 'a6' },
    ];
    const { c, set } = context(ok({ order: { status: 'shipped', count: 0, items: [{ sku: 'A1' }], none: null, paid: false } }));
    const out = await callHttpNode(node({ responseMappings: mappings }), c);
    expect(out.ok).toBe(true);
    expect(set).toEqual([
      ['a1', 'shipped'],
      ['a2', '0'],
      ['a3', '[{"sku":"A1"}]'],
      ['a6', 'false'],
    ]);
    const failed = context({ ok: false, reason: 'The server answered 500', status: 500 });
    expect(await callHttpNode(node({ responseMappings: mappings }), failed.c)).toEqual({ ok: false, reason: 'The server answered 500', status: 500 });
    expect(failed.set).toEqual([]);
  });
});
