/**
 * Security headers on every answer, no caching of authenticated JSON, CORS limited to the app's own origins, and
 * the start-up guard against the Auth emulator on a real project.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { buildTestApp, openTestDatabase, testConfig, type Session, type TestApp } from '../support/server';

let ta: TestApp;
let admin: Session;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Headers Ltd');
});
afterAll(async () => {
  await ta?.close();
});

describe('security headers', () => {
  it('every answer says nosniff, no framing and no referrer; no HSTS over http', async () => {
    const answers = [
      await ta.call('GET', '/healthz'),
      await ta.call('GET', '/auth/me', { token: admin.token }),
      await ta.call('GET', '/auth/me'),
      await ta.call('GET', '/no-such-route'),
      await ta.call('POST', '/workspace', { token: admin.token, body: '{', headers: { 'content-type': 'application/json' } }),
    ];
    for (const res of answers) {
      expect(res.headers['x-content-type-options'], res.body).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('authenticated JSON is never cached; files keep their own short private caching', async () => {
    const me = await ta.call('GET', '/auth/me', { token: admin.token });
    expect(me.headers['cache-control']).toBe('no-store');
    const refused = await ta.call('GET', '/workspace/00000000-0000-4000-8000-000000000000', { token: admin.token });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  it('HSTS is sent when PUBLIC_URL is https', async () => {
    const { database, dispose } = await openTestDatabase();
    const app = await buildApp({ config: testConfig({ publicUrl: 'https://parley.example.com' }), database, logger: false });
    try {
      const res = await app.inject({ method: 'GET', url: '/healthz' });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await app.close();
      await dispose();
    }
  });
});

describe('CORS', () => {
  const preflight = (origin: string) =>
    ta.call('OPTIONS', '/auth/me', { headers: { origin, 'access-control-request-method': 'GET' } });

  it("lets in the app's own origins and the packaged desktop app (file://, Origin: null), nobody else", async () => {
    for (const origin of ['http://127.0.0.1:5173', 'http://app.parley.test', 'null']) {
      expect((await preflight(origin)).headers['access-control-allow-origin'], origin).toBe(origin);
    }
    for (const origin of ['https://evil.example', 'http://app.parley.test.evil.example', 'file://']) {
      expect((await preflight(origin)).headers['access-control-allow-origin'], origin).toBeUndefined();
    }
    const res = await ta.call('GET', '/auth/me', { token: admin.token, headers: { origin: 'null' } });
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });
});

describe('start-up guard', () => {
  it('refuses to start with the Auth emulator against a project that is not a demo- project', async () => {
    // Refused before anything is opened (no database is given, none is created).
    await expect(buildApp({ config: testConfig({ firebaseProjectId: 'parley-production' }), logger: false })).rejects.toThrow(
      /FIREBASE_AUTH_EMULATOR_HOST is set while FIREBASE_PROJECT_ID is "parley-production"/,
    );
  });
});
