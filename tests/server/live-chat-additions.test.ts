/** The two live-chat additions the inbox needs: tab counts and paging back through a long conversation. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { buildTestApp, type Session, type TestApp } from '../support/server';

let ta: TestApp;
let admin: Session;
let agent: Session;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Harbour Foods');
  agent = await ta.newMember(admin, 'agent');
});
afterAll(async () => {
  await ta?.close();
});

async function conversation(opts: { isActive: boolean; member?: string; bot?: boolean; name: string }) {
  const w = admin.workspaceId;
  const [contact] = await ta.db
    .insert(t.contacts)
    .values({ workspaceId: w, name: opts.name, phoneNumber: `+1415555${Math.floor(1000 + Math.random() * 8999)}` })
    .returning();
  let botId: string | null = null;
  if (opts.bot) {
    const res = await ta.call('POST', '/bot', { token: admin.token, body: { workspaceId: w } });
    botId = res.json().id;
  }
  const [c] = await ta.db
    .insert(t.conversations)
    .values({ workspaceId: w, contactId: contact.id, isActive: opts.isActive, assigneeMemberId: opts.member ?? null, assigneeBotId: botId })
    .returning();
  return c;
}

describe('GET /workspace/{id}/conversations/counts', () => {
  it('counts each tab from the caller’s point of view', async () => {
    await conversation({ isActive: true, name: 'Unassigned open' });
    await conversation({ isActive: true, member: admin.member.id, name: 'Mine' });
    await conversation({ isActive: true, member: agent.member.id, name: 'Agent’s' });
    await conversation({ isActive: true, bot: true, name: 'Bot’s' });
    await conversation({ isActive: false, member: admin.member.id, name: 'Closed one' });
    await conversation({ isActive: false, name: 'Closed two' });

    const asAdmin = await ta.call('GET', `/workspace/${admin.workspaceId}/conversations/counts`, { token: admin.token });
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json()).toEqual({ me: 1, assigned: 3, open: 4, closed: 2, unread: { me: 0, assigned: 0, open: 0, closed: 0 } });

    const asAgent = await ta.call('GET', `/workspace/${admin.workspaceId}/conversations/counts`, { token: agent.token });
    expect(asAgent.json()).toMatchObject({ me: 1, assigned: 3, open: 4, closed: 2 });

    // The counts agree with the lists the tabs show.
    for (const tab of ['me', 'assigned', 'open', 'closed'] as const) {
      const list = await ta.call('GET', `/workspace/${admin.workspaceId}/conversations`, { token: admin.token, query: { tab } });
      expect(list.json().items).toHaveLength(asAdmin.json()[tab]);
    }
  });

  it('refuses someone from another workspace', async () => {
    const other = await ta.newAdmin('Other Shop');
    const res = await ta.call('GET', `/workspace/${admin.workspaceId}/conversations/counts`, { token: other.token });
    expect(res.statusCode).toBe(403);
  });
});

describe('GET /conversation/{id}/messages', () => {
  it('pages back through the messages newest first, without gaps or repeats', async () => {
    const c = await conversation({ isActive: true, name: 'Chatty' });
    const base = Date.parse('2026-01-01T10:00:00Z');
    await ta.db.insert(t.messages).values(
      Array.from({ length: 7 }, (_, i) => ({
        workspaceId: admin.workspaceId,
        conversationId: c.id,
        type: 'text' as const,
        text: `message ${i}`,
        creator: (i % 2 ? 'agent' : 'user') as 'agent' | 'user',
        status: i % 2 ? 'delivered' : 'received',
        createdAt: new Date(base + i * 60_000),
      })),
    );
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await ta.call('GET', `/conversation/${c.id}/messages`, {
        token: agent.token,
        query: { limit: '3', ...(cursor ? { cursor } : {}) },
      });
      expect(res.statusCode).toBe(200);
      const page = res.json() as { items: { text: string }[]; nextCursor: string | null };
      seen.push(...page.items.map((m) => m.text));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(['message 6', 'message 5', 'message 4', 'message 3', 'message 2', 'message 1', 'message 0']);

    // `before` pages back from a message the client already holds.
    const all = (await ta.call('GET', `/conversation/${c.id}/messages`, { token: agent.token })).json().items as { id: string; text: string }[];
    const anchor = all.find((m) => m.text === 'message 4')!;
    const older = await ta.call('GET', `/conversation/${c.id}/messages`, { token: agent.token, query: { before: anchor.id, limit: '2' } });
    expect(older.statusCode).toBe(200);
    expect(older.json().items.map((m: { text: string }) => m.text)).toEqual(['message 3', 'message 2']);
    expect(older.json().nextCursor).not.toBeNull();
    const unknown = await ta.call('GET', `/conversation/${c.id}/messages`, {
      token: agent.token,
      query: { before: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknown.json()).toEqual({ items: [], nextCursor: null });
  });
});

describe('conversation search', () => {
  it('finds conversations by the contact search: a word of the name, a name or e-mail prefix, the phone number', async () => {
    const c = await conversation({ isActive: true, name: 'Beatriz Moreno Archer' });
    const [contact] = await ta.db.select().from(t.contacts).where(eq(t.contacts.id, c.contactId));
    const found = async (search: string, tab = 'open') =>
      (
        await ta.call('GET', `/workspace/${admin.workspaceId}/conversations`, { token: agent.token, query: { tab, search } })
      ).json().items.map((x: { id: string }) => x.id);
    expect(await found('archer')).toEqual([c.id]);
    expect(await found('moreno beatriz')).toEqual([c.id]);
    expect(await found('BEA')).toEqual([c.id]);
    expect(await found(contact.phoneNumber!.slice(0, 9))).toContain(c.id);
    expect(await found('archer', 'closed')).toEqual([]);
    expect(await found('nobody-here')).toEqual([]);
  });
});

describe('conversation search paging', () => {
  it('pages a search newest activity first, with no conversation twice or missed, whichever plan answers it', async () => {
    const w = admin.workspaceId;
    // 7 conversations of "Quill" contacts, a closed one among them, with distinct activity times.
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const [contact] = await ta.db
        .insert(t.contacts)
        .values({ workspaceId: w, name: `Odette Quill ${i}`, phoneNumber: `+1416555${String(1000 + i)}` })
        .returning();
      const [c] = await ta.db
        .insert(t.conversations)
        .values({ workspaceId: w, contactId: contact.id, isActive: i !== 3, lastActivityAt: new Date(Date.UTC(2026, 0, 1, 0, i)) })
        .returning();
      if (i !== 3) ids.unshift(c.id); // newest first
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await ta.call('GET', `/workspace/${w}/conversations`, { token: agent.token, query: { tab: 'open', search: 'quill', limit: '2', ...(cursor && { cursor }) } });
      expect(res.statusCode).toBe(200);
      const page = res.json() as { items: { id: string; Contact: { name: string } }[]; nextCursor: string | null };
      expect(page.items.length).toBeLessThanOrEqual(2);
      for (const item of page.items) expect(item.Contact.name).toMatch(/Quill/);
      seen.push(...page.items.map((x) => x.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(ids);
  });
});
