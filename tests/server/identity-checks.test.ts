/**
 * What an identity must be beyond holding a signed token: calls that create or change data
 * need a verified e-mail address and a token that is not revoked; event streams end when their token expires,
 * when the user is deleted, and when the member leaves the workspace, and refuse revoked tokens on (re)connect.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { deleteApp, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { firebaseIdentity } from '../../src/server/identity/identity-provider';
import * as t from '../../src/server/db/schema';
import { TestApp, buildTestApp, emulatorHost, markEmailVerified, openTestDatabase, testConfig, type Session } from '../support/server';
import { signInWithPassword } from '../../scripts/lib/identity-rest';
import { signUpWithPassword } from '../support/identity-rest';

let ta: TestApp;
let base: string;
const adminApp = initializeApp({ projectId: 'demo-parley' }, `identity-checks-${randomUUID()}`);
const adminAuth = getAuth(adminApp);

beforeAll(async () => {
  // Streams are checked again every 200 ms here (a minute in production).
  ta = await buildTestApp({ realtime: { heartbeatMs: 15_000, recheckMs: 200 } });
  await ta.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(ta.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await ta?.close();
  await deleteApp(adminApp);
});

/** Opens an event stream over real HTTP; `ended` resolves when the server ends it. */
function openStream(url: string, token: string): Promise<{ status: number; ended: Promise<void>; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}?token=${encodeURIComponent(token)}`, (res) => {
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

const within = <T,>(p: Promise<T>, ms: number) =>
  Promise.race([p.then(() => 'ended' as const), new Promise<'still open'>((r) => setTimeout(() => r('still open'), ms))]);

/** An identity made directly at the identity service: unverified, on a public e-mail domain. */
async function rawIdentity() {
  const email = `raw-${randomUUID()}@gmail.com`;
  const session = await signUpWithPassword(emulatorHost(), email, 'password-123');
  return { email, uid: session.localId, token: session.idToken };
}

describe('verified e-mail for calls that create or change data', () => {
  it('an unverified identity on a public domain cannot create a workspace; once verified it can', async () => {
    const raw = await rawIdentity();
    const workspacesBefore = (await ta.db.select().from(t.workspaces)).length;
    const res = await ta.call('POST', '/workspace', { token: raw.token, body: { name: 'Phish Inc' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ statusCode: 403, message: 'Verify your email address first', error: 'Forbidden' });
    expect((await ta.db.select().from(t.workspaces)).length).toBe(workspacesBefore);

    await markEmailVerified(raw.uid);
    const verified = (await signInWithPassword(emulatorHost(), raw.email, 'password-123')).idToken;
    expect((await ta.call('POST', '/workspace', { token: verified, body: { name: 'Real Inc' } })).statusCode).toBe(201);
  });

  it('an admin who has not verified the address cannot invite anyone; sign-up and reads work before verification', async () => {
    const email = `late-${randomUUID()}@acme-test.com`;
    const signUp = await ta.call('POST', '/auth/sign-up', { body: { email, password: 'password-123', name: 'Late Lee', organizationName: 'Late Ltd' } });
    expect(signUp.statusCode).toBe(201);
    const { idToken } = await signInWithPassword(emulatorHost(), email, 'password-123');
    const workspaceId = signUp.json().currentWorkspaceId as string;
    expect((await ta.call('GET', '/auth/me', { token: idToken })).statusCode).toBe(200);

    const mails = ta.app.parley.mailer.outbox.length;
    const invite = await ta.call('POST', '/invitee', { token: idToken, body: { email: `x-${randomUUID()}@acme-test.com`, role: 'admin', workspaceId } });
    expect(invite.statusCode).toBe(403);
    expect(invite.json().message).toBe('Verify your email address first');
    expect(await ta.db.select().from(t.invitees).where(eq(t.invitees.workspaceId, workspaceId))).toEqual([]);
    expect(ta.app.parley.mailer.outbox.length).toBe(mails);
  });

  it('an invitee signs up by the invitation before verifying, as the spec flow has it', async () => {
    const admin = await ta.newAdmin('Inviting Ltd');
    const email = `invitee-${randomUUID()}@acme-test.com`;
    expect((await ta.call('POST', '/invitee', { token: admin.token, body: { email, role: 'agent', workspaceId: admin.workspaceId } })).statusCode).toBe(201);
    const token = await ta.inviteToken(admin, email);
    expect((await ta.call('POST', `/auth/sign-up/${token}`, { body: { email, password: 'password-123' } })).statusCode).toBe(201);
  });
});

describe('revoked, deleted and removed identities', () => {
  let admin: Session;
  beforeAll(async () => {
    admin = await ta.newAdmin('Stream Ltd');
  });
  const streamUrl = (workspaceId: string) => `${base}/workspace/${workspaceId}/events`;

  it("a deleted user's open stream ends, and neither writes nor reconnects are accepted", async () => {
    const agent = await ta.newMember(admin, 'agent');
    const stream = await openStream(streamUrl(admin.workspaceId), agent.token);
    expect(stream.status).toBe(200);
    await adminAuth.deleteUser(agent.member.uid);
    expect(await within(stream.ended, 5000)).toBe('ended');
    expect((await openStream(streamUrl(admin.workspaceId), agent.token)).status).toBe(401);
    expect((await ta.call('POST', '/workspace', { token: agent.token, body: { name: 'Ghost Ltd' } })).statusCode).toBe(401);
  });

  it('a stream ends when its member is removed from the workspace', async () => {
    const agent = await ta.newMember(admin, 'agent');
    const stream = await openStream(streamUrl(admin.workspaceId), agent.token);
    expect(stream.status).toBe(200);
    expect(await within(stream.ended, 600)).toBe('still open');
    await ta.db
      .delete(t.workspaceMembers)
      .where(and(eq(t.workspaceMembers.workspaceId, admin.workspaceId), eq(t.workspaceMembers.memberId, agent.member.id)));
    expect(await within(stream.ended, 5000)).toBe('ended');
  });

  it('revoked tokens open no stream and change nothing', async () => {
    const agent = await ta.newMember(admin, 'agent');
    // Revocation counts in whole seconds after the token's sign-in time.
    await new Promise((r) => setTimeout(r, 1100));
    await adminAuth.revokeRefreshTokens(agent.member.uid);
    expect((await openStream(streamUrl(admin.workspaceId), agent.token)).status).toBe(401);
    expect((await ta.call('PATCH', '/auth/me', { token: agent.token, body: { currentWorkspaceId: admin.workspaceId } })).statusCode).toBe(401);
  });
});

describe('token expiry', () => {
  it('a stream ends when the ID token it was opened with expires', async () => {
    const { database, dispose } = await openTestDatabase();
    const real = firebaseIdentity('demo-parley', emulatorHost());
    // Tokens of the emulator live an hour: this identity says they expire 1.5 s after they are checked, and
    // records whether the server asked for a revocation check (the emulator always checks; Firebase only then).
    const revocationChecks: { token: string; checkRevoked: boolean; expiresAt: number }[] = [];
    const shortLived = {
      ...real,
      verifyIdToken: async (token: string, checkRevoked?: boolean) => {
        const expiresAt = Date.now() + 1500;
        revocationChecks.push({ token, checkRevoked: checkRevoked === true, expiresAt });
        return { ...(await real.verifyIdToken(token, checkRevoked)), expiresAt: new Date(expiresAt) };
      },
    };
    const app = await buildApp({ config: testConfig(), database, logger: false, identity: shortLived });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const other = new TestApp(app, database, async () => {});
      const admin = await other.newAdmin('Expiry Ltd');
      revocationChecks.length = 0;
      const stream = await openStream(`${url}/workspace/${admin.workspaceId}/events`, admin.token);
      expect(stream.status).toBe(200);
      expect(revocationChecks[0]).toMatchObject({ token: admin.token, checkRevoked: true });
      const streamExpiry = revocationChecks[0].expiresAt;
      const endedAt = stream.ended.then(() => Date.now());
      revocationChecks.length = 0;
      await other.call('GET', `/workspace/${admin.workspaceId}`, { token: admin.token });
      await other.call('PATCH', '/auth/me', { token: admin.token, body: { currentWorkspaceId: admin.workspaceId } });
      expect(revocationChecks.map((c) => c.checkRevoked)).toEqual([false, true]);
      // The later calls verified the same token again (new expiries): the stream still ends at its own, not
      // before it (timed from the check, not from here: the calls above take long on a loaded machine).
      expect(await within(stream.ended, Math.max(0, streamExpiry - Date.now()) + 3000)).toBe('ended');
      expect(await endedAt).toBeGreaterThanOrEqual(streamExpiry - 50);
    } finally {
      await app.close();
      await real.close();
      await dispose();
    }
  }, 90_000);
});
