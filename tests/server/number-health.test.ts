/** A WhatsApp number's health: read from the Graph API on connect and on demand, refreshed by its webhook. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxAccount } from '../../src/sandbox';
import { buildTestApp, type Session, type TestApp } from '../support/server';

let ta: TestApp;
let admin: Session;
let number: SandboxAccount;
let accountId: string;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Healthy Numbers');
  number = ta.sandbox.addAccount();
  await ta.sandbox.setNumberHealth(number.phoneNumberId, { qualityRating: 'YELLOW', messagingLimitTier: 'TIER_10K' });
  const res = await ta.call('POST', '/whatsapp', {
    token: admin.token,
    body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId },
  });
  expect(res.statusCode).toBe(201);
  accountId = res.json().id;
});
afterAll(async () => {
  await ta?.close();
});

const shown = async () =>
  (await ta.call('GET', `/workspace/${admin.workspaceId}/whatsapp`, { token: admin.token })).json().items.find((a: { id: string }) => a.id === accountId);

describe('number health', () => {
  it('is read from the Graph API when the number is connected and listed with the account', async () => {
    expect((await shown()).health).toMatchObject({ qualityRating: 'YELLOW', messagingLimitTier: 'TIER_10K', throughputLevel: 'STANDARD' });
  });

  it('is refreshed by the phone_number_quality_update webhook: flagged, then a throughput upgrade', async () => {
    await ta.sandbox.setNumberHealth(number.phoneNumberId, { qualityRating: 'RED', messagingLimitTier: 'TIER_2K' });
    await ta.sandbox.settle();
    await ta.app.parley.jobs.drain();
    expect((await shown()).health).toMatchObject({ qualityRating: 'RED', messagingLimitTier: 'TIER_2K', lastEvent: 'FLAGGED' });

    await ta.sandbox.setNumberHealth(number.phoneNumberId, { qualityRating: 'GREEN', throughputLevel: 'HIGH' });
    await ta.sandbox.settle();
    await ta.app.parley.jobs.drain();
    expect((await shown()).health).toMatchObject({ qualityRating: 'GREEN', throughputLevel: 'HIGH', lastEvent: 'THROUGHPUT_UPGRADE' });
  });

  it('is read again on demand by an admin; an agent gets 403 and another workspace 404', async () => {
    const before = (await shown()).health.updatedAt;
    const refresh = await ta.call('POST', `/whatsapp/${accountId}/health`, { token: admin.token, body: {} });
    expect(refresh.statusCode).toBe(200);
    expect(refresh.json().health).toMatchObject({ qualityRating: 'GREEN', messagingLimitTier: 'TIER_2K', throughputLevel: 'HIGH' });
    expect(Date.parse(refresh.json().health.updatedAt)).toBeGreaterThanOrEqual(Date.parse(before));
    expect(refresh.body).not.toContain(number.token);

    const agent = await ta.newMember(admin, 'agent');
    expect((await ta.call('POST', `/whatsapp/${accountId}/health`, { token: agent.token, body: {} })).statusCode).toBe(403);
    const stranger = await ta.newAdmin('Someone Else');
    expect((await ta.call('POST', `/whatsapp/${accountId}/health`, { token: stranger.token, body: {} })).statusCode).toBe(404);
  });

  it('answers WhatsApp’s refusal when the token no longer works, keeping the last figures', async () => {
    ta.sandbox.expireToken(number.token);
    const res = await ta.call('POST', `/whatsapp/${accountId}/health`, { token: admin.token, body: {} });
    expect(res.statusCode).toBe(409);
    expect((await shown()).health).toMatchObject({ qualityRating: 'GREEN', throughputLevel: 'HIGH' });
  });
});
