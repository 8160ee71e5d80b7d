/**
 * "Waiting since": a conversation whose last message is the customer's carries when that
 * message came, and `sort=waiting` lists only those, longest waiting first; an agent's reply takes the
 * conversation out of the waiting list. Inbound messages arrive as real signed webhook deliveries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { customerWrites as writes } from '../support/customers';

let ta: TestApp;
let admin: Session;
let s: { workspaceId: string };
let phoneNumberId: string;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Waiting Grocers');
  s = { workspaceId: admin.workspaceId };
  // A number of the sandbox, so the agent's reply really goes out.
  const number = ta.sandbox.addAccount();
  const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId } });
  expect(res.statusCode).toBe(201);
  phoneNumberId = number.phoneNumberId;
});
afterAll(async () => {
  await ta?.close();
});

/** WhatsApp's timestamps are whole seconds: customers write a second apart so the order is theirs. */
async function customerWrites(from: string, body: string, name: string): Promise<string> {
  await new Promise((r) => setTimeout(r, 1100));
  return (await writes({ ta, workspaceId: s.workspaceId, phoneNumberId }, from, body, name)).conversation.id;
}

type Entry = { id: string; waitingSince?: string | null };
const list = async (query: Record<string, string>) => {
  const res = await ta.call('GET', `/workspace/${s.workspaceId}/conversations`, { token: admin.token, query: { tab: 'open', ...query } });
  expect(res.statusCode).toBe(200);
  return res.json() as { items: Entry[]; nextCursor: string | null };
};

describe('waiting since', () => {
  it('lists conversations whose last message is the customer\'s, longest waiting first, and drops one once answered', async () => {
    const first = await customerWrites('14155550701', 'First in line', 'Ana Early');
    const second = await customerWrites('14155550702', 'Second in line', 'Ben Later');
    const third = await customerWrites('14155550703', 'Third in line', 'Cy Last');

    const recent = await list({});
    const byId = new Map(recent.items.map((c) => [c.id, c]));
    for (const id of [first, second, third]) expect(byId.get(id)?.waitingSince).toEqual(expect.any(String));

    const waiting = await list({ sort: 'waiting' });
    const ours = waiting.items.map((c) => c.id).filter((id) => [first, second, third].includes(id));
    expect(ours).toEqual([first, second, third]);
    // Oldest first across the whole list.
    const times = waiting.items.map((c) => Date.parse(c.waitingSince!));
    expect([...times].sort((a, b) => a - b)).toEqual(times);

    // Paging keeps the order and loses nothing.
    const p1 = await list({ sort: 'waiting', limit: '1' });
    expect(p1.nextCursor).not.toBeNull();
    const p2 = await list({ sort: 'waiting', limit: '1', cursor: p1.nextCursor! });
    expect([p1.items[0].id, p2.items[0].id]).toEqual(waiting.items.slice(0, 2).map((c) => c.id));

    // The agent answers the first one: it is no longer waiting.
    const reply = await ta.call('POST', '/message', { token: admin.token, body: { conversationId: first, text: 'On it!' } });
    expect(reply.statusCode, reply.body).toBe(201);
    await ta.app.parley.jobs.drain();
    const after = await list({ sort: 'waiting' });
    expect(after.items.map((c) => c.id)).not.toContain(first);
    expect(after.items.map((c) => c.id)).toContain(second);
    expect((await list({})).items.find((c) => c.id === first)?.waitingSince).toBeNull();
  });

  it('refuses an unknown sort with a 400 in the spec\'s error shape', async () => {
    const res = await ta.call('GET', `/workspace/${s.workspaceId}/conversations`, { token: admin.token, query: { sort: 'loudest' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
  });
});
