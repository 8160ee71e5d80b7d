/**
 * Calls whose capability has not landed answer 501 with a clear message, after the usual access checks.
 * The list is exact: when a capability lands, its route leaves this list in the same change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RouteDef, routeNames, routes } from '../../src/shared/api/routes';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { seedWorkspace, type Seeded } from '../support/fixtures';
import { exampleBody, exampleUrl } from '../support/route-examples';

// Campaign deploy and the recurring trigger landed with No call is pending now.
const expectedPending: string[] = [];

let ta: TestApp;
let admin: Session;
let s: Seeded;
beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin();
  s = await seedWorkspace(ta, admin);
});
afterAll(async () => {
  await ta?.close();
});

describe('calls not available yet', () => {
  it('are exactly these', () => {
    expect(routeNames.filter((n) => (routes[n] as RouteDef).pending).sort()).toEqual(expectedPending);
  });

  it.skipIf(expectedPending.length === 0).each(expectedPending)('%s answers 501 with a message saying what is missing', async (name) => {
    const def = routes[name as keyof typeof routes] as RouteDef;
    const res = await ta.call(def.method, exampleUrl(def, s), { token: admin.token, body: exampleBody(name as never, s) });
    expect(res.statusCode).toBe(501);
    expect(res.json()).toEqual({ statusCode: 501, message: def.pending, error: 'Not Implemented' });
  });
});
