/**
 * An admin changes a member's role or removes a member from the workspace. The last admin stays; a removed
 * member's streams end at once, their next request is refused, their open conversations go back to the queue
 * with an update each, and their routing settings go with the membership. A role change holds from the next request.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { SandboxAccount } from '../../src/sandbox';
import { type Session, type TestApp, buildTestApp } from '../support/server';
import { newCustomers } from '../support/customers';

let ta: TestApp;
let base: string;
let admin: Session;
let outsider: Session;
let number: SandboxAccount;

beforeAll(async () => {
  // A periodic recheck far beyond the test's waits: a stream that ends did so because of the removal.
  ta = await buildTestApp({ realtime: { heartbeatMs: 15_000, recheckMs: 60_000 } });
  await ta.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(ta.app.server.address() as AddressInfo).port}`;
  admin = await ta.newAdmin('Quay Members Ltd');
  outsider = await ta.newAdmin('Other Quay Ltd');
  number = ta.sandbox.addAccount();
  const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId } });
  expect(res.statusCode).toBe(201);
});
afterAll(async () => {
  await ta?.close();
});

const customerWrites = newCustomers(() => ({ ta, workspaceId: admin.workspaceId, phoneNumberId: number.phoneNumberId }), { waIdPrefix: '1650888', name: (n) => `Mira ${n}` });

const memberUrl = (workspaceId: string, memberId: string) => `/workspace/${workspaceId}/members/${memberId}`;

async function membershipRow(workspaceId: string, memberId: string) {
  const [row] = await ta.db
    .select()
    .from(t.workspaceMembers)
    .where(and(eq(t.workspaceMembers.workspaceId, workspaceId), eq(t.workspaceMembers.memberId, memberId)));
  return row ?? null;
}

function openStream(workspaceId: string, token: string): Promise<{ status: number; ended: Promise<void>; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/workspace/${workspaceId}/events?token=${encodeURIComponent(token)}`, (res) => {
      const ended = new Promise<void>((done) => {
        res.on('end', () => done());
        res.on('close', () => done());
      });
      res.resume();
      resolve({ status: res.statusCode ?? 0, ended, close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}
const within = (p: Promise<void>, ms: number) =>
  Promise.race([p.then(() => 'ended' as const), new Promise<'still open'>((r) => setTimeout(() => r('still open'), ms))]);

describe("changing a member's role", () => {
  it('makes an agent admin and back, stored, and the new role holds from the next request', async () => {
    const agent = await ta.newMember(admin, 'agent');
    expect((await ta.call('GET', `/workspace/${admin.workspaceId}/invitees`, { token: agent.token })).statusCode).toBe(403);

    const promoted = await ta.call('PATCH', memberUrl(admin.workspaceId, agent.member.id), { token: admin.token, body: { role: 'admin' } });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(promoted.json()).toMatchObject({ id: agent.member.id, uid: agent.member.uid, role: 'admin', email: agent.email });
    expect((await membershipRow(admin.workspaceId, agent.member.id))?.role).toBe('admin');
    // Same token, no new sign-in: the role is read on every request.
    expect((await ta.call('GET', `/workspace/${admin.workspaceId}/invitees`, { token: agent.token })).statusCode).toBe(200);

    const demoted = await ta.call('PATCH', memberUrl(admin.workspaceId, agent.member.id), { token: admin.token, body: { role: 'agent' } });
    expect(demoted.statusCode).toBe(200);
    expect(demoted.json().role).toBe('agent');
    expect((await membershipRow(admin.workspaceId, agent.member.id))?.role).toBe('agent');
    const refused = await ta.call('GET', `/workspace/${admin.workspaceId}/invitees`, { token: agent.token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: 'Only workspace admins can do this' });
  });

  it('refuses a role that does not exist with 400', async () => {
    const agent = await ta.newMember(admin, 'agent');
    const res = await ta.call('PATCH', memberUrl(admin.workspaceId, agent.member.id), { token: admin.token, body: { role: 'owner' } });
    expect(res.statusCode).toBe(400);
    expect((await membershipRow(admin.workspaceId, agent.member.id))?.role).toBe('agent');
  });
});

describe('the last admin', () => {
  it('can be neither demoted nor removed (409), by themself or anyone; with a second admin both work', async () => {
    const solo = await ta.newAdmin('Solo Admin Ltd');
    const agent = await ta.newMember(solo, 'agent');
    const demote = await ta.call('PATCH', memberUrl(solo.workspaceId, solo.member.id), { token: solo.token, body: { role: 'agent' } });
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: 'The last admin of a workspace cannot be made an agent: make another member admin first',
    });
    const remove = await ta.call('DELETE', memberUrl(solo.workspaceId, solo.member.id), { token: solo.token });
    expect(remove.statusCode).toBe(409);
    expect(remove.json().message).toBe('The last admin of a workspace cannot be removed: make another member admin first');
    expect((await membershipRow(solo.workspaceId, solo.member.id))?.role).toBe('admin');

    // Keeping the role is no demotion.
    expect((await ta.call('PATCH', memberUrl(solo.workspaceId, solo.member.id), { token: solo.token, body: { role: 'admin' } })).statusCode).toBe(200);

    expect((await ta.call('PATCH', memberUrl(solo.workspaceId, agent.member.id), { token: solo.token, body: { role: 'admin' } })).statusCode).toBe(200);
    const stepDown = await ta.call('PATCH', memberUrl(solo.workspaceId, solo.member.id), { token: solo.token, body: { role: 'agent' } });
    expect(stepDown.statusCode).toBe(200);
    // Now the other is the last admin.
    expect((await ta.call('DELETE', memberUrl(solo.workspaceId, agent.member.id), { token: agent.token })).statusCode).toBe(409);
    expect((await membershipRow(solo.workspaceId, agent.member.id))?.role).toBe('admin');
  });
});

describe('who may change members', () => {
  it('refuses an agent (403) and changes nothing', async () => {
    const agent = await ta.newMember(admin, 'agent');
    const other = await ta.newMember(admin, 'agent');
    const patch = await ta.call('PATCH', memberUrl(admin.workspaceId, other.member.id), { token: agent.token, body: { role: 'admin' } });
    expect(patch.statusCode).toBe(403);
    expect(patch.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: 'Only workspace admins can do this' });
    const del = await ta.call('DELETE', memberUrl(admin.workspaceId, admin.member.id), { token: agent.token });
    expect(del.statusCode).toBe(403);
    expect((await membershipRow(admin.workspaceId, other.member.id))?.role).toBe('agent');
    expect((await membershipRow(admin.workspaceId, admin.member.id))?.role).toBe('admin');
  });

  it("answers 404 for a member of another workspace, as for an id that exists nowhere, and leaves them be", async () => {
    const theirs = await ta.newMember(outsider, 'agent');
    for (const id of [theirs.member.id, outsider.member.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const patch = await ta.call('PATCH', memberUrl(admin.workspaceId, id), { token: admin.token, body: { role: 'admin' } });
      expect(patch.statusCode, id).toBe(404);
      expect(patch.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Member not found' });
      const del = await ta.call('DELETE', memberUrl(admin.workspaceId, id), { token: admin.token });
      expect(del.statusCode, id).toBe(404);
      expect(del.json()).toEqual(patch.json());
    }
    expect((await membershipRow(outsider.workspaceId, theirs.member.id))?.role).toBe('agent');
    // Naming the other workspace in the path is refused before anything is looked up.
    const across = await ta.call('DELETE', memberUrl(outsider.workspaceId, theirs.member.id), { token: admin.token });
    expect(across.statusCode).toBe(403);
    expect(await membershipRow(outsider.workspaceId, theirs.member.id)).not.toBeNull();
  });
});

describe('removing a member', () => {
  it('ends their streams at once, refuses their next request (403), and leaves other workspaces and members be', async () => {
    const agent = await ta.newMember(admin, 'agent');
    const bystander = await ta.newMember(admin, 'agent');
    // The removed member also belongs to another workspace, which they keep.
    const elsewhere = await ta.call('POST', '/workspace', { token: agent.token, body: { name: 'Side Shop' } });
    expect(elsewhere.statusCode).toBe(201);
    const switched = await ta.call('PATCH', '/auth/me', { token: agent.token, body: { currentWorkspaceId: admin.workspaceId } });
    expect(switched.statusCode, switched.body).toBe(200);

    const stream = await openStream(admin.workspaceId, agent.token);
    const ownStream = await openStream(elsewhere.json().id, agent.token);
    const other = await openStream(admin.workspaceId, bystander.token);
    expect(stream.status).toBe(200);

    const res = await ta.call('DELETE', memberUrl(admin.workspaceId, agent.member.id), { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(await within(stream.ended, 2000)).toBe('ended');
    expect(await within(other.ended, 300)).toBe('still open');
    expect(await within(ownStream.ended, 10)).toBe('still open');
    other.close();
    ownStream.close();

    expect(await membershipRow(admin.workspaceId, agent.member.id)).toBeNull();
    const [memberRow] = await ta.db.select().from(t.members).where(eq(t.members.id, agent.member.id));
    expect(memberRow.currentWorkspaceId).toBeNull();
    const next = await ta.call('GET', `/workspace/${admin.workspaceId}/conversations`, { token: agent.token });
    expect(next.statusCode).toBe(403);
    expect(next.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: 'You are not a member of this workspace' });
    const reconnect = await openStream(admin.workspaceId, agent.token);
    expect(reconnect.status).toBe(403);
    reconnect.close();
    // Their account and other workspace stay; that one is now their current workspace.
    const me = await ta.call('GET', '/auth/me', { token: agent.token });
    expect(me.statusCode).toBe(200);
    expect(JSON.stringify(me.json())).not.toContain(admin.workspaceId);
    expect(JSON.stringify(me.json())).toContain(elsewhere.json().id);
    const list = await ta.call('GET', `/workspace/${admin.workspaceId}/members`, { token: admin.token });
    expect(list.json().items.map((m: { id: string }) => m.id)).not.toContain(agent.member.id);
  });

  it('hands their open conversations back to the queue with an update each, keeps closed ones, drops their routing', async () => {
    const agent = await ta.newMember(admin, 'agent');
    const routing = await ta.call('PATCH', `/workspace/${admin.workspaceId}/member-routing`, {
      token: agent.token,
      body: { memberId: agent.member.id, available: true, chatCapacity: 3 },
    });
    expect(routing.statusCode).toBe(200);
    const open1 = (await customerWrites('Where is my parcel?')).conversation;
    const open2 = (await customerWrites('Can I change my address?')).conversation;
    const closed = (await customerWrites('Thanks, all good')).conversation;
    for (const c of [open1, open2, closed]) {
      const r = await ta.call('PATCH', `/conversation/${c.id}`, { token: admin.token, body: { assigneeMemberId: agent.member.id } });
      expect(r.statusCode).toBe(200);
    }
    expect((await ta.call('PATCH', `/conversation/${closed.id}`, { token: admin.token, body: { isActive: false } })).statusCode).toBe(200);
    const [{ seq: lastSeq }] = await ta.db
      .select({ seq: t.workspaceEvents.seq })
      .from(t.workspaceEvents)
      .where(eq(t.workspaceEvents.workspaceId, admin.workspaceId))
      .orderBy(t.workspaceEvents.seq)
      .then((rows) => rows.slice(-1));

    const res = await ta.call('DELETE', memberUrl(admin.workspaceId, agent.member.id), { token: admin.token });
    expect(res.statusCode).toBe(200);

    const rows = await ta.db.select().from(t.conversations).where(eq(t.conversations.workspaceId, admin.workspaceId));
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(open1.id)).toMatchObject({ assigneeMemberId: null, isActive: true });
    expect(byId.get(open2.id)).toMatchObject({ assigneeMemberId: null, isActive: true });
    expect(byId.get(closed.id)).toMatchObject({ assigneeMemberId: agent.member.id, isActive: false });
    const events = (await ta.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.workspaceId, admin.workspaceId))).filter(
      (e) => e.seq > lastSeq,
    );
    expect(events.map((e) => e.type)).toEqual(['conversation.updated', 'conversation.updated']);
    const updated = events.map((e) => (e.payload as { conversation: { id: string; assigneeMemberId: string | null } }).conversation);
    expect(updated.map((c) => c.id).sort()).toEqual([open1.id, open2.id].sort());
    expect(updated.every((c) => c.assigneeMemberId === null)).toBe(true);
    // The queue (open tab) shows them to everyone again; routing no longer lists the member.
    const queue = await ta.call('GET', `/workspace/${admin.workspaceId}/conversations`, { token: admin.token, query: { tab: 'open' } });
    const queued = queue.json().items.map((c: { id: string }) => c.id);
    expect(queued).toEqual(expect.arrayContaining([open1.id, open2.id]));
    const routes = await ta.call('GET', `/workspace/${admin.workspaceId}/member-routing`, { token: admin.token });
    expect(routes.json().map((r: { memberId: string }) => r.memberId)).not.toContain(agent.member.id);
  });

  it('lets an admin remove another admin, and themself when another admin remains', async () => {
    const second = await ta.newMember(admin, 'admin');
    const third = await ta.newMember(admin, 'admin');
    expect((await ta.call('DELETE', memberUrl(admin.workspaceId, second.member.id), { token: third.token })).statusCode).toBe(200);
    expect(await membershipRow(admin.workspaceId, second.member.id)).toBeNull();
    expect((await ta.call('DELETE', memberUrl(admin.workspaceId, third.member.id), { token: third.token })).statusCode).toBe(200);
    expect(await membershipRow(admin.workspaceId, third.member.id)).toBeNull();
    expect((await ta.call('GET', `/workspace/${admin.workspaceId}`, { token: third.token })).statusCode).toBe(403);
  });
});
