/**
 * WhatsApp settings show what an admin gives Meta: the webhook callback URL and the verify token,
 * and whether Meta's verification call reached the server (recorded when GET /webhooks/whatsapp passes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Session, type TestApp } from '../support/server';

let ta: TestApp;
let admin: Session;
let agent: Session;

beforeAll(async () => {
  ta = await buildTestApp({ publicUrl: 'https://parley.example.com/', whatsappVerifyToken: 'verify-me-123' });
  admin = await ta.newAdmin('Webhook Setup Shop');
  agent = await ta.newMember(admin, 'agent');
});
afterAll(async () => {
  await ta?.close();
});

const setup = (who: Session) => ta.call('GET', `/workspace/${admin.workspaceId}/whatsapp-webhook`, { token: who.token });

describe('GET /workspace/{id}/whatsapp-webhook', () => {
  it("shows the callback URL and verify token, and when Meta's verification call last passed", async () => {
    const before = await setup(admin);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toMatchObject({ callbackUrl: 'https://parley.example.com/webhooks/whatsapp', verifyToken: 'verify-me-123' });
    // The test server's Graph API is the sandbox, and the answer says so.
    expect(before.json().graphApi).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+/), sandbox: true });
    const firstSeen = before.json().lastVerifiedAt as string | null;

    // A wrong token is no verification.
    const wrong = await ta.app.inject({ method: 'GET', url: '/webhooks/whatsapp', query: { 'hub.mode': 'subscribe', 'hub.verify_token': 'nope', 'hub.challenge': '42' } });
    expect(wrong.statusCode).toBe(403);
    expect((await setup(admin)).json().lastVerifiedAt).toBe(firstSeen);

    const t0 = Date.now();
    const meta = await ta.app.inject({ method: 'GET', url: '/webhooks/whatsapp', query: { 'hub.mode': 'subscribe', 'hub.verify_token': 'verify-me-123', 'hub.challenge': '1158201444' } });
    expect(meta.statusCode).toBe(200);
    expect(meta.body).toBe('1158201444');
    const after = (await setup(admin)).json();
    expect(Date.parse(after.lastVerifiedAt)).toBeGreaterThanOrEqual(t0 - 5);
  });

  it('is for admins only', async () => {
    const res = await setup(agent);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
  });
});
