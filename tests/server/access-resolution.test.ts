/**
 * Access resolution as a unit (seconds per mutant for the mutation score of src/server/auth/access.ts):
 * the real repositories on a fresh database, a stand-in identity service and requests as Fastify hands them over.
 * The same rules through the HTTP routes are walked by route-walk.test.ts and role-matrix.test.ts.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { accessOptionsFor, authenticate, bearerToken, resolveAccess, streamStillAllowed, type AccessDeps } from '../../src/server/auth/access';
import type { IdentityProvider } from '../../src/server/identity/identity-provider';
import type { Access } from '../../src/shared/api/routes';
import { openTestDatabase } from '../support/server';
import { hashTriggerKey } from '../../src/server/campaigns/trigger-keys';
import { onAccessLost } from '../../src/server/realtime/access-lost';
import type { Database } from '../../src/server/db/client';

let database: Database;
let dispose: () => Promise<void>;
const ws = { a: '', b: '' };
const m = { adminA: '', agentA: '', loner: '', fresh: '' };
let contactA = '';
let tokenFailures = 0;
let overLimit = false;
/** token -> identity; `revoked` tokens pass only without the revocation check; `unverified` have no verified e-mail. */
const identities = new Map<string, { uid: string; emailVerified: boolean; revoked?: boolean }>();
const checkedRevoked: boolean[] = [];

const identity = {
  async verifyIdToken(token: string, checkRevoked?: boolean) {
    checkedRevoked.push(checkRevoked === true);
    const who = identities.get(token);
    if (!who || (who.revoked && checkRevoked)) throw new Error('invalid token');
    return { uid: who.uid, email: `${who.uid}@acme-test.com`, emailVerified: who.emailVerified, expiresAt: new Date(Date.now() + 3_600_000) };
  },
} as unknown as IdentityProvider;

const deps = (): AccessDeps => ({
  db: database,
  identity,
  onTokenFailure: async () => {
    tokenFailures++;
    return overLimit;
  },
});

const req = (token: string | null, part: { params?: unknown; body?: unknown } = {}) =>
  ({ headers: token === null ? {} : { authorization: `Bearer ${token}` }, params: part.params ?? {}, body: part.body }) as unknown as FastifyRequest;

beforeAll(async () => {
  ({ database, dispose } = await openTestDatabase());
  const db = database.db;
  const [wa, wb] = await db.insert(t.workspaces).values([{ name: 'Access A' }, { name: 'Access B' }]).returning();
  ws.a = wa.id;
  ws.b = wb.id;
  const rows = await db
    .insert(t.members)
    .values([
      { uid: 'uid-admin-a', currentWorkspaceId: wa.id },
      { uid: 'uid-agent-a', currentWorkspaceId: null },
      { uid: 'uid-loner', currentWorkspaceId: null },
    ])
    .returning();
  [m.adminA, m.agentA, m.loner] = rows.map((r) => r.id);
  await db.insert(t.workspaceMembers).values([
    { workspaceId: wa.id, memberId: m.adminA, role: 'admin' },
    { workspaceId: wa.id, memberId: m.agentA, role: 'agent' },
  ]);
  const [contact] = await db.insert(t.contacts).values({ workspaceId: wa.id, name: 'Cleo', phoneNumber: '+14155550100' }).returning();
  contactA = contact.id;
  identities.set('admin', { uid: 'uid-admin-a', emailVerified: true });
  identities.set('agent', { uid: 'uid-agent-a', emailVerified: true });
  identities.set('loner', { uid: 'uid-loner', emailVerified: true });
  identities.set('unverified', { uid: 'uid-agent-a', emailVerified: false });
  identities.set('revoked', { uid: 'uid-admin-a', emailVerified: true, revoked: true });
  identities.set('stranger', { uid: 'uid-nobody', emailVerified: true });
});
afterAll(async () => {
  await dispose?.();
});

async function refusal(p: Promise<unknown>): Promise<{ statusCode: number; message: string }> {
  try {
    await p;
  } catch (e) {
    const err = e as { statusCode: number; message: string };
    return { statusCode: err.statusCode, message: err.message };
  }
  throw new Error('expected a refusal, got access');
}

const wsParams = (role: 'admin' | 'agent'): Access => ({ kind: 'workspace', in: 'params', role });
const wsBody = (role: 'admin' | 'agent'): Access => ({ kind: 'workspace', in: 'body', role });
const contactIn = (where: 'params' | 'body', role: 'admin' | 'agent' = 'agent'): Access => ({ kind: 'resource', resource: 'contact', in: where, field: 'contactId', role });

describe('bearerToken', () => {
  it('reads `Bearer <token>` in any case of the word, and nothing else', () => {
    expect(bearerToken(req('abc'))).toBe('abc');
    expect(bearerToken({ headers: { authorization: 'bearer xyz' } } as unknown as FastifyRequest)).toBe('xyz');
    // RFC 9110 (credentials = auth-scheme 1*SP token68): more than one space is still a Bearer token
    expect(bearerToken({ headers: { authorization: 'Bearer   xyz' } } as unknown as FastifyRequest)).toBe('xyz');
    for (const header of ['Basic abc', 'Bearer', 'Bearer ', 'Bearer a b', 'xBearer abc', ['Bearer abc'], undefined]) {
      expect(bearerToken({ headers: { authorization: header } } as unknown as FastifyRequest), String(header)).toBeNull();
    }
  });
});

describe('accessOptionsFor', () => {
  it('checks revocation and a verified e-mail on writes, revocation on streams, neither on reads or public calls', () => {
    const agent = wsParams('agent');
    expect(accessOptionsFor({ method: 'GET', access: agent })).toEqual({ checkRevoked: false, requireVerifiedEmail: false });
    expect(accessOptionsFor({ method: 'POST', access: agent })).toEqual({ checkRevoked: true, requireVerifiedEmail: true });
    expect(accessOptionsFor({ method: 'DELETE', access: agent })).toEqual({ checkRevoked: true, requireVerifiedEmail: true });
    expect(accessOptionsFor({ method: 'GET', access: agent, stream: true })).toEqual({ checkRevoked: true, requireVerifiedEmail: false });
    expect(accessOptionsFor({ method: 'POST', access: { kind: 'public' } })).toEqual({ checkRevoked: false, requireVerifiedEmail: false });
  });
});

describe('authenticate', () => {
  it('refuses a missing or invalid token with 401, or 429 once the client is over its limit, counting each failure', async () => {
    overLimit = false;
    const before = tokenFailures;
    expect(await refusal(authenticate(req(null), deps()))).toEqual({ statusCode: 401, message: 'Missing or invalid identity token' });
    expect(await refusal(authenticate(req('forged'), deps()))).toEqual({ statusCode: 401, message: 'Missing or invalid identity token' });
    expect(tokenFailures).toBe(before + 2);
    overLimit = true;
    expect(await refusal(authenticate(req(null), deps()))).toEqual({ statusCode: 429, message: 'Too many failed sign-in attempts; try again in a minute' });
    expect(await refusal(authenticate(req('forged'), deps()))).toEqual({ statusCode: 429, message: 'Too many failed sign-in attempts; try again in a minute' });
    overLimit = false;
  });

  it('asks for revocation only when told to, and refuses an unverified e-mail only when told to', async () => {
    checkedRevoked.length = 0;
    expect((await authenticate(req('revoked'), deps())).uid).toBe('uid-admin-a');
    expect(await refusal(authenticate(req('revoked'), deps(), { checkRevoked: true }))).toMatchObject({ statusCode: 401 });
    expect(checkedRevoked).toEqual([false, true]);
    expect((await authenticate(req('unverified'), deps())).member?.id).toBe(m.agentA);
    expect(await refusal(authenticate(req('unverified'), deps(), { requireVerifiedEmail: true }))).toEqual({
      statusCode: 403,
      message: 'Verify your email address first',
    });
  });

  it('finds the member of the identity, or none for an identity without an account', async () => {
    const caller = await authenticate(req('agent'), deps());
    expect(caller).toMatchObject({ uid: 'uid-agent-a', email: 'uid-agent-a@acme-test.com', emailVerified: true });
    expect(caller.member?.id).toBe(m.agentA);
    expect((await authenticate(req('stranger'), deps())).member).toBeNull();
  });
});

describe('resolveAccess', () => {
  it('lets anyone through a public call without looking at the token', async () => {
    expect(await resolveAccess({ kind: 'public' }, req(null), deps())).toEqual({ caller: null });
  });

  it('lets any valid token through a signed-in call, even without an account', async () => {
    const res = await resolveAccess({ kind: 'signedIn' }, req('stranger'), deps());
    expect('caller' in res && res.caller?.uid).toBe('uid-nobody');
    expect(await refusal(resolveAccess({ kind: 'signedIn' }, req(null), deps()))).toMatchObject({ statusCode: 401 });
  });

  it('resolves the workspace named in the path or the body, with the member\'s role', async () => {
    expect(await resolveAccess(wsParams('agent'), req('agent', { params: { workspaceId: ws.a } }), deps())).toMatchObject({ workspaceId: ws.a, role: 'agent' });
    expect(await resolveAccess(wsBody('admin'), req('admin', { body: { workspaceId: ws.a } }), deps())).toMatchObject({ workspaceId: ws.a, role: 'admin' });
    const ctx = await resolveAccess(wsParams('agent'), req('admin', { params: { workspaceId: ws.a } }), deps());
    expect('workspaceId' in ctx && ctx.caller?.member.id).toBe(m.adminA);
  });

  it('refuses an agent an admin call with 403 "Only workspace admins can do this"', async () => {
    expect(await refusal(resolveAccess(wsParams('admin'), req('agent', { params: { workspaceId: ws.a } }), deps()))).toEqual({
      statusCode: 403,
      message: 'Only workspace admins can do this',
    });
    expect(await refusal(resolveAccess(contactIn('params', 'admin'), req('agent', { params: { contactId: contactA } }), deps()))).toEqual({
      statusCode: 403,
      message: 'Only workspace admins can do this',
    });
  });

  it('answers 403 "not a member" for another, an unknown, a missing or a malformed workspace id, and for no account', async () => {
    const notMember = { statusCode: 403, message: 'You are not a member of this workspace' };
    for (const workspaceId of [ws.b, randomUUID(), undefined, 42, 'not-a-uuid']) {
      expect(await refusal(resolveAccess(wsParams('agent'), req('agent', { params: { workspaceId } }), deps())), String(workspaceId)).toEqual(notMember);
    }
    expect(await refusal(resolveAccess(wsBody('agent'), req('agent', { body: undefined }), deps()))).toEqual(notMember);
    expect(await refusal(resolveAccess(wsBody('agent'), req('agent', { body: { workspaceId: ws.b } }), deps()))).toEqual(notMember);
    expect(await refusal(resolveAccess(wsParams('agent'), req('stranger', { params: { workspaceId: ws.a } }), deps()))).toEqual(notMember);
  });

  it('resolves a resource to its own workspace from the path or the body', async () => {
    expect(await resolveAccess(contactIn('params'), req('agent', { params: { contactId: contactA } }), deps())).toMatchObject({ workspaceId: ws.a, role: 'agent' });
    expect(await resolveAccess(contactIn('body'), req('admin', { body: { contactId: contactA } }), deps())).toMatchObject({ workspaceId: ws.a, role: 'admin' });
  });

  it('answers a resource of another workspace exactly as an unknown one: 404 "<Kind> not found"', async () => {
    const missing = { statusCode: 404, message: 'Contact not found' };
    expect(await refusal(resolveAccess(contactIn('params'), req('loner', { params: { contactId: contactA } }), deps()))).toEqual(missing);
    expect(await refusal(resolveAccess(contactIn('params'), req('agent', { params: { contactId: randomUUID() } }), deps()))).toEqual(missing);
    expect(await refusal(resolveAccess(contactIn('params'), req('agent', { params: { contactId: 7 } }), deps()))).toEqual(missing);
    expect(await refusal(resolveAccess(contactIn('body'), req('agent', { body: undefined }), deps()))).toEqual(missing);
    expect(await refusal(resolveAccess(contactIn('params'), req('stranger', { params: { contactId: contactA } }), deps()))).toEqual(missing);
    const template: Access = { kind: 'resource', resource: 'whatsappTemplate', in: 'params', field: 'templateId', role: 'agent' };
    expect(await refusal(resolveAccess(template, req('agent', { params: { templateId: randomUUID() } }), deps()))).toEqual({ statusCode: 404, message: 'Template not found' });
  });

  it('acts in the current workspace, or else the first one joined, for uploads that name none', async () => {
    const current: Access = { kind: 'currentWorkspace', role: 'agent' };
    expect(await resolveAccess(current, req('admin'), deps())).toMatchObject({ workspaceId: ws.a, role: 'admin' });
    expect(await resolveAccess(current, req('agent'), deps())).toMatchObject({ workspaceId: ws.a, role: 'agent' });
    const notMember = { statusCode: 403, message: 'You are not a member of this workspace' };
    expect(await refusal(resolveAccess(current, req('loner'), deps()))).toEqual(notMember);
    expect(await refusal(resolveAccess(current, req('stranger'), deps()))).toEqual(notMember);
    expect(await refusal(resolveAccess({ kind: 'currentWorkspace', role: 'admin' }, req('agent'), deps()))).toEqual({
      statusCode: 403,
      message: 'Only workspace admins can do this',
    });
  });
});

describe('the 404 of each kind of resource', () => {
  it('names the kind in words a user reads', async () => {
    const words = {
      bot: 'Bot not found',
      campaign: 'Campaign not found',
      attribute: 'Attribute not found',
      contact: 'Contact not found',
      conversation: 'Conversation not found',
      invitee: 'Invitation not found',
      segment: 'Segment not found',
      whatsappTemplate: 'Template not found',
      whatsappAccount: 'WhatsApp account not found',
    } as const;
    for (const [resource, message] of Object.entries(words)) {
      const access = { kind: 'resource', resource, in: 'params', field: 'id', role: 'agent' } as Access;
      expect(await refusal(resolveAccess(access, req('agent', { params: { id: randomUUID() } }), deps()))).toEqual({ statusCode: 404, message });
    }
  });
});

describe('streamStillAllowed', () => {
  it('goes on while the token is valid with revocation and the member belongs, and stops otherwise', async () => {
    const ctx = (member: string) => ({ workspaceId: ws.a, caller: { uid: `uid-${member}`, member: { id: member } } });
    checkedRevoked.length = 0;
    expect(await streamStillAllowed(deps(), 'agent', ctx(m.agentA))()).toBe(true);
    expect(checkedRevoked).toEqual([true]);
    expect(await streamStillAllowed(deps(), 'revoked', ctx(m.adminA))()).toBe(false);
    expect(await streamStillAllowed(deps(), 'loner', ctx(m.loner))()).toBe(false);
  });
});

describe('a campaign trigger key', () => {
  const key = 'pk_access-resolution-key-0123456789';
  const otherKey = 'pk_access-resolution-other-key-999';
  let campaignA = '';
  let campaignB = '';
  beforeAll(async () => {
    const rows = await database.db
      .insert(t.campaigns)
      .values([
        { workspaceId: ws.a, name: 'Keyed', type: 'recurring', rfInstance: {}, memberId: m.adminA, triggerKeyHash: hashTriggerKey(key), triggerKeyHint: key.slice(-4) },
        { workspaceId: ws.b, name: 'Other', type: 'recurring', rfInstance: {}, memberId: m.adminA, triggerKeyHash: hashTriggerKey(otherKey), triggerKeyHint: otherKey.slice(-4) },
      ])
      .returning();
    [campaignA, campaignB] = rows.map((r) => r.id);
  });
  const keyed: Access = { kind: 'campaignKey', resource: 'campaign', in: 'params', field: 'campaignId', role: 'admin' };
  const withKey = (k: string, campaignId: string, header: 'x-parley-key' | 'authorization' = 'x-parley-key') =>
    ({ headers: { [header]: header === 'authorization' ? `Bearer ${k}` : k }, params: { campaignId } }) as unknown as FastifyRequest;

  it("acts as an admin of the campaign's workspace for the campaign whose key it is, from the header or as a Bearer token", async () => {
    const expected = { caller: null, workspaceId: ws.a, role: 'admin', triggerKeyHash: hashTriggerKey(key) };
    expect(await resolveAccess(keyed, withKey(key, campaignA), deps())).toEqual(expected);
    expect(await resolveAccess(keyed, withKey(key, campaignA, 'authorization'), deps())).toEqual(expected);
  });

  it("refuses with 401 an unknown key, or another campaign's key", async () => {
    const invalid = { statusCode: 401, message: 'Invalid trigger key for this campaign' };
    expect(await refusal(resolveAccess(keyed, withKey('pk_unknown-key', campaignA), deps()))).toEqual(invalid);
    expect(await refusal(resolveAccess(keyed, withKey(otherKey, campaignA), deps()))).toEqual(invalid);
    expect(await refusal(resolveAccess(keyed, withKey(key, campaignB), deps()))).toEqual(invalid);
  });

  it('without a key, a member is checked as for the campaign resource', async () => {
    expect(await resolveAccess(keyed, req('admin', { params: { campaignId: campaignA } }), deps())).toMatchObject({ workspaceId: ws.a, role: 'admin' });
    expect(await refusal(resolveAccess(keyed, req('agent', { params: { campaignId: campaignA } }), deps()))).toEqual({ statusCode: 403, message: 'Only workspace admins can do this' });
    expect(await refusal(resolveAccess(keyed, req('admin', { params: { campaignId: campaignB } }), deps()))).toEqual({ statusCode: 404, message: 'Campaign not found' });
    expect(await refusal(resolveAccess(keyed, req(null, { params: { campaignId: campaignA } }), deps()))).toMatchObject({ statusCode: 401 });
  });
});

describe('reporting lost access, so open event streams end at once', () => {
  const lost: unknown[] = [];
  let stop: () => void = () => undefined;
  beforeAll(() => {
    stop = onAccessLost(database, (l) => lost.push(l));
  });
  afterAll(() => stop());

  const tokenOf = (sub: unknown) => `h.${Buffer.from(JSON.stringify({ sub })).toString('base64url')}.s`;
  const refusingWith = (code: string): AccessDeps => ({
    ...deps(),
    identity: {
      verifyIdToken: async () => {
        throw Object.assign(new Error('refused'), { code });
      },
    } as unknown as IdentityProvider,
  });

  it('reports the uid of a genuine token whose user is disabled, deleted or revoked', async () => {
    for (const code of ['auth/user-disabled', 'auth/user-not-found', 'auth/id-token-revoked']) {
      lost.length = 0;
      expect(await refusal(authenticate(req(tokenOf('uid-gone')), refusingWith(code)))).toEqual({ statusCode: 401, message: 'Missing or invalid identity token' });
      expect(lost, code).toEqual([{ uid: 'uid-gone' }]);
    }
  });

  it('reports nothing for any other refusal, or a token without a usable subject', async () => {
    lost.length = 0;
    await refusal(authenticate(req(tokenOf('uid-x')), refusingWith('auth/id-token-expired')));
    await refusal(authenticate(req(tokenOf('uid-x')), refusingWith('auth/argument-error')));
    await refusal(authenticate(req('forged'), deps()));
    for (const token of [tokenOf(''), tokenOf(42), 'no-dots', 'h.%%%.s', `h.${Buffer.from('not json').toString('base64url')}.s`]) {
      await refusal(authenticate(req(token), refusingWith('auth/user-disabled')));
    }
    const codeless: AccessDeps = { ...deps(), identity: { verifyIdToken: async () => Promise.reject(null) } as unknown as IdentityProvider };
    await refusal(authenticate(req(tokenOf('uid-x')), codeless));
    expect(lost).toEqual([]);
  });

  it('reports the uid of a valid identity that has no account, and nothing for a member', async () => {
    lost.length = 0;
    await authenticate(req('agent'), deps());
    expect(lost).toEqual([]);
    await authenticate(req('stranger'), deps());
    expect(lost).toEqual([{ uid: 'uid-nobody' }]);
  });

  it("reports a member's lost membership of the workspace they asked for", async () => {
    lost.length = 0;
    await refusal(resolveAccess(wsParams('agent'), req('agent', { params: { workspaceId: ws.b } }), deps()));
    expect(lost).toEqual([{ memberId: m.agentA, workspaceId: ws.b }]);
    lost.length = 0;
    await resolveAccess(wsParams('agent'), req('agent', { params: { workspaceId: ws.a } }), deps());
    expect(lost).toEqual([]);
  });

  it('reports nothing for a member of no workspace asking for the current one (there is no membership to lose)', async () => {
    lost.length = 0;
    expect(await refusal(resolveAccess({ kind: 'currentWorkspace', role: 'agent' }, req('loner'), deps()))).toEqual({
      statusCode: 403,
      message: 'You are not a member of this workspace',
    });
    expect(lost).toEqual([]);
  });

  it('the stream check names whose stream it is', () => {
    const check = streamStillAllowed(deps(), 'agent', { workspaceId: ws.a, caller: { uid: 'uid-agent-a', member: { id: m.agentA } } });
    expect(check.subject).toEqual({ uid: 'uid-agent-a', memberId: m.agentA, workspaceId: ws.a });
  });
});
