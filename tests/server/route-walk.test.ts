/**
 * Walks EVERY route of the shared route table, so a route added later is covered without anyone
 * remembering to: tenant isolation, authentication, the role matrix, and malformed input.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RouteDef, type RouteName, routeNames, routes } from '../../src/shared/api/routes';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { type Seeded, seedWorkspace, snapshotWorkspace } from '../support/fixtures';
import { exampleBody, exampleParams, exampleQueryString, exampleUrl } from '../support/route-examples';
import { buildPath } from '../../src/shared/api/routes';
import { callKey, roleMatrix, whoMayCall } from '../support/role-matrix';

let ta: TestApp;
let adminA: Session;
let agentA: Session;
let adminB: Session;
let a: Seeded;

beforeAll(async () => {
  ta = await buildTestApp();
  adminA = await ta.newAdmin('Tenant A');
  agentA = await ta.newMember(adminA, 'agent');
  adminB = await ta.newAdmin('Tenant B');
  a = await seedWorkspace(ta, adminA);
});
afterAll(async () => {
  await ta?.close();
});

const entries = routeNames.map((n) => [n, routes[n] as RouteDef] as const);
const guarded = entries.filter(([, d]) => d.access.kind !== 'public');

function secretsOfA(): string[] {
  return [a.workspaceId, adminA.member.id, a.inviteToken, ...Object.values(a.ids)];
}

describe('the route table', () => {
  it('has exactly three public routes: sign-up, sign-up by invitation and invitation look-up', () => {
    expect(entries.filter(([, d]) => d.access.kind === 'public').map(([n]) => n).sort()).toEqual(
      ['signUp', 'signUpWithInvite', 'validateInvitee'].sort(),
    );
  });
});

describe.each(guarded)('%s', (name: RouteName, def: RouteDef) => {
  it('answers 401 without a token, and with a forged one', async () => {
    const url = exampleUrl(def, a);
    const none = await ta.call(def.method, url, { body: exampleBody(name, a) });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    const forged = await ta.call(def.method, url, { token: 'eyJhbGciOiJub25lIn0.e30.', body: exampleBody(name, a) });
    expect(forged.statusCode).toBe(401);
  });

  it("lets a member of another workspace neither read nor change this workspace's data", async () => {
    const before = await snapshotWorkspace(ta, a.workspaceId);
    const res = await ta.call(def.method, exampleUrl(def, a), { token: adminB.token, body: exampleBody(name, a) });
    // A call whose capability has not landed may answer 501 once access is granted (acting in B's own workspace).
    if (def.pending) expect([403, 404, 501]).toContain(res.statusCode);
    else expect(res.statusCode).toBeLessThan(500);
    expect(await snapshotWorkspace(ta, a.workspaceId)).toBe(before);
    for (const secret of secretsOfA()) expect(res.body).not.toContain(secret);

    if (def.access.kind === 'workspace') {
      expect(res.statusCode).toBe(403);
    } else if (def.access.kind === 'resource') {
      expect(res.statusCode).toBe(404);
      // Indistinguishable from an id that exists nowhere.
      const params = { ...exampleParams(def, a) };
      let body = exampleBody(name, a) as Record<string, unknown> | undefined;
      if (def.access.in === 'params') params[def.access.field] = randomUUID();
      else body = { ...body, [def.access.field]: randomUUID() };
      const unknown = await ta.call(def.method, buildPath(def.path, params) + exampleQueryString(def), { token: adminB.token, body });
      expect(unknown.statusCode).toBe(res.statusCode);
      expect(unknown.json()).toEqual(res.json());
    }
  });

  // The expected role comes from the matrix written apart from the table (tests/support/role-matrix.ts), so a
  // route whose role is changed in routes.ts by mistake is caught here, not just echoed back.
  // A route the matrix does not list fails here by name; signed-in calls (own profile, new workspace) need no role.
  const listed = roleMatrix[callKey(def.method, def.path)];
  if (listed !== 'signedIn') it('is open to whom the role matrix says (an agent of the workspace is refused admin calls)', async () => {
    const who = whoMayCall(def.method, def.path, name);
    const before = await snapshotWorkspace(ta, a.workspaceId);
    const res = await ta.call(def.method, exampleUrl(def, a), { token: agentA.token, body: exampleBody(name, a) });
    if (who === 'admin') {
      expect(res.statusCode, `${def.method} ${def.path} is admin-only in the role matrix`).toBe(403);
      expect(res.json().message).toBe('Only workspace admins can do this');
      expect(await snapshotWorkspace(ta, a.workspaceId)).toBe(before);
    } else {
      expect(res.statusCode, `${def.method} ${def.path} is open to agents in the role matrix: ${res.body.slice(0, 200)}`).not.toBe(403);
      expect(res.statusCode).not.toBe(401);
    }
  });
});

const withBody = entries.filter(([, d]) => d.body);

describe.each(withBody)('%s with a malformed body', (name: RouteName, def: RouteDef) => {
  const url = () => exampleUrl(def, a);

  it('refuses invalid JSON with 400', async () => {
    const res = await ta.call(def.method, url(), {
      token: adminA.token,
      body: '{"unterminated": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
  });

  it('refuses a body of the wrong kind with 400', async () => {
    const valid = exampleBody(name, a);
    for (const wrong of [Array.isArray(valid) ? { not: 'a list' } : [1, 2], 42, 'text', true, null]) {
      const res = await ta.call(def.method, url(), {
        token: adminA.token,
        body: JSON.stringify(wrong),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, `body ${JSON.stringify(wrong)}`).toBe(400);
      expect(typeof res.json().message === 'string' || Array.isArray(res.json().message)).toBe(true);
    }
  });

  it('refuses unknown fields with 400', async () => {
    const valid = exampleBody(name, a);
    if (Array.isArray(valid) || typeof valid !== 'object' || valid === null) return;
    const res = await ta.call(def.method, url(), { token: adminA.token, body: { ...valid, isAdmin: true } });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json().message)).toContain('isAdmin');
  });

  it('never answers 5xx to a field of the wrong type', async () => {
    const valid = exampleBody(name, a);
    if (Array.isArray(valid) || typeof valid !== 'object' || valid === null) return;
    for (const key of Object.keys(valid)) {
      for (const wrong of [{ nested: { deep: [1] } }, 123456789, 'x'.repeat(70_000), [], null, -1, '']) {
        const res = await ta.call(def.method, url(), { token: adminA.token, body: { ...valid, [key]: wrong } });
        expect(res.statusCode, `${key} = ${JSON.stringify(wrong).slice(0, 40)}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
      }
    }
  });
});

const withQuery = entries.filter(([, d]) => d.query);
describe.each(withQuery)('%s with a malformed query', (_name: RouteName, def: RouteDef) => {
  it('refuses a bad limit, a bad cursor and unknown parameters with 400', async () => {
    const queries: Record<string, string>[] = [{ limit: 'abc' }, { limit: '0' }, { limit: '100000' }, { cursor: 'not-a-cursor' }, { sneaky: '1' }];
    for (const query of queries) {
      const res = await ta.call(def.method, exampleUrl(def, a), { token: adminA.token, query });
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
    }
  });
});
