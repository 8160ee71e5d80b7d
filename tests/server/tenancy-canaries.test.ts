/**
 * Tenancy canaries: workspace A holds rows of every kind, each with a distinctive marker; workspace B
 * holds data of its own. EVERY route of the route table is called as a member of B, on B's own data (reads first,
 * with every tab, every search term of A's names and every page; then writes; deletes last), and no answer may
 * contain any of A's ids or distinctive strings: lists, searches, counts, details, exports and the event stream
 * included. Generated from the route table and the schema, so a route or a table added later is covered without
 * new code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { type RouteDef, type RouteName, buildPath, routeNames, routes } from '../../src/shared/api/routes';
import { resourceKinds } from '../../src/shared/api/routes/define';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { type CanaryWorkspace, collectCanaries, leaksIn, newMarker, seedCanaryWorkspace, tinyPng } from '../support/canaries';
import { exampleBody, exampleParams } from '../support/route-examples';
import { multipartBody } from '../support/multipart';
import * as t from '../../src/server/db/schema';
import { eq } from 'drizzle-orm';

let ta: TestApp;
let adminA: Session;
let agentA: Session;
let adminB: Session;
let agentB: Session;
let a: CanaryWorkspace;
let b: CanaryWorkspace;
let canaries: Set<string>;

beforeAll(async () => {
  ta = await buildTestApp();
  adminA = await ta.newAdmin('Tenant A Canary');
  agentA = await ta.newMember(adminA, 'agent');
  adminB = await ta.newAdmin('Tenant B Canary');
  agentB = await ta.newMember(adminB, 'agent');
  a = await seedCanaryWorkspace(ta, adminA, newMarker());
  b = await seedCanaryWorkspace(ta, adminB, newMarker());
  canaries = await collectCanaries(ta, a, [adminA, agentA], b.seeded.workspaceId);
}, 180_000);
afterAll(async () => {
  await ta?.close();
});

const order = (d: RouteDef) => (d.method === 'GET' ? 0 : d.method === 'DELETE' ? 2 : 1);
const entries = routeNames
  .map((n) => [n, routes[n] as RouteDef] as const)
  .sort(([, x], [, y]) => order(x) - order(y));

/** Query variants generated from a route's query schema: every enum value, A's names as search terms, B's ids. */
function queryVariants(def: RouteDef): Record<string, string>[] {
  const out: Record<string, string>[] = [{}];
  const shape = (def.query?.shape ?? {}) as Record<string, { unwrap?: () => unknown; options?: string[] }>;
  for (const [key, schema] of Object.entries(shape)) {
    const inner = (schema.unwrap?.() ?? schema) as { options?: string[] };
    if (Array.isArray(inner.options)) for (const o of inner.options) out.push({ [key]: String(o) });
    else if (key === 'search') for (const term of [...a.searchTerms, ...b.searchTerms.slice(0, 2)]) out.push({ search: term });
    else if (key === 'limit') out.push({ limit: '100' });
    else if (key === 'lastEventId') out.push({ lastEventId: '0' });
    else if (key.endsWith('Id') && (resourceKinds as readonly string[]).includes(key.slice(0, -2))) {
      out.push({ [key]: b.seeded.ids[key.slice(0, -2) as (typeof resourceKinds)[number]] });
    }
  }
  return out;
}

/** A file the upload route accepts. */
function exampleUpload(def: RouteDef) {
  const mp = def.multipart!;
  const mime = ['text/csv', 'image/png', 'application/pdf'].find((m) => mp.mimeTypes.includes(m) || mp.mimeTypes.includes(`${m.split('/')[0]}/*`));
  const content = mime === 'text/csv' ? 'phone,name\n+14155550112,Bea\n' : mime === 'image/png' ? tinyPng : '%PDF-1.4\n%%EOF\n';
  return multipartBody({ field: mp.field, fileName: `b-upload.${mime?.split('/')[1] ?? 'bin'}`, mimeType: mime ?? mp.mimeTypes[0], content });
}

/** Reads an event stream for a while (replayed events, then live ones), then disconnects. */
async function readStream(url: string, token: string, query: Record<string, string>, ms: number, during?: () => Promise<void>): Promise<string> {
  const controller = new AbortController();
  const res = await ta.app.inject({ method: 'GET', url, query, headers: { authorization: `Bearer ${token}` }, payloadAsStream: true, signal: controller.signal });
  let body = '';
  const reading = (async () => {
    try {
      for await (const chunk of res.stream()) body += String(chunk);
    } catch {
      // aborted
    }
  })();
  if (during) await during();
  await new Promise((r) => setTimeout(r, ms));
  controller.abort();
  res.stream().destroy();
  await Promise.race([reading, new Promise((r) => setTimeout(r, 200))]);
  return `${res.statusCode} ${body}`;
}

/** Calls a route as a member of B with B's own ids: every query variant, following every page. */
async function callAsB(name: RouteName, def: RouteDef, who: Session): Promise<{ label: string; body: string }[]> {
  const url = buildPath(def.path, exampleParams(def, b.seeded));
  const answers: { label: string; body: string }[] = [];
  if (def.stream) {
    for (const query of queryVariants(def)) answers.push({ label: `${url} ${JSON.stringify(query)}`, body: await readStream(url, who.token, query, 300) });
    return answers;
  }
  if (def.multipart) {
    const { payload, headers } = exampleUpload(def);
    const res = await ta.app.inject({ method: def.method, url, payload, headers: { ...headers, authorization: `Bearer ${who.token}` } });
    return [{ label: `${def.method} ${url} (upload: ${res.statusCode})`, body: res.body }];
  }
  for (const query of queryVariants(def)) {
    let q: Record<string, string> = query;
    for (let page = 0; page < 5; page++) {
      const res: LightMyRequestResponse = await ta.call(def.method, url, { token: who.token, body: exampleBody(name, b.seeded), query: q });
      answers.push({ label: `${def.method} ${url} ${JSON.stringify(q)} (${res.statusCode})`, body: res.body });
      const next = def.method === 'GET' && res.statusCode === 200 ? (res.json() as { nextCursor?: string | null }).nextCursor : null;
      if (!next) break;
      q = { ...query, cursor: next };
    }
  }
  return answers;
}

describe('the canaries', () => {
  it("are many, of every kind of A's rows, and A's own answers show them (so their absence from B's means something)", async () => {
    expect(canaries.size).toBeGreaterThan(40);
    for (const id of [...Object.values(a.seeded.ids), a.inboundConversationId]) expect(canaries).toContain(id);
    const own = await ta.call('GET', `/workspace/${a.seeded.workspaceId}/conversations`, { token: adminA.token });
    expect(own.statusCode).toBe(200);
    expect(leaksIn(own.body, canaries)).toContain(a.inboundConversationId);
    const search = await ta.call('GET', `/workspace/${a.seeded.workspaceId}/contacts`, { token: adminA.token, query: { search: a.searchTerms[0] } });
    expect(leaksIn(search.body, canaries).length).toBeGreaterThan(0);
  });
});

describe.each(entries)('%s called by workspace B', (name, def) => {
  it("answers with none of workspace A's ids or strings", async () => {
    const callers = def.method === 'GET' ? [adminB, agentB] : [adminB];
    const leaks: string[] = [];
    for (const who of callers) {
      for (const answer of await callAsB(name, def, who)) {
        const found = leaksIn(answer.body, canaries);
        if (found.length) leaks.push(`${answer.label} as ${who === adminB ? 'admin' : 'agent'} of B answers A's ${found.slice(0, 5).join(', ')}`);
      }
    }
    expect(leaks, `${name}: answers to workspace B hold workspace A's data`).toEqual([]);
  });
});

describe("workspace B's reads while A's data grows", () => {
  it('answer exactly the same (so counts and totals are B\'s alone, not only free of A\'s strings)', async () => {
    const reads = entries.filter(([, d]) => d.method === 'GET' && !d.stream);
    const answersOfB = async () => {
      const out: Record<string, string> = {};
      for (const [name, def] of reads) for (const answer of await callAsB(name, def, adminB)) out[`${name} ${answer.label}`] = answer.body;
      return out;
    };
    const before = await answersOfB();
    // A grows: a new customer writes, a new attribute, segment and invitation.
    const [account] = await ta.db.select().from(t.whatsappAccounts).where(eq(t.whatsappAccounts.id, a.seeded.ids.whatsappAccount));
    const { webhook } = await ta.sandbox.customers.say('14155550166', `Canary growth ${a.marker}`, { phoneNumberId: account.phoneNumberId, name: `Canary Growth ${a.marker}` });
    expect(webhook.delivered).toBe(true);
    await ta.app.parley.jobs.drain();
    for (const [url, body] of [
      ['/attribute', { name: `grow_${a.marker}`, format: 'text', workspaceId: a.seeded.workspaceId }],
      ['/segment', { name: `Growth ${a.marker}`, filters: [], workspaceId: a.seeded.workspaceId }],
      ['/invitee', { email: `grow-${a.marker}@acme-test.com`, role: 'agent', workspaceId: a.seeded.workspaceId }],
    ] as const) {
      const res = await ta.call('POST', url, { token: adminA.token, body });
      expect(res.statusCode, res.body).toBe(201);
    }
    const after = await answersOfB();
    const changed = Object.keys(before).filter((k) => before[k] !== after[k]);
    expect(changed.map((k) => `${k}: ${before[k].slice(0, 160)} -> ${after[k]?.slice(0, 160)}`)).toEqual([]);
  });
});

describe("workspace B's live event stream", () => {
  it("carries nothing of A's while A's customer writes and A's admin replies", async () => {
    const [account] = await ta.db.select().from(t.whatsappAccounts).where(eq(t.whatsappAccounts.id, a.seeded.ids.whatsappAccount));
    const body = await readStream(`/workspace/${b.seeded.workspaceId}/events`, adminB.token, {}, 1500, async () => {
      const { webhook } = await ta.sandbox.customers.say('14155550177', `Canary live ${a.marker}`, { phoneNumberId: account.phoneNumberId, name: `Canary Live ${a.marker}` });
      expect(webhook.delivered).toBe(true);
      await ta.app.parley.jobs.drain();
      const sent = await ta.call('POST', '/message', { token: adminA.token, body: { text: `Canary live reply ${a.marker}`, conversationId: a.inboundConversationId } });
      expect(sent.statusCode).toBe(201);
    });
    expect(body.startsWith('200')).toBe(true);
    expect(body).not.toContain(a.marker);
    expect(leaksIn(body, canaries)).toEqual([]);
  });
});

describe("A's files", () => {
  it('are refused to a member of B who has their URLs', async () => {
    for (const url of a.fileUrls) {
      const path = new URL(url, 'http://parley.test').pathname;
      const res = await ta.call('GET', path, { token: adminB.token });
      expect([403, 404], `${path}: ${res.statusCode}`).toContain(res.statusCode);
      expect(leaksIn(res.body, canaries)).toEqual([]);
    }
  });
});
