/** A contact added and deleted by hand, and the exact total of the list's filter. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { seedWorkspace } from '../support/fixtures';
import { buildTestApp, type Session, type TestApp } from '../support/server';

let ta: TestApp;
let admin: Session;
let agent: Session;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Hand Made');
  agent = await ta.newMember(admin, 'agent');
});
afterAll(async () => {
  await ta?.close();
});

const add = (session: Session, body: Record<string, unknown>) => ta.call('POST', '/contact', { token: session.token, body: { workspaceId: admin.workspaceId, ...body } });
const count = async (query: Record<string, string> = {}) =>
  (await ta.call('GET', `/workspace/${admin.workspaceId}/contacts/count`, { token: agent.token, query })).json().count as number;

describe('POST /contact', () => {
  it('adds a contact an agent types in (a national number read in the workspace’s country), stored E.164, listed, and announced on the event stream', async () => {
    const res = await add(agent, { phoneNumber: '(415) 555-0133', name: 'Alan Turing', email: 'alan@bletchley.uk' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ phoneNumber: '+14155550133', name: 'Alan Turing', email: 'alan@bletchley.uk', country: 'US', optedOut: false });
    const list = await ta.call('GET', `/workspace/${admin.workspaceId}/contacts`, { token: agent.token, query: { search: 'turing' } });
    expect(list.json().items.map((c: { id: string }) => c.id)).toEqual([res.json().id]);
    const events = await ta.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.workspaceId, admin.workspaceId));
    expect(events.some((e) => e.type === 'contact.created')).toBe(true);
  });

  it('answers 409 for a number the workspace has, and 400 for one that is no phone number', async () => {
    const again = await add(agent, { phoneNumber: '+14155550133' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ statusCode: 409, message: 'A contact with the phone number +14155550133 exists already', error: 'Conflict' });
    const bad = await add(agent, { phoneNumber: '12' });
    expect(bad.statusCode).toBe(400);
    expect((await add(agent, { phoneNumber: '' })).json().message).toEqual(expect.arrayContaining([expect.stringContaining('Please enter a phone number')]));
  });
});

describe('DELETE /contact/{id}', () => {
  it('deletes the contact with its conversations for an admin; an agent gets 403', async () => {
    const s = await seedWorkspace(ta, admin);
    expect((await ta.call('DELETE', `/contact/${s.ids.contact}`, { token: agent.token })).statusCode).toBe(403);
    const res = await ta.call('DELETE', `/contact/${s.ids.contact}`, { token: admin.token });
    expect(res.statusCode).toBe(200);
    expect(await ta.db.select().from(t.contacts).where(eq(t.contacts.id, s.ids.contact))).toEqual([]);
    expect(await ta.db.select().from(t.conversations).where(eq(t.conversations.contactId, s.ids.contact))).toEqual([]);
    expect((await ta.call('DELETE', `/contact/${s.ids.contact}`, { token: admin.token })).statusCode).toBe(404);
  });
});

describe('contact.deleted', () => {
  const deletedEvents = () => ta.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.type, 'contact.deleted'));

  it('is appended with the delete, in the contact’s workspace only, and not for a refused delete', async () => {
    const owner = await ta.newAdmin('Deleting Shop');
    const ownersAgent = await ta.newMember(owner, 'agent');
    const other = await ta.newAdmin('Elsewhere');
    const s = await seedWorkspace(ta, owner);
    const before = (await deletedEvents()).length;
    // Refused: an agent (403), another workspace's admin (404), an unknown id (404).
    expect((await ta.call('DELETE', `/contact/${s.ids.contact}`, { token: ownersAgent.token })).statusCode).toBe(403);
    expect((await ta.call('DELETE', `/contact/${s.ids.contact}`, { token: other.token })).statusCode).toBe(404);
    expect((await ta.call('DELETE', '/contact/00000000-0000-4000-8000-00000000dead', { token: owner.token })).statusCode).toBe(404);
    expect(await deletedEvents()).toHaveLength(before);

    expect((await ta.call('DELETE', `/contact/${s.ids.contact}`, { token: owner.token })).statusCode).toBe(200);
    const all = await deletedEvents();
    expect(all).toHaveLength(before + 1);
    const events = all.filter((e) => (e.payload as { contactId: string }).contactId === s.ids.contact);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ workspaceId: owner.workspaceId, payload: { contactId: s.ids.contact } });
    const elsewhere = await ta.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.workspaceId, other.workspaceId));
    expect(elsewhere.some((e) => e.type === 'contact.deleted')).toBe(false);
  });
});

describe('GET /workspace/{id}/contacts/count', () => {
  it('counts exactly what the list selects, beyond a page', async () => {
    const before = await count();
    await ta.db.insert(t.contacts).values(
      Array.from({ length: 250 }, (_, i) => ({ workspaceId: admin.workspaceId, name: `Counted ${i}`, phoneNumber: `+1415557${String(i).padStart(4, '0')}` })),
    );
    expect(await count()).toBe(before + 250);
    expect(await count({ search: 'counted' })).toBe(250);
    expect(await count({ search: 'turing' })).toBe(1);
    expect(await count({ optedOut: 'true' })).toBe(0);
  });
});
