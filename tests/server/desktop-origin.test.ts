// The desktop app's page is served from app://parley/ (src/main/app-protocol.ts): the server lets that origin
// call it (CORS), as it let the file: page's `null` origin before; other origins still get no CORS answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/server';

let ta: TestApp;
beforeAll(async () => {
  ta = await buildTestApp();
});
afterAll(async () => {
  await ta?.close();
});

const preflight = (origin: string) =>
  ta.app.inject({ method: 'OPTIONS', url: '/auth/me', headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });

describe('CORS for the desktop app', () => {
  it('answers app://parley, the origin of the desktop page', async () => {
    const res = await preflight('app://parley');
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('app://parley');
    const get = await ta.app.inject({ method: 'GET', url: '/healthz', headers: { origin: 'app://parley' } });
    expect(get.headers['access-control-allow-origin']).toBe('app://parley');
  });

  it('gives another custom scheme or host nothing', async () => {
    for (const origin of ['app://evil', 'https://evil.example', 'chrome-extension://abc']) {
      expect((await preflight(origin)).headers['access-control-allow-origin'], origin).toBeUndefined();
    }
  });
});
