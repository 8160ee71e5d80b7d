import { describe, it, expect } from 'vitest';
import { buildPath, routeNames, routes } from '../../src/shared';
import { specPath } from '../support/contract-helpers';
import type { RouteDef } from '../../src/shared';

/** Every call of spec section 7, written by hand from its table (`{x}` -> `:x`, `/invitee/` -> `/invitee`). */
const specCalls: [method: string, path: string, status?: 200 | 201][] = [
  ['POST', '/auth/sign-up', 201],
  ['POST', '/auth/sign-up/:inviteToken', 201],
  ['GET', '/auth/me'],
  ['PATCH', '/auth/me'],
  ['GET', '/bot/:botId'],
  ['POST', '/bot', 201],
  ['PATCH', '/bot/:botId'],
  ['POST', '/bot/:botId/uploadMedia'],
  ['PATCH', '/bot/:botId/connectWaba'],
  ['DELETE', '/bot/:botId'],
  ['GET', '/campaign/:campaignId'],
  ['POST', '/campaign', 201],
  ['POST', '/campaign/:campaignId/deploy'],
  ['PATCH', '/campaign/:campaignId'],
  ['DELETE', '/campaign/:campaignId'],
  ['POST', '/attribute', 201],
  ['PATCH', '/attribute/:attributeId'],
  ['DELETE', '/attribute/:attributeId'],
  ['GET', '/contact/:contactId/conversations'],
  ['PATCH', '/contact/:contactId'],
  ['POST', '/member/profile-photo'],
  ['POST', '/message', 201],
  ['GET', '/workspace/:workspaceId'],
  ['GET', '/workspace/:workspaceId/attributes'],
  ['GET', '/workspace/:workspaceId/bots'],
  ['GET', '/workspace/:workspaceId/campaigns'],
  ['GET', '/workspace/:workspaceId/contacts'],
  ['GET', '/workspace/:workspaceId/conversations'],
  ['GET', '/workspace/:workspaceId/invitees'],
  ['GET', '/workspace/:workspaceId/members'],
  ['GET', '/workspace/:workspaceId/segments'],
  ['GET', '/workspace/:workspaceId/whatsapp'],
  ['GET', '/workspace/:workspaceId/whatsapp-templates'],
  ['POST', '/workspace', 201],
  ['POST', '/import-history/upload'],
  ['POST', '/import-history', 201],
  ['POST', '/invitee'],
  ['POST', '/invitee/validate'],
  ['DELETE', '/invitee/:id'],
  ['GET', '/conversation/:conversationId'],
  ['PATCH', '/conversation/:conversationId'],
  ['POST', '/outbound/:campaignId'],
  ['POST', '/whatsapp-template', 201],
  ['POST', '/whatsapp-template/upload-media'],
  ['DELETE', '/whatsapp-template/:templateId'],
  ['POST', '/segment', 201],
  ['DELETE', '/segment/:segmentId'],
  ['POST', '/whatsapp', 201],
  ['DELETE', '/whatsapp/:id'],
  ['GET', '/whatsapp-flow/:whatsappAccountId'],
];

const all = Object.values(routes) as RouteDef[];
const key = (method: string, path: string) => `${method} ${path}`;
const specKeys = new Set(specCalls.map(([m, p]) => key(m, p)));

describe('route table', () => {
  it('lists 50 spec calls, without duplicates', () => {
    expect(specCalls).toHaveLength(50);
    expect(specKeys.size).toBe(50);
  });

  it.each(specCalls)('has %s %s', (method, path, status) => {
    const found = all.filter((r) => r.method === method && r.path === path);
    expect(found).toHaveLength(1);
    if (status) expect(found[0].status).toBe(status);
  });

  it('registers no method+path twice', () => {
    const keys = all.map((r) => key(r.method, r.path));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('every route not of the spec is marked addition, and every addition is not a spec path', () => {
    for (const r of all) {
      if (!specKeys.has(key(r.method, r.path))) expect(r.addition, key(r.method, r.path)).toBe(true);
      // An addition may add a method to a spec path (PATCH /whatsapp/:id) but never redefine a spec call.
      if (r.addition) expect(specKeys.has(key(r.method, r.path)), key(r.method, r.path)).toBe(false);
    }
  });

  it('routes marked addition exist and are not part of the spec', () => {
    const additions = all.filter((r) => r.addition);
    expect(additions.length).toBeGreaterThan(0);
    expect(additions.every((r) => !specKeys.has(key(r.method, r.path)))).toBe(true);
  });

  it('every route has a response schema', () => {
    for (const name of routeNames) {
      const r = routes[name] as RouteDef;
      expect(r.response, name).toBeDefined();
      expect(typeof r.response.safeParse, name).toBe('function');
    }
  });

  it('every path parameter is described by the params schema', () => {
    for (const name of routeNames) {
      const r = routes[name] as RouteDef;
      const names = [...r.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]).sort();
      const declared = r.params ? Object.keys(r.params.shape).sort() : [];
      expect(declared, name).toEqual(names);
    }
  });

  it('routeNames lists every route', () => {
    expect(routeNames.sort()).toEqual(Object.keys(routes).sort());
    expect(routeNames.length).toBe(all.length);
  });

  it('the success-true answers are Success', () => {
    expect(routes.deployCampaign.response.safeParse({ success: true, status: 'inProgress' }).success).toBe(true);
    expect(routes.createInvitee.response.safeParse({ success: true }).success).toBe(true);
    expect(routes.triggerOutbound.response.safeParse({ success: false }).success).toBe(false);
  });
});

describe('specPath and buildPath', () => {
  it('specPath writes parameters as {param}', () => {
    expect(specPath('/bot/:botId/uploadMedia')).toBe('/bot/{botId}/uploadMedia');
    expect(specPath('/workspace/:workspaceId/whatsapp-templates')).toBe('/workspace/{workspaceId}/whatsapp-templates');
    expect(specPath('/auth/me')).toBe('/auth/me');
  });

  it('buildPath fills parameters, encoded', () => {
    expect(buildPath(routes.getBot.path, { botId: 'b-1' })).toBe('/bot/b-1');
    expect(buildPath(routes.deployCampaign.path, { campaignId: 'c 1/2' })).toBe('/campaign/c%201%2F2/deploy');
    expect(buildPath('/auth/me')).toBe('/auth/me');
  });

  it('buildPath throws on a missing parameter', () => {
    expect(() => buildPath(routes.getBot.path, {})).toThrow(/botId/);
    expect(() => buildPath(routes.getBot.path, { campaignId: 'x' })).toThrow();
  });
});
