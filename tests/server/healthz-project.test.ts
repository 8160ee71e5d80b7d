// /healthz names the server's Firebase project: the desktop app compares it with its own before it remembers a
// server address (src/main/server-address.ts), so a server of another project (or no Parley server) never gets
// the agent's ID tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/server';

let ta: TestApp;
beforeAll(async () => {
  ta = await buildTestApp();
});
afterAll(async () => {
  await ta?.close();
});

describe('GET /healthz', () => {
  it('answers its Firebase projectId, without authentication', async () => {
    const res = await ta.call('GET', '/healthz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', projectId: ta.app.parley.config.firebaseProjectId });
    expect(ta.app.parley.config.firebaseProjectId).toBe('demo-parley');
  });
});
