/**
 * Per-member unread state (addition): a customer's message makes the conversation unread for every member,
 * `POST /conversation/{id}/read` clears it for the caller only, the tab counts carry the unread figures and
 * the lists flag each conversation. Inbound messages arrive as real signed webhook deliveries.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { landedIn } from '../support/customers';
import { seedWorkspace, type Seeded } from '../support/fixtures';
import { inbound, postWebhook } from '../support/sandbox-webhooks';

let ta: TestApp;
let admin: Session;
let agent: Session;
let s: Seeded;
let phoneNumberId: string;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Unread Grocers');
  agent = await ta.newMember(admin, 'agent');
  s = await seedWorkspace(ta, admin);
  [{ phoneNumberId }] = await ta.db.select().from(t.whatsappAccounts).where(eq(t.whatsappAccounts.id, s.ids.whatsappAccount));
});
afterAll(async () => {
  await ta?.close();
});

/** The customer at `from` writes; answers the conversation it landed in. */
async function customerWrites(from: string, body: string, name = 'Priya Raman'): Promise<string> {
  const res = await postWebhook(ta, inbound(phoneNumberId, from, { type: 'text', text: { body } }, name));
  expect(res.statusCode).toBe(200);
  await ta.app.parley.jobs.drain();
  return (await landedIn(ta, s.workspaceId, from)).conversation.id;
}

const counts = async (who: Session) => {
  const res = await ta.call('GET', `/workspace/${s.workspaceId}/conversations/counts`, { token: who.token });
  expect(res.statusCode).toBe(200);
  return res.json() as { me: number; open: number; assigned: number; closed: number; unread: Record<string, number> };
};
const read = (who: Session, conversationId: string) => ta.call('POST', `/conversation/${conversationId}/read`, { token: who.token });
const listed = async (who: Session, tab: string) => {
  const res = await ta.call('GET', `/workspace/${s.workspaceId}/conversations`, { token: who.token, query: { tab } });
  return new Map((res.json().items as { id: string; unread?: boolean }[]).map((c) => [c.id, c.unread]));
};

describe('per-member unread state', () => {
  it('counts a conversation the customer wrote in as unread for every member until each opens it', async () => {
    const before = await counts(admin);
    const id = await customerWrites('14155550301', 'Is my order on the way?');

    const adminNow = await counts(admin);
    expect(adminNow.unread.open).toBe(before.unread.open + 1);
    expect((await counts(agent)).unread.open).toBe(before.unread.open + 1);
    expect((await listed(admin, 'open')).get(id)).toBe(true);

    const res = await read(admin, id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    const [mark] = await ta.db
      .select()
      .from(t.conversationReads)
      .where(and(eq(t.conversationReads.memberId, admin.member.id), eq(t.conversationReads.conversationId, id)));
    expect(mark.workspaceId).toBe(s.workspaceId);

    expect((await counts(admin)).unread.open).toBe(before.unread.open);
    expect((await listed(admin, 'open')).get(id)).toBe(false);
    // The agent has not opened it: still unread for them.
    expect((await counts(agent)).unread.open).toBe(before.unread.open + 1);
    expect((await listed(agent, 'open')).get(id)).toBe(true);
  });

  it('makes a read conversation unread again when the customer writes again, and reading twice is harmless', async () => {
    const id = await customerWrites('14155550302', 'Hello?');
    expect((await read(admin, id)).statusCode).toBe(200);
    expect((await read(admin, id)).statusCode).toBe(200);
    expect((await listed(admin, 'open')).get(id)).toBe(false);
    const rows = await ta.db
      .select()
      .from(t.conversationReads)
      .where(and(eq(t.conversationReads.memberId, admin.member.id), eq(t.conversationReads.conversationId, id)));
    expect(rows).toHaveLength(1);

    await customerWrites('14155550302', 'Anyone there?');
    expect((await listed(admin, 'open')).get(id)).toBe(true);
  });

  it('does not count the agent’s own replies as unread', async () => {
    const id = await customerWrites('14155550303', 'Can I change my address?');
    expect((await read(admin, id)).statusCode).toBe(200);
    // The admin's reply, stored as the sending path stores it (the sending itself is tested in messaging tests).
    const now = new Date(Date.now() + 5);
    await ta.db.insert(t.messages).values({
      workspaceId: s.workspaceId,
      conversationId: id,
      type: 'text',
      text: 'Of course, which one?',
      creator: 'agent',
      memberId: admin.member.id,
      status: 'sent',
      createdAt: now,
    });
    await ta.db.update(t.conversations).set({ lastMessageAt: now, lastActivityAt: now }).where(eq(t.conversations.id, id));
    expect((await listed(admin, 'open')).get(id)).toBe(false);
  });

  it('splits the unread figure by tab like the counts, and keeps the existing fields', async () => {
    const id = await customerWrites('14155550304', 'Assign me to someone please');
    const patched = await ta.call('PATCH', `/conversation/${id}`, { token: admin.token, body: { assigneeMemberId: agent.member.id } });
    expect(patched.statusCode).toBe(200);

    const a = await counts(agent);
    expect(Object.keys(a).sort()).toEqual(['assigned', 'closed', 'me', 'open', 'unread']);
    expect(a.unread.me).toBe(1);
    expect((await listed(agent, 'me')).get(id)).toBe(true);
    const assignedBefore = a.unread.assigned;
    expect(assignedBefore).toBeGreaterThanOrEqual(1);
    expect((await counts(admin)).unread.me).toBe(0);

    expect((await read(agent, id)).statusCode).toBe(200);
    const after = await counts(agent);
    expect(after.unread.me).toBe(0);
    expect(after.unread.assigned).toBe(assignedBefore - 1);
    // Every unread figure is at most the tab's size.
    for (const tab of ['me', 'assigned', 'open', 'closed'] as const) expect(after.unread[tab]).toBeLessThanOrEqual(after[tab]);
  });

  it('refuses to mark a conversation of another workspace, and writes nothing', async () => {
    const id = await customerWrites('14155550305', 'Private');
    const outsider = await ta.newAdmin('Other Grocers');
    const res = await read(outsider, id);
    expect([403, 404]).toContain(res.statusCode);
    const rows = await ta.db.select().from(t.conversationReads).where(eq(t.conversationReads.memberId, outsider.member.id));
    expect(rows).toHaveLength(0);
  });

  it('gives each member their own read mark in the conversation detail (the "New messages" divider)', async () => {
    const id = await customerWrites('14155550377', 'Do you deliver on Sundays?');
    const detail = async (who: Session) => (await ta.call('GET', `/conversation/${id}`, { token: who.token })).json() as { readAt: string | null; Message: { id: string; createdAt: string; text: string }[] };
    expect((await detail(admin)).readAt).toBeNull();
    await read(admin, id);
    const first = await detail(admin);
    expect(first.readAt).not.toBeNull();
    expect(new Date(first.readAt!).getTime()).toBeGreaterThanOrEqual(new Date(first.Message[0].createdAt).getTime());
    // The agent never opened it; a later customer message is newer than the admin's mark.
    expect((await detail(agent)).readAt).toBeNull();
    await customerWrites('14155550377', 'Or on Saturdays?');
    const after = await detail(admin);
    const newer = after.Message.filter((m) => new Date(m.createdAt) > new Date(after.readAt!)).map((m) => m.text);
    expect(newer).toEqual(['Or on Saturdays?']);
  });

  it('answers 404 for a conversation that does not exist', async () => {
    const res = await read(admin, '00000000-0000-4000-8000-000000000000');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });
});
