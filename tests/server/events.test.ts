/** The workspace event log: per-workspace order under concurrency, wire-shaped payloads, the changes that log. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEvent, readEvents } from '../../src/server/repositories/event-log';
import * as t from '../../src/server/db/schema';
import { WorkspaceEvent, eventPayloads, workspaceEventTypes } from '../../src/shared/schemas/events';
import type { Contact, Conversation } from '../../src/shared';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { type Seeded, seedWorkspace } from '../support/fixtures';

let ta: TestApp;
let admin: Session;
let other: Session;
let a: Seeded;
let conversation: Conversation;
let contact: Contact;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Events A');
  other = await ta.newAdmin('Events B');
  a = await seedWorkspace(ta, admin);
  conversation = (await ta.call('GET', `/conversation/${a.ids.conversation}`, { token: admin.token })).json();
  contact = (await ta.call('GET', `/workspace/${a.workspaceId}/contacts`, { token: admin.token })).json().items[0];
});
afterAll(async () => {
  await ta?.close();
});

const events = (workspaceId: string, after = 0) => readEvents(ta.db, workspaceId, after);

describe('appendEvent', () => {
  it('numbers events 1, 2, 3 ... per workspace, also when appended concurrently', async () => {
    const b = other.workspaceId;
    const before = (await events(b)).length;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        ta.database.transaction(async (tx) => {
          await appendEvent(tx, b, 'contact.updated', { contact: { ...contact, workspaceId: b } });
        }),
      ),
    );
    const seqs = (await events(b)).map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: before + 20 }, (_, i) => i + 1));
  });

  it('keeps nothing when the change rolls back', async () => {
    const before = await events(a.workspaceId);
    await expect(
      ta.database.transaction(async (tx) => {
        await appendEvent(tx, a.workspaceId, 'conversation.updated', { conversation });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await events(a.workspaceId)).toEqual(before);
  });

  it('refuses a payload that is not the wire shape of its type', async () => {
    await expect(
      // @ts-expect-error a contact is not a conversation
      appendEvent(ta.db, a.workspaceId, 'conversation.updated', { conversation: { id: contact.id } }),
    ).rejects.toThrow();
  });

  it('stores events the shared WorkspaceEvent schema parses, with every type covered', async () => {
    expect(WorkspaceEvent.options.map((o) => o.shape.type.value).sort()).toEqual([...workspaceEventTypes].sort());
    expect(Object.keys(eventPayloads).sort()).toEqual([...workspaceEventTypes].sort());
    const event = await appendEvent(ta.db, a.workspaceId, 'contact.updated', { contact });
    expect(WorkspaceEvent.parse(JSON.parse(JSON.stringify(event)))).toEqual(event);
  });
});

describe('changes that log an event', () => {
  it('assigning, closing and reopening a conversation log conversation.updated with the conversation', async () => {
    const start = (await events(a.workspaceId)).at(-1)?.seq ?? 0;
    const url = `/conversation/${a.ids.conversation}`;
    const assign = await ta.call('PATCH', url, { token: admin.token, body: { assigneeMemberId: admin.member.id } });
    expect(assign.statusCode).toBe(200);
    await ta.call('PATCH', url, { token: admin.token, body: { isActive: false } });
    await ta.call('PATCH', url, { token: admin.token, body: { isActive: true } });
    // Nothing changed: no event.
    await ta.call('PATCH', url, { token: admin.token, body: { isActive: true } });

    const logged = await events(a.workspaceId, start);
    expect(logged.map((e) => e.type)).toEqual(['conversation.updated', 'conversation.updated', 'conversation.updated']);
    const shown = logged.map((e) => (e.payload as { conversation: Conversation }).conversation);
    expect(shown.map((c) => [c.assigneeMemberId, c.isActive])).toEqual([
      [admin.member.id, true],
      [admin.member.id, false],
      [admin.member.id, true],
    ]);
    expect(logged.map((e) => e.seq)).toEqual([start + 1, start + 2, start + 3]);
  });

  it('editing a contact logs contact.updated with the contact', async () => {
    const start = (await events(a.workspaceId)).at(-1)?.seq ?? 0;
    const res = await ta.call('PATCH', `/contact/${a.ids.contact}`, { token: admin.token, body: { name: 'Grace Hopper' } });
    expect(res.statusCode).toBe(200);
    const [event] = await events(a.workspaceId, start);
    expect(event).toMatchObject({ type: 'contact.updated', workspaceId: a.workspaceId, payload: { contact: { id: a.ids.contact, name: 'Grace Hopper' } } });
    expect((event.payload as { contact: Contact }).contact).toEqual(res.json());
  });

  it('a refused change logs nothing', async () => {
    const before = await ta.db.select().from(t.workspaceEvents);
    const res = await ta.call('PATCH', `/conversation/${a.ids.conversation}`, { token: other.token, body: { isActive: false } });
    expect(res.statusCode).toBe(404);
    expect(await ta.db.select().from(t.workspaceEvents)).toEqual(before);
  });
});
