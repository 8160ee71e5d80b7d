/**
 * Fair auto-assignment: conversations customers open go round-robin to the members who made
 * themselves available, never past a member's capacity; nobody available leaves them unassigned; a number with
 * an active bot keeps its unassigned conversations for the bot (the seam the bots build on). Availability is
 * the member's own (or an admin's) to change. Inbound messages arrive through the sandbox's signed webhooks.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { newCustomers } from '../support/customers';

let ta: TestApp;
let admin: Session;
let ann: Session;
let bob: Session;
let phoneNumberId: string;
let accountId: string;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Routing Shop');
  ann = await ta.newMember(admin, 'agent');
  bob = await ta.newMember(admin, 'agent');
  const number = ta.sandbox.addAccount();
  const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId } });
  expect(res.statusCode).toBe(201);
  phoneNumberId = number.phoneNumberId;
  accountId = res.json().id;
});
afterAll(async () => {
  await ta?.close();
});

const customerWrites = newCustomers(() => ({ ta, workspaceId: admin.workspaceId, phoneNumberId }), { waIdPrefix: '1650555', first: 7000, text: 'Hello!', name: (n) => `Routed ${n}` });
/** A new customer writes in; answers the conversation (and how it was assigned). */
const newCustomerWrites = async () => (await customerWrites()).conversation;

const routing = (who: Session, body: Record<string, unknown>) =>
  ta.call('PATCH', `/workspace/${admin.workspaceId}/member-routing`, { token: who.token, body });

describe('auto-assignment', () => {
  it('leaves conversations unassigned while nobody is available (auto-assignment is opt-in)', async () => {
    const list = await ta.call('GET', `/workspace/${admin.workspaceId}/member-routing`, { token: ann.token });
    expect(list.statusCode).toBe(200);
    expect(list.json().every((m: { available: boolean }) => m.available === false)).toBe(true);
    const c = await newCustomerWrites();
    expect(c.assigneeMemberId).toBeNull();
  });

  it('a member turns themself available; an agent cannot change a teammate, an admin can', async () => {
    expect((await routing(ann, { memberId: ann.member.id, available: true, chatCapacity: 2 })).json()).toEqual({ memberId: ann.member.id, available: true, chatCapacity: 2 });
    const refused = await routing(ann, { memberId: bob.member.id, available: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    expect((await routing(admin, { memberId: bob.member.id, available: true, chatCapacity: 1 })).statusCode).toBe(200);
    const bad = await routing(admin, { memberId: bob.member.id, chatCapacity: 0 });
    expect(bad.statusCode).toBe(400);
  });

  it('deals new conversations round-robin among the available, up to each capacity, recorded by the system', async () => {
    const got = [];
    for (let i = 0; i < 4; i++) got.push(await newCustomerWrites());
    const owners = got.map((c) => (c.assigneeMemberId === ann.member.id ? 'ann' : c.assigneeMemberId === bob.member.id ? 'bob' : null));
    // Ann (never assigned before, joined first) and Bob alternate; Bob's capacity is 1, Ann's 2: the fourth waits.
    expect(owners).toEqual(['ann', 'bob', 'ann', null]);
    const detail = await ta.call('GET', `/conversation/${got[0].id}`, { token: admin.token });
    expect(detail.json().ConversationEvent).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'CONVERSATION_ASSIGNED', data: expect.objectContaining({ assigneeMemberId: ann.member.id }) })]),
    );
  });

  it('keeps unassigned conversations of a number with an active bot for the bot', async () => {
    await routing(admin, { memberId: admin.member.id, available: true, chatCapacity: 50 });
    const [bot] = await ta.db
      .insert(t.bots)
      .values({ workspaceId: admin.workspaceId, title: 'Greeter', isActive: true, whatsappAccountId: accountId, memberId: admin.member.id, rfInstance: { nodes: [], edges: [], viewport: { x: 0, y: 0, zoom: 1 } } })
      .returning();
    const c = await newCustomerWrites();
    expect(c.assigneeMemberId).toBeNull();
    await ta.db.update(t.bots).set({ isActive: false }).where(eq(t.bots.id, bot.id));
    const after = await newCustomerWrites();
    expect(after.assigneeMemberId).toBe(admin.member.id);
  });
});
