import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { buildTestApp, emulatorHost, openTestDatabase, testConfig, type TestApp } from '../support/server';
import { signInWithPassword } from '../../scripts/lib/identity-rest';
import { killHard, startServerProcess } from '../support/server-process';

let ta: TestApp;
beforeAll(async () => {
  ta = await buildTestApp();
});
afterAll(async () => {
  await ta?.close();
});

describe('health', () => {
  it('answers /healthz and /readyz with the database reachable and migrated', async () => {
    expect((await ta.call('GET', '/healthz')).json()).toMatchObject({ status: 'ok' });
    const ready = await ta.call('GET', '/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready' });
  });

  it('answers /readyz 503 when the database is gone', async () => {
    const { database, dispose } = await openTestDatabase();
    const app = await buildApp({ config: testConfig(), database, logger: false });
    await dispose();
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    await app.close();
  });

  it('serves the OpenAPI document generated from the route table at /docs', async () => {
    const res = await ta.call('GET', '/docs/json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/auth/sign-up', '/bot/{botId}', '/workspace/{workspaceId}/contacts']));
    expect(doc.paths['/attribute'].post.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['name', 'format', 'workspaceId']),
    );
    expect((await ta.call('GET', '/docs')).statusCode).toBeLessThan(400);
  });

  it('answers unknown paths with the error shape', async () => {
    const res = await ta.call('GET', '/nope');
    expect(res.json()).toEqual({ statusCode: 404, message: 'Cannot GET /nope', error: 'Not Found' });
  });
});

describe('logs', () => {
  it('are structured, carry request ids, and never contain tokens or passwords', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const { database, dispose } = await openTestDatabase();
    const app = await buildApp({ config: testConfig({ logLevel: 'debug' }), database, logger: { stream } });
    const email = `log-${randomUUID()}@acme-test.com`;
    const password = 'very-secret-pw';
    await app.inject({ method: 'POST', url: '/auth/sign-up', payload: { email, password, name: 'Log Person', organizationName: 'Logs Inc' } });
    const { idToken } = await signInWithPassword(emulatorHost(), email, password);
    const me = await app.inject({ method: 'GET', url: '/auth/me', headers: { authorization: `Bearer ${idToken}`, 'x-request-id': 'req-abc-123' } });
    expect(me.headers['x-request-id']).toBe('req-abc-123');
    await app.close();
    await dispose();
    const all = lines.join('');
    expect(lines.length).toBeGreaterThan(2);
    for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
    expect(all).toContain('"reqId":"req-abc-123"');
    expect(all).not.toContain(password);
    expect(all).not.toContain(idToken);
    expect(all).not.toContain(idToken.split('.')[1]);
  });
});

describe('shutdown', () => {
  it('drains an in-flight request on SIGTERM, then exits 0', async () => {
    // A real server process (its pid is the server: tests/support/server-process.ts) on PGlite in its data dir,
    // given up to 150 s to migrate and answer on a loaded 2-core machine.
    const server = await startServerProcess({ DATABASE_URL: '' }, { readyMs: 150_000 });
    const { child, port } = server;
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const base = server.baseUrl;
      const email = `drain-${randomUUID()}@acme-test.com`;
      const payload = JSON.stringify({ email, password: 'password1', name: 'Drain Test', organizationName: 'Drainage Ltd' });
      // The request is provably in flight: headers and half the body are sent before SIGTERM, the rest after.
      const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          { host: '127.0.0.1', port, method: 'POST', path: '/auth/sign-up', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
          (res) => {
            let body = '';
            res.on('data', (c) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.write(payload.slice(0, 20));
        setTimeout(() => {
          child.kill('SIGTERM');
          setTimeout(() => req.end(payload.slice(20)), 500);
        }, 300);
      });
      const res = await response;
      expect(res.status, res.body).toBe(201);
      expect(JSON.parse(res.body).role).toBe('admin');
      expect(await exited).toBe(0);
      await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    } finally {
      await killHard(server);
    }
  }, 200_000);
});
