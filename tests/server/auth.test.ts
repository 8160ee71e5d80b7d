import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { buildApp } from '../../src/server/app';
import type { Database } from '../../src/server/db/client';
import { firebaseIdentity } from '../../src/server/identity/identity-provider';
import { signInWithPassword } from '../../scripts/lib/identity-rest';
import { buildTestApp, emulatorHost, openTestDatabase, testConfig, type TestApp } from '../support/server';

let ta: TestApp;
const identity = () => firebaseIdentity('demo-parley', emulatorHost());

beforeAll(async () => {
  ta = await buildTestApp();
});
afterAll(async () => {
  await ta?.close();
});

const newEmail = () => `user-${randomUUID()}@acme-test.com`;

describe('POST /auth/sign-up', () => {
  it('creates the identity, an admin member and a workspace named after the organization', async () => {
    const email = newEmail();
    const res = await ta.call('POST', '/auth/sign-up', {
      body: { email, password: 'password1', name: 'Ada Lovelace', organizationName: 'Analytical Engines' },
    });
    expect(res.statusCode).toBe(201);
    const member = res.json();
    expect(member).toMatchObject({ role: 'admin', workspaceIds: [member.currentWorkspaceId] });

    const [ws] = await ta.db.select().from(t.workspaces).where(eq(t.workspaces.id, member.currentWorkspaceId));
    expect(ws.name).toBe('Analytical Engines');
    const [row] = await ta.db.select().from(t.members).where(eq(t.members.id, member.id));
    const id = identity();
    expect(await id.findUidByEmail(email)).toBe(row.uid);
    const profile = (await id.profiles([row.uid])).get(row.uid);
    expect(profile?.displayName).toBe('Ada Lovelace');
    await id.close();

    const { idToken } = await signInWithPassword(emulatorHost(), email, 'password1');
    const me = await ta.call('GET', '/auth/me', { token: idToken });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      id: member.id,
      role: 'admin',
      Workspaces: [{ id: member.currentWorkspaceId, name: 'Analytical Engines', memberIds: [member.id] }],
    });
  });

  it('refuses an e-mail that already has an account with 409 and creates nothing', async () => {
    const email = newEmail();
    const body = { email, password: 'password1', name: 'Ada', organizationName: 'First Org' };
    expect((await ta.call('POST', '/auth/sign-up', { body })).statusCode).toBe(201);
    const workspacesBefore = (await ta.db.select().from(t.workspaces)).length;
    const again = await ta.call('POST', '/auth/sign-up', { body: { ...body, organizationName: 'Second Org' } });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ statusCode: 409, message: 'An account with this email address already exists', error: 'Conflict' });
    expect((await ta.db.select().from(t.workspaces)).length).toBe(workspacesBefore);
  });

  it('refuses public e-mail providers with the spec message', async () => {
    const res = await ta.call('POST', '/auth/sign-up', {
      body: { email: 'someone@gmail.com', password: 'password1', name: 'Ada', organizationName: 'Org Ltd' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('Please use your official email. Public emails are not supported');
  });

  it('leaves nothing behind, not even the identity, when the database step fails', async () => {
    const { database, dispose } = await openTestDatabase();
    // A database whose transactions fail, as a crash between the identity and the rows would.
    const failing: Database = {
      ...database,
      transaction: async () => {
        throw new Error('database went away');
      },
    };
    const app = await buildApp({ config: testConfig(), database: failing, logger: false });
    const email = newEmail();
    const res = await app.inject({
      method: 'POST',
      url: '/auth/sign-up',
      payload: { email, password: 'password1', name: 'Ada', organizationName: 'Doomed Org' },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ statusCode: 500, message: 'Internal Server Error', error: 'Internal Server Error' });
    const id = identity();
    expect(await id.findUidByEmail(email)).toBeNull();
    await id.close();
    expect(await database.db.select().from(t.workspaces)).toEqual([]);
    expect(await database.db.select().from(t.members)).toEqual([]);
    await app.close();
    await dispose();
  });
});

describe('invitations', () => {
  it('lets the invitee sign up with only e-mail and password, joining with the invited role', async () => {
    const admin = await ta.newAdmin();
    const agent = await ta.newMember(admin, 'agent');
    expect(agent.member.role).toBe('agent');
    expect(agent.member.workspaceIds).toEqual([admin.workspaceId]);
    const [inv] = await ta.db.select().from(t.invitees).where(eq(t.invitees.email, agent.email));
    expect(inv.used).toBe(true);
    // The used invitation is gone from the open list.
    const list = await ta.call('GET', `/workspace/${admin.workspaceId}/invitees`, { token: admin.token });
    expect(list.json().items.map((i: { email: string }) => i.email)).not.toContain(agent.email);
  });

  it('refuses a used, an unknown and a revoked token with a clear message', async () => {
    const admin = await ta.newAdmin();
    const email = newEmail();
    await ta.call('POST', '/invitee', { token: admin.token, body: { email, role: 'agent', workspaceId: admin.workspaceId } });
    const token = await ta.inviteToken(admin, email);
    expect((await ta.call('POST', `/auth/sign-up/${token}`, { body: { email, password: 'password1' } })).statusCode).toBe(201);

    const used = await ta.call('POST', `/auth/sign-up/${token}`, { body: { email: newEmail(), password: 'password1' } });
    expect(used.statusCode).toBe(409);
    expect(used.json().message).toBe('This invitation has already been used');

    const unknown = await ta.call('POST', '/auth/sign-up/not-a-token', { body: { email: newEmail(), password: 'password1' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('This invitation does not exist or was revoked');

    const other = newEmail();
    await ta.call('POST', '/invitee', { token: admin.token, body: { email: other, role: 'admin', workspaceId: admin.workspaceId } });
    const revokedToken = await ta.inviteToken(admin, other);
    const [inv] = await ta.db.select().from(t.invitees).where(eq(t.invitees.token, revokedToken));
    expect((await ta.call('DELETE', `/invitee/${inv.id}`, { token: admin.token })).statusCode).toBe(200);
    const revoked = await ta.call('POST', `/auth/sign-up/${revokedToken}`, { body: { email: other, password: 'password1' } });
    expect(revoked.statusCode).toBe(404);
    expect(revoked.json().message).toBe('This invitation does not exist or was revoked');
    // Nothing was created for the refused sign-up.
    const id = identity();
    expect(await id.findUidByEmail(other)).toBeNull();
    await id.close();
  });

  it('refuses an invitation used with another e-mail address', async () => {
    const admin = await ta.newAdmin();
    const email = newEmail();
    await ta.call('POST', '/invitee', { token: admin.token, body: { email, role: 'agent', workspaceId: admin.workspaceId } });
    const token = await ta.inviteToken(admin, email);
    const res = await ta.call('POST', `/auth/sign-up/${token}`, { body: { email: newEmail(), password: 'password1' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('This invitation was sent to another email address');
  });

  it('sends the invitation link by e-mail and validates it publicly', async () => {
    const admin = await ta.newAdmin('Lighthouse Co');
    const email = newEmail();
    await ta.call('POST', '/invitee', { token: admin.token, body: { email, role: 'admin', workspaceId: admin.workspaceId } });
    const mail = ta.app.parley.mailer.outbox.find((m) => m.to === email);
    expect(mail?.subject).toBe('You are invited to Lighthouse Co on Parley');
    const [inv] = await ta.db.select().from(t.invitees).where(eq(t.invitees.email, email.toLowerCase()));
    // The link carries the invitation's token, not its id.
    const id = /\/invite\/([A-Za-z0-9_-]+)/.exec(mail!.text)?.[1];
    expect(id).toBe(inv.token);
    const v = await ta.call('POST', '/invitee/validate', { body: { id } });
    expect(v.statusCode).toBe(200);
    // Only what the invitation page shows: no token, no inviting member, no identity uid.
    expect(v.json()).toEqual({ email, role: 'admin', workspaceName: 'Lighthouse Co', hasAccount: false });
    expect(v.body).not.toContain(inv.token);
    expect(v.body).not.toContain(admin.member.id);
    expect((await ta.call('POST', '/invitee/validate', { body: { id: randomUUID() } })).statusCode).toBe(404);
    // The invitation's id is no credential: it neither looks the invitation up nor signs anyone up.
    expect((await ta.call('POST', '/invitee/validate', { body: { id: inv.id } })).statusCode).toBe(404);
    expect((await ta.call('POST', `/auth/sign-up/${inv.id}`, { body: { email, password: 'password1' } })).statusCode).toBe(404);
  });

  it('tells the invitation page when the invitee already has an account, who then accepts signed in', async () => {
    const adminA = await ta.newAdmin('Shop A');
    const adminB = await ta.newAdmin('Shop B');
    await ta.call('POST', '/invitee', { token: adminA.token, body: { email: adminB.email, role: 'agent', workspaceId: adminA.workspaceId } });
    const [inv] = await ta.db.select().from(t.invitees).where(eq(t.invitees.email, adminB.email.toLowerCase()));
    const v = await ta.call('POST', '/invitee/validate', { body: { id: inv.token } });
    expect(v.json()).toEqual({ email: adminB.email.toLowerCase(), role: 'agent', workspaceName: 'Shop A', hasAccount: true });
    expect(v.body).not.toContain(adminB.member.uid);

    const accepted = await ta.call('POST', '/invitee/accept', { token: adminB.token, body: { token: inv.token } });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({
      currentWorkspaceId: adminA.workspaceId,
      role: 'agent',
      workspaceIds: [adminB.workspaceId, adminA.workspaceId],
    });
    // Back in the own workspace the role is admin again.
    const back = await ta.call('PATCH', '/auth/me', { token: adminB.token, body: { currentWorkspaceId: adminB.workspaceId } });
    expect(back.json()).toMatchObject({ role: 'admin', currentWorkspaceId: adminB.workspaceId });
  });
});

describe('/auth/me', () => {
  it('switches the current workspace only to one the member belongs to', async () => {
    const admin = await ta.newAdmin();
    const created = await ta.call('POST', '/workspace', { token: admin.token, body: { name: 'Second shop' } });
    expect(created.statusCode).toBe(201);
    const second = created.json().id;
    const me = await ta.call('GET', '/auth/me', { token: admin.token });
    expect(me.json().currentWorkspaceId).toBe(second);
    expect(me.json().Workspaces.map((w: { name: string }) => w.name)).toEqual(['Acme Trading', 'Second shop']);

    const sw = await ta.call('PATCH', '/auth/me', { token: admin.token, body: { currentWorkspaceId: admin.workspaceId } });
    expect(sw.statusCode).toBe(200);
    expect(sw.json().currentWorkspaceId).toBe(admin.workspaceId);

    const stranger = await ta.newAdmin();
    const refused = await ta.call('PATCH', '/auth/me', { token: admin.token, body: { currentWorkspaceId: stranger.workspaceId } });
    expect(refused.statusCode).toBe(403);
    const [row] = await ta.db.select().from(t.members).where(eq(t.members.id, admin.member.id));
    expect(row.currentWorkspaceId).toBe(admin.workspaceId);
  });

  it('answers 404 for an identity without a Parley account', async () => {
    const { signUpWithPassword } = await import('../support/identity-rest');
    const { idToken } = await signUpWithPassword(emulatorHost(), newEmail(), 'password1');
    const res = await ta.call('GET', '/auth/me', { token: idToken });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('No Parley account exists for this identity; sign up first');
  });
});

describe('rate limits', () => {
  it('limits sign-ups and failed tokens per client', async () => {
    const small = await buildTestApp({ rateLimits: { signUpPerMinute: 2, invitePerMinute: 2, tokenFailuresPerMinute: 3, triggerCallsPer10s: 100 } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await small.call('POST', '/auth/sign-up', { body: { email: 'bad', password: 'x' } });
        codes.push(r.statusCode);
      }
      expect(codes).toEqual([400, 400, 429]);
      const tokenCodes: number[] = [];
      for (let i = 0; i < 4; i++) tokenCodes.push((await small.call('GET', '/auth/me', { token: 'forged' })).statusCode);
      expect(tokenCodes).toEqual([401, 401, 401, 429]);
      const validateCodes: number[] = [];
      for (let i = 0; i < 3; i++) {
        validateCodes.push((await small.call('POST', '/invitee/validate', { body: { id: randomUUID() } })).statusCode);
      }
      expect(validateCodes).toEqual([404, 404, 429]);
    } finally {
      await small.close();
    }
  });
});
