/** WhatsApp Flows of an account, read from the sandbox Graph API. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxAccount } from '../../src/sandbox';
import { buildTestApp, type Session, type TestApp } from '../support/server';

let ta: TestApp;
let admin: Session;
let agent: Session;
let number: SandboxAccount;
let accountId: string;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Flow Studio');
  agent = await ta.newMember(admin, 'agent');
  number = ta.sandbox.addAccount();
  const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId } });
  expect(res.statusCode).toBe(201);
  accountId = res.json().id;
});
afterAll(async () => {
  await ta?.close();
});

describe('GET /whatsapp-flow/{whatsappAccountId}', () => {
  it("answers the account's flows in the product's shape, to agents too", async () => {
    const res = await ta.call('GET', `/whatsapp-flow/${accountId}`, { token: agent.token });
    expect(res.statusCode).toBe(200);
    const atMeta = ta.sandbox.flows.filter((f) => f.wabaId === number.wabaAccountId);
    expect(res.json()).toEqual(
      atMeta.map((f) => ({ id: f.id, name: f.name, status: f.status, categories: f.categories, validation_errors: f.validation_errors })),
    );
    expect(res.json().map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining(['Book an appointment', 'Customer feedback']));
  });

  it('says so when WhatsApp no longer accepts the stored token', async () => {
    ta.sandbox.expireToken(number.token);
    const res = await ta.call('GET', `/whatsapp-flow/${accountId}`, { token: agent.token });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('The WhatsApp access token has expired. Update the token of this WhatsApp account.');
  });
});
