import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { seedWorkspace, type Seeded } from '../support/fixtures';

let ta: TestApp;
let admin: Session;
let agent: Session;
let s: Seeded;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Harbour Foods');
  agent = await ta.newMember(admin, 'agent');
  s = await seedWorkspace(ta, admin);
});
afterAll(async () => {
  await ta?.close();
});

const botCanvas = {
  nodes: [
    { id: 'start', type: 'StartNode', position: { x: 0, y: 0 }, data: { label: 'Start' }, deletable: false },
    {
      id: 'ask',
      type: 'ReplyNode',
      position: { x: 200, y: 0 },
      data: { label: 'Ask', body: 'Track or talk?', errorMessage: 'Pick a button', header: 'Hi' },
      measured: { width: 240, height: 120 },
    },
    { id: 'b1', type: 'ReplyButtonNode', position: { x: 400, y: 0 }, data: { label: 'Track order' } },
    {
      id: 'cond',
      type: 'ConditionNode',
      position: { x: 400, y: 200 },
      data: {
        label: 'Gold?',
        branches: [{ id: 'br1', label: 'Gold', type: 'Normal', conditions: [{ id: 'c1', attributeId: 'attr', operator: 'EQUALS', value: 'gold' }] }],
      },
    },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'ask' },
    { id: 'e2', source: 'ask', target: 'b1', sourceHandle: 'b1' },
  ],
  viewport: { x: 10, y: 20, zoom: 1.5 },
};

describe('bots', () => {
  it('creates a bot with a start node, saves a validated canvas, and reads it back', async () => {
    const created = await ta.call('POST', '/bot', { token: admin.token, body: { workspaceId: admin.workspaceId } });
    expect(created.statusCode).toBe(201);
    const bot = created.json();
    expect(bot).toMatchObject({ title: 'Untitled bot', isActive: false, channel: 'WhatsApp', whatsappAccountId: null });
    expect(bot.rfInstance.nodes).toEqual([expect.objectContaining({ type: 'StartNode', deletable: false })]);

    const patched = await ta.call('PATCH', `/bot/${bot.id}`, { token: admin.token, body: { title: 'Order helper', rfInstance: botCanvas } });
    expect(patched.statusCode).toBe(200);
    // Deploying checks the canvas and its number: a bot tied to no number is refused, nothing changes.
    const deploy = await ta.call('PATCH', `/bot/${bot.id}`, { token: admin.token, body: { isActive: true } });
    expect(deploy.statusCode).toBe(400);
    expect(deploy.json().message.length).toBeGreaterThan(0);
    const got = (await ta.call('GET', `/bot/${bot.id}`, { token: agent.token })).json();
    expect(got).toMatchObject({ title: 'Order helper', isActive: false, lastDeployedAt: null });
    expect(got.rfInstance.nodes.map((n: { type: string }) => n.type)).toEqual(['StartNode', 'ReplyNode', 'ReplyButtonNode', 'ConditionNode']);
    expect(got.rfInstance.viewport).toEqual({ x: 10, y: 20, zoom: 1.5 });
    const [row] = await ta.db.select().from(t.bots).where(eq(t.bots.id, bot.id));
    expect(row.title).toBe('Order helper');
  });

  it('refuses an invalid canvas and keeps the stored one', async () => {
    const bot = (await ta.call('POST', '/bot', { token: admin.token, body: { workspaceId: admin.workspaceId } })).json();
    const bad = structuredClone(botCanvas);
    (bad.nodes[3].data as { branches: unknown[] }).branches = [];
    bad.nodes[1].data.header = 'h'.repeat(61);
    const res = await ta.call('PATCH', `/bot/${bot.id}`, { token: admin.token, body: { rfInstance: bad } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(expect.arrayContaining([expect.stringContaining('rfInstance.nodes.1.data.header')]));
    const [row] = await ta.db.select().from(t.bots).where(eq(t.bots.id, bot.id));
    expect((row.rfInstance as { nodes: unknown[] }).nodes).toHaveLength(1);

    // A draft may hold an unfinished node (a condition with no branch yet); deploy names it.
    const unfinished = structuredClone(botCanvas);
    (unfinished.nodes[3].data as { branches: unknown[] }).branches = [];
    expect((await ta.call('PATCH', `/bot/${bot.id}`, { token: admin.token, body: { rfInstance: unfinished } })).statusCode).toBe(200);
    const deploy = await ta.call('PATCH', `/bot/${bot.id}`, { token: admin.token, body: { isActive: true } });
    expect(deploy.statusCode).toBe(400);
    expect(deploy.json().message.some((m: string) => m.includes('A condition needs at least one branch'))).toBe(true);
  });

  it('connects a WhatsApp account of the workspace, by id or WABA id, and disconnects', async () => {
    const bot = (await ta.call('POST', '/bot', { token: admin.token, body: { workspaceId: admin.workspaceId } })).json();
    const byId = await ta.call('PATCH', `/bot/${bot.id}/connectWaba`, { token: admin.token, body: { wabaAccountId: s.ids.whatsappAccount } });
    expect(byId.json().whatsappAccountId).toBe(s.ids.whatsappAccount);
    const [acc] = await ta.db.select().from(t.whatsappAccounts).where(eq(t.whatsappAccounts.id, s.ids.whatsappAccount));
    const byWaba = await ta.call('PATCH', `/bot/${bot.id}/connectWaba`, { token: admin.token, body: { wabaAccountId: acc.wabaAccountId } });
    expect(byWaba.json().whatsappAccountId).toBe(acc.id);
    const unknown = await ta.call('PATCH', `/bot/${bot.id}/connectWaba`, { token: admin.token, body: { wabaAccountId: randomUUID() } });
    expect(unknown.statusCode).toBe(404);
    const off = await ta.call('PATCH', `/bot/${bot.id}/connectWaba`, { token: admin.token, body: { wabaAccountId: null } });
    expect(off.json().whatsappAccountId).toBeNull();
  });

  it('lists bots newest first in pages and deletes', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await ta.call('POST', '/bot', { token: admin.token, body: { workspaceId: admin.workspaceId, title: `Bot ${i}` } })).json().id);
    }
    const first = (await ta.call('GET', `/workspace/${admin.workspaceId}/bots`, { token: agent.token, query: { limit: '2' } })).json();
    expect(first.items.map((b: { id: string }) => b.id)).toEqual([ids[2], ids[1]]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (
      await ta.call('GET', `/workspace/${admin.workspaceId}/bots`, { token: agent.token, query: { limit: '2', cursor: first.nextCursor } })
    ).json();
    expect(second.items[0].id).toBe(ids[0]);

    expect((await ta.call('DELETE', `/bot/${ids[0]}`, { token: admin.token })).json()).toEqual({ success: true });
    expect((await ta.call('GET', `/bot/${ids[0]}`, { token: admin.token })).statusCode).toBe(404);
    expect(await ta.db.select().from(t.bots).where(eq(t.bots.id, ids[0]))).toEqual([]);
  });
});

describe('campaigns', () => {
  it('creates one-time and recurring drafts and saves their canvases', async () => {
    const one = await ta.call('POST', '/campaign', { token: admin.token, body: { workspaceId: admin.workspaceId, type: 'oneTime' } });
    expect(one.statusCode).toBe(201);
    expect(one.json()).toMatchObject({ type: 'oneTime', status: 'draft', resumeAt: null, name: 'Untitled campaign' });
    const rec = await ta.call('POST', '/campaign', { token: admin.token, body: { workspaceId: admin.workspaceId, type: 'recurring' } });
    expect(rec.json().type).toBe('recurring');

    const canvas = {
      nodes: [
        { id: 't', type: 'OneTimeTriggerNode', position: { x: 0, y: 0 }, data: { label: 'Audience', segmentId: s.ids.segment } },
        { id: 'd', type: 'DelayNode', position: { x: 0, y: 100 }, data: { label: 'Wait', waitFor: 2, waitForUnit: 'days' } },
        {
          id: 'w',
          type: 'SendWhatsappNode',
          position: { x: 0, y: 200 },
          data: { label: 'Send', whatsappAccountId: s.ids.whatsappAccount, whatsappTemplateId: s.ids.whatsappTemplate },
        },
      ],
      edges: [
        { id: 'e1', source: 't', target: 'd' },
        { id: 'e2', source: 'd', target: 'w' },
      ],
    };
    const patched = await ta.call('PATCH', `/campaign/${one.json().id}`, { token: admin.token, body: { name: 'Winter sale', rfInstance: canvas } });
    expect(patched.statusCode).toBe(200);
    const got = (await ta.call('GET', `/campaign/${one.json().id}`, { token: agent.token })).json();
    expect(got.name).toBe('Winter sale');
    expect(got.rfInstance.nodes).toHaveLength(3);

    const noSegment = structuredClone(canvas);
    noSegment.nodes[0].data.segmentId = '';
    // A draft may hold an unfinished trigger; deploy names what is missing and sends nothing.
    const draft = await ta.call('PATCH', `/campaign/${one.json().id}`, { token: admin.token, body: { rfInstance: noSegment } });
    expect(draft.statusCode).toBe(200);
    const bad = await ta.call('POST', `/campaign/${one.json().id}/deploy`, { token: admin.token, body: {} });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message.some((m: string) => m.includes('Select audience segment!'))).toBe(true);
    expect((await ta.call('GET', `/campaign/${one.json().id}`, { token: agent.token })).json().status).toBe('draft');

    const list = (await ta.call('GET', `/workspace/${admin.workspaceId}/campaigns`, { token: agent.token })).json();
    expect(list.items.find((c: { id: string }) => c.id === one.json().id)).toMatchObject({ name: 'Winter sale', CampaignLogs: [] });
    expect((await ta.call('DELETE', `/campaign/${rec.json().id}`, { token: admin.token })).statusCode).toBe(200);
  });

  it('lists each campaign with its newest 100 logs and counts of every log by status', async () => {
    const create = async (name: string) =>
      (await ta.call('POST', '/campaign', { token: admin.token, body: { workspaceId: admin.workspaceId, type: 'oneTime', name } })).json().id as string;
    const big = await create('Spring sale');
    const small = await create('Restock alert');
    const quiet = await create('Not sent yet');
    const at = (i: number) => new Date(Date.UTC(2026, 2, 1, 9, 0, i));
    const log = (campaignId: string, i: number, failed = false) => ({
      workspaceId: admin.workspaceId,
      campaignId,
      phoneNumber: `+4915112345${String(i).padStart(3, '0')}`,
      templateName: 'spring_offer',
      messageStatus: failed ? ('failed' as const) : ('success' as const),
      reason: failed ? 'The number is not on WhatsApp' : null,
      createdAt: at(i),
    });
    // 120 rows for the big campaign (every tenth failed), newer than the small campaign's single row.
    await ta.db.insert(t.campaignLogs).values([...Array.from({ length: 120 }, (_, i) => log(big, i + 10, i % 10 === 0)), log(small, 1, true)]);

    const list = (await ta.call('GET', `/workspace/${admin.workspaceId}/campaigns`, { token: agent.token })).json();
    const entry = (id: string) => list.items.find((c: { id: string }) => c.id === id);

    expect(entry(big).logCounts).toEqual({ success: 108, failed: 12 });
    expect(entry(big).CampaignLogs).toHaveLength(100);
    // Newest first: the 100 newest of the 120 rows.
    expect(entry(big).CampaignLogs[0]).toEqual({
      id: expect.any(String),
      createdAt: at(129).toISOString(),
      phoneNumber: '+4915112345129',
      templateName: 'spring_offer',
      messageStatus: 'success',
      reason: null,
      campaignId: big,
    });
    expect(entry(big).CampaignLogs[99].createdAt).toBe(at(30).toISOString());
    // The big campaign's rows do not crowd out an older campaign's.
    expect(entry(small)).toMatchObject({
      logCounts: { success: 0, failed: 1 },
      CampaignLogs: [{ messageStatus: 'failed', reason: 'The number is not on WhatsApp', createdAt: at(1).toISOString(), campaignId: small }],
    });
    expect(entry(quiet)).toMatchObject({ logCounts: { success: 0, failed: 0 }, CampaignLogs: [] });

    // Another workspace's campaign list never sees these rows.
    const other = await ta.newAdmin();
    const theirs = (await ta.call('GET', `/workspace/${other.workspaceId}/campaigns`, { token: other.token })).json();
    expect(theirs.items).toEqual([]);
  });
});

describe('attributes', () => {
  it('answers 409 with statusCode and message on a duplicate name in the workspace, not across workspaces', async () => {
    const body = { name: 'Loyalty tier', description: 'Bronze to gold', type: 'contact', format: 'text', workspaceId: admin.workspaceId };
    const first = await ta.call('POST', '/attribute', { token: admin.token, body });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ name: 'Loyalty tier', description: 'Bronze to gold', type: 'contact', format: 'text' });
    const dup = await ta.call('POST', '/attribute', { token: admin.token, body: { ...body, name: 'loyalty TIER' } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ statusCode: 409, message: 'Attribute with name loyalty TIER already exists', error: 'Conflict' });

    const other = await ta.newAdmin();
    const elsewhere = await ta.call('POST', '/attribute', { token: other.token, body: { ...body, workspaceId: other.workspaceId } });
    expect(elsewhere.statusCode).toBe(201);
  });

  it('renames an attribute carrying contact values over, refuses a rename onto another name, and deletes', async () => {
    const attr = (
      await ta.call('POST', '/attribute', { token: admin.token, body: { name: 'city_zone', format: 'number', workspaceId: admin.workspaceId } })
    ).json();
    await ta.call('PATCH', `/contact/${s.ids.contact}`, { token: agent.token, body: { attributes: { city_zone: 4 } } });
    const renamed = await ta.call('PATCH', `/attribute/${attr.id}`, { token: admin.token, body: { name: 'zone' } });
    expect(renamed.statusCode).toBe(200);
    const [c] = await ta.db.select().from(t.contacts).where(eq(t.contacts.id, s.ids.contact));
    expect(c.attributes).toMatchObject({ zone: 4 });
    expect(c.attributes).not.toHaveProperty('city_zone');

    const clash = await ta.call('PATCH', `/attribute/${attr.id}`, { token: admin.token, body: { name: 'plan' } });
    expect(clash.statusCode).toBe(409);

    expect((await ta.call('DELETE', `/attribute/${attr.id}`, { token: admin.token })).statusCode).toBe(200);
    const [after] = await ta.db.select().from(t.contacts).where(eq(t.contacts.id, s.ids.contact));
    expect(after.attributes).not.toHaveProperty('zone');
  });
});

describe('contacts', () => {
  it('updates name, e-mail, country and attributes checked against their formats', async () => {
    await ta.call('POST', '/attribute', { token: admin.token, body: { name: 'orders', format: 'number', workspaceId: admin.workspaceId } });
    await ta.call('POST', '/attribute', { token: admin.token, body: { name: 'vip', format: 'boolean', workspaceId: admin.workspaceId } });
    const ok = await ta.call('PATCH', `/contact/${s.ids.contact}`, {
      token: agent.token,
      body: { name: 'Grace Hopper', email: 'grace@navy.test', country: 'US', attributes: { orders: '12', vip: true } },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ name: 'Grace Hopper', email: 'grace@navy.test', country: 'US', attributes: { plan: 'gold', orders: 12, vip: true } });

    const wrong = await ta.call('PATCH', `/contact/${s.ids.contact}`, { token: agent.token, body: { attributes: { orders: 'many' } } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Attribute orders must be a number');
    const unknown = await ta.call('PATCH', `/contact/${s.ids.contact}`, { token: agent.token, body: { attributes: { shoe_size: 9 } } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Unknown attribute: shoe_size');
    const [c] = await ta.db.select().from(t.contacts).where(eq(t.contacts.id, s.ids.contact));
    expect(c.attributes).toEqual({ plan: 'gold', orders: 12, vip: true });

    const cleared = await ta.call('PATCH', `/contact/${s.ids.contact}`, { token: agent.token, body: { attributes: { vip: null } } });
    expect(cleared.json().attributes).toEqual({ plan: 'gold', orders: 12 });
  });

  it("lists a contact's conversations with their last message, and searches contacts", async () => {
    const convs = (await ta.call('GET', `/contact/${s.ids.contact}/conversations`, { token: agent.token })).json();
    expect(convs.items).toHaveLength(1);
    expect(convs.items[0]).toMatchObject({ id: s.ids.conversation, lastMessage: { text: 'Hi, where is my order?', creator: 'user' } });
    const found = (await ta.call('GET', `/workspace/${admin.workspaceId}/contacts`, { token: agent.token, query: { search: '+1415555' } })).json();
    expect(found.items.map((c: { id: string }) => c.id)).toEqual([s.ids.contact]);
    const none = (await ta.call('GET', `/workspace/${admin.workspaceId}/contacts`, { token: agent.token, query: { search: 'zzz%' } })).json();
    expect(none.items).toEqual([]);
  });
});

describe('segments', () => {
  it('saves filters with the spec spelling and refuses unknown columns', async () => {
    const body = {
      name: 'Gold in US',
      filters: [
        { column: 'plan', value: 'gold', operator: 'IS', conjuction: 'AND' },
        { column: 'country', value: 'U', operator: 'STARTS_WITH', conjuction: 'OR' },
        { column: 'email', value: '', operator: 'IS_NOT_EMPTY', conjuction: 'AND' },
      ],
      workspaceId: admin.workspaceId,
    };
    const res = await ta.call('POST', '/segment', { token: agent.token, body });
    expect(res.statusCode).toBe(201);
    expect(res.json().filters).toEqual(body.filters);
    const bad = await ta.call('POST', '/segment', { token: agent.token, body: { ...body, filters: [{ column: 'shoe', value: '1', operator: 'IS', conjuction: 'AND' }] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toEqual(['Unknown column: shoe']);
    expect((await ta.call('DELETE', `/segment/${res.json().id}`, { token: agent.token })).statusCode).toBe(200);
    expect(await ta.db.select().from(t.segments).where(eq(t.segments.id, res.json().id))).toEqual([]);
  });
});

describe('conversations', () => {
  it('answers the detail with events, contact and messages', async () => {
    const res = await ta.call('GET', `/conversation/${s.ids.conversation}`, { token: agent.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: s.ids.conversation,
      isActive: true,
      channel: 'WhatsApp',
      Contact: { id: s.ids.contact },
      Message: [{ text: 'Hi, where is my order?', type: 'text', creator: 'user' }],
      ConversationEvent: [],
    });
  });

  it('assigns and closes, recording CONVERSATION_ASSIGNED and CONVERSATION_CLOSED (closed by user)', async () => {
    const assign = await ta.call('PATCH', `/conversation/${s.ids.conversation}`, { token: agent.token, body: { assigneeMemberId: agent.member.id } });
    expect(assign.statusCode).toBe(200);
    expect(assign.json().assigneeMemberId).toBe(agent.member.id);
    const me = (await ta.call('GET', `/workspace/${admin.workspaceId}/conversations`, { token: agent.token, query: { tab: 'me' } })).json();
    expect(me.items.map((c: { id: string }) => c.id)).toContain(s.ids.conversation);

    const close = await ta.call('PATCH', `/conversation/${s.ids.conversation}`, { token: agent.token, body: { isActive: false } });
    expect(close.json().isActive).toBe(false);
    const detail = (await ta.call('GET', `/conversation/${s.ids.conversation}`, { token: agent.token })).json();
    expect(detail.ConversationEvent.map((e: { data: unknown }) => e.data)).toEqual([
      {
        type: 'CONVERSATION_ASSIGNED',
        assignedByType: 'member',
        assignedById: agent.member.id,
        assigneeType: 'member',
        assigneeBotId: null,
        assigneeMemberId: agent.member.id,
      },
      { type: 'CONVERSATION_CLOSED', closedBy: 'user', userId: agent.member.id },
    ]);
    const tabs = async (tab: string) =>
      (await ta.call('GET', `/workspace/${admin.workspaceId}/conversations`, { token: agent.token, query: { tab } })).json().items.map((c: { id: string }) => c.id);
    expect(await tabs('closed')).toContain(s.ids.conversation);
    expect(await tabs('open')).not.toContain(s.ids.conversation);

    // Closing twice records nothing new (reopening records CONVERSATION_REOPENED: tests/server/webhooks.test.ts).
    await ta.call('PATCH', `/conversation/${s.ids.conversation}`, { token: agent.token, body: { isActive: false } });
    const events = await ta.db
      .select()
      .from(t.conversationEvents)
      .where(and(eq(t.conversationEvents.workspaceId, admin.workspaceId), eq(t.conversationEvents.conversationId, s.ids.conversation)));
    expect(events).toHaveLength(2);
    expect((await ta.call('PATCH', `/conversation/${s.ids.conversation}`, { token: agent.token, body: { isActive: true } })).json().isActive).toBe(true);
  });

  it('refuses an assignee from outside the workspace', async () => {
    const stranger = await ta.newAdmin();
    const res = await ta.call('PATCH', `/conversation/${s.ids.conversation}`, { token: agent.token, body: { assigneeMemberId: stranger.member.id } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The assignee is not a member of this workspace');
  });
});

describe('workspace reads', () => {
  it('answers the workspace with its attributes and members with identity data', async () => {
    const res = await ta.call('GET', `/workspace/${admin.workspaceId}`, { token: agent.token });
    expect(res.statusCode).toBe(200);
    const w = res.json();
    expect(w.name).toBe('Harbour Foods');
    expect(w.memberIds).toEqual([admin.member.id, agent.member.id]);
    expect(w.Attribute.map((x: { name: string }) => x.name)).toContain('plan');
    expect(w.Member).toEqual([
      expect.objectContaining({ id: admin.member.id, role: 'admin', email: admin.email.toLowerCase(), displayName: 'Ada Admin', emailVerified: true }),
      expect.objectContaining({ id: agent.member.id, role: 'agent', email: agent.email.toLowerCase() }),
    ]);
    const members = (await ta.call('GET', `/workspace/${admin.workspaceId}/members`, { token: agent.token })).json();
    expect(members.items.map((m: { id: string }) => m.id).sort()).toEqual([admin.member.id, agent.member.id].sort());
  });

  it('never answers a WhatsApp token whole, and deletes an account unlinking its bots and removing its templates', async () => {
    const list = (await ta.call('GET', `/workspace/${admin.workspaceId}/whatsapp`, { token: agent.token })).json();
    const [seeded] = await ta.db.select().from(t.whatsappAccounts).where(eq(t.whatsappAccounts.id, s.ids.whatsappAccount));
    expect(list.items[0].token).toBe(`••••••••${seeded.tokenLast4}`);
    expect(JSON.stringify(list)).not.toContain(seeded.tokenCiphertext);
    const bot = (await ta.call('POST', '/bot', { token: admin.token, body: { workspaceId: admin.workspaceId } })).json();
    await ta.call('PATCH', `/bot/${bot.id}/connectWaba`, { token: admin.token, body: { wabaAccountId: s.ids.whatsappAccount } });
    const [extra] = await ta.db
      .insert(t.whatsappAccounts)
      .values({ workspaceId: admin.workspaceId, phoneNumber: '+14155550111', wabaAccountId: 'w', appId: 'a', phoneNumberId: `pn-${randomUUID()}`, tokenCiphertext: 'c', tokenLast4: 'wxyz', memberId: admin.member.id })
      .returning();
    await ta.call('PATCH', `/bot/${bot.id}/connectWaba`, { token: admin.token, body: { wabaAccountId: extra.id } });
    await ta.db.insert(t.whatsappTemplates).values({
      workspaceId: admin.workspaceId, whatsappAccountId: extra.id, name: 'extra_only', status: 'APPROVED', language: 'en_US',
      category: 'UTILITY', components: [{ type: 'BODY', text: 'Hi' }], memberId: admin.member.id,
    });
    const templateNames = async () =>
      (await ta.call('GET', `/workspace/${admin.workspaceId}/whatsapp-templates`, { token: agent.token })).json().items.map((x: { name: string }) => x.name);
    expect(await templateNames()).toContain('extra_only');
    expect((await ta.call('DELETE', `/whatsapp/${extra.id}`, { token: admin.token })).statusCode).toBe(200);
    expect((await ta.call('GET', `/bot/${bot.id}`, { token: admin.token })).json().whatsappAccountId).toBeNull();
    // The other account's templates stay.
    expect(await templateNames()).toEqual(['order_update']);
  });

  it('lists templates and import history of the workspace', async () => {
    const templates = (await ta.call('GET', `/workspace/${admin.workspaceId}/whatsapp-templates`, { token: agent.token })).json();
    expect(templates.items).toEqual([expect.objectContaining({ name: 'order_update', status: 'APPROVED', category: 'UTILITY' })]);
    const imports = (await ta.call('GET', `/workspace/${admin.workspaceId}/import-history`, { token: agent.token })).json();
    expect(imports.items).toEqual([expect.objectContaining({ fileName: 'contacts.csv', status: 'pending' })]);
  });
});
