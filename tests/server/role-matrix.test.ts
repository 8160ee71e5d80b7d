/**
 * The route table held against the role matrix written apart from it (tests/support/role-matrix.ts), both ways:
 * a route whose role in src/shared/api/routes.ts differs from the matrix fails, a route the matrix does not list
 * fails (naming it), and a matrix line naming no route fails. route-walk then calls every route as an agent
 * with the matrix's role as the expectation.
 */
import { describe, expect, it } from 'vitest';
import { type RouteDef, routeNames, routes } from '../../src/shared/api/routes';
import { callKey, roleMatrix, whoMayCall, whoOfAccess } from '../support/role-matrix';

const entries = routeNames.map((n) => [n, routes[n] as RouteDef] as const);

describe('the role matrix against the route table', () => {
  it.each(entries)('%s: the table lets in whom the matrix says', (name, def) => {
    const who = whoMayCall(def.method, def.path, name);
    expect(whoOfAccess(def.access), `${callKey(def.method, def.path)} (${name}): the route table says ${whoOfAccess(def.access)}, the role matrix says ${who}`).toBe(who);
  });

  it('lists no call that the route table does not have', () => {
    const inTable = new Set(entries.map(([, d]) => callKey(d.method, d.path)));
    const stale = Object.keys(roleMatrix).filter((k) => !inTable.has(k));
    expect(stale, 'calls in tests/support/role-matrix.ts that no route of src/shared/api/routes.ts makes').toEqual([]);
  });

  it('names a route missing from the matrix in its failure', () => {
    expect(() => whoMayCall('POST', '/campaign/:campaignId/explode', 'explodeCampaign')).toThrow(
      /Route POST \/campaign\/:campaignId\/explode \(explodeCampaign\) is in src\/shared\/api\/routes\.ts but not in the role matrix/,
    );
  });
});
