/** Parley's opt-out keeps its source: an opt-out keyword, the template's opt-out button, or a member by hand. */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { SandboxAccount } from '../../src/sandbox';
import { buildTestApp, type Session, type TestApp } from '../support/server';

let ta: TestApp;
let admin: Session;
let number: SandboxAccount;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Opt-out Source Shop');
  number = ta.sandbox.addAccount();
  const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId } });
  expect(res.statusCode, res.body).toBe(201);
});
afterAll(async () => {
  await ta?.close();
});

const byPhone = async (phone: string) =>
  (await ta.db.select().from(t.contacts).where(and(eq(t.contacts.workspaceId, admin.workspaceId), eq(t.contacts.phoneNumber, phone))))[0];
const listedOptOut = async (id: string) => {
  const res = await ta.call('GET', `/workspace/${admin.workspaceId}/contacts`, { token: admin.token, query: { optedOut: 'true' } });
  return (res.json().items as { id: string; optOut: unknown }[]).find((c) => c.id === id)?.optOut;
};

describe('opt-out sources', () => {
  it('a typed STOP is a keyword opt-out', async () => {
    await ta.sandbox.customers.say('14155550401', 'Stop', { phoneNumberId: number.phoneNumberId });
    await ta.app.parley.jobs.drain();
    const c = await byPhone('+14155550401');
    expect(c).toMatchObject({ optedOutSource: 'keyword', optedOutByMemberId: null });
    expect(c.optedOutAt).not.toBeNull();
    expect(await listedOptOut(c.id)).toEqual({ source: 'keyword', at: c.optedOutAt!.toISOString(), memberId: null });
  });

  it("a tap of the marketing template's opt-out button is the template button", async () => {
    await ta.sandbox.customers.send('14155550402', { type: 'button', payload: 'Stop promotions', text: 'Stop promotions' }, { phoneNumberId: number.phoneNumberId });
    await ta.app.parley.jobs.drain();
    expect(await byPhone('+14155550402')).toMatchObject({ optedOutSource: 'template_button' });
  });

  it('a member opting a contact out by hand is recorded with who; opting back in clears it all', async () => {
    const [contact] = await ta.db.insert(t.contacts).values({ workspaceId: admin.workspaceId, phoneNumber: '+14155550403', name: 'By Hand' }).returning();
    const out = await ta.call('PATCH', `/contact/${contact.id}`, { token: admin.token, body: { optedOut: true } });
    expect(out.statusCode, out.body).toBe(200);
    expect(await byPhone('+14155550403')).toMatchObject({ optedOutSource: 'member', optedOutByMemberId: admin.member.id });
    expect(await listedOptOut(contact.id)).toMatchObject({ source: 'member', memberId: admin.member.id });
    await ta.call('PATCH', `/contact/${contact.id}`, { token: admin.token, body: { optedOut: false } });
    expect(await byPhone('+14155550403')).toMatchObject({ optedOutAt: null, optedOutSource: null, optedOutByMemberId: null });
  });
});
