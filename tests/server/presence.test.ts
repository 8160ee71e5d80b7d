/**
 * Presence and collision: a member's viewing / typing in a conversation reaches the other
 * members' event streams as `event: presence` (not stored: no id, the log's seq does not move), across server
 * processes; typing shows WhatsApp's typing indicator to the customer through the sandbox, throttled.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { openDatabase } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import { latestSeq } from '../../src/server/repositories/event-log';
import { PresenceSignal } from '../../src/shared/schemas/presence';
import { TestApp, buildTestApp, onPostgres, openTestDatabase, testConfig, type Session } from '../support/server';
import { customerWrites } from '../support/customers';
import { untilValue } from '../support/until';

interface Frame {
  id?: string;
  event?: string;
  data?: string;
}

/** Opens an SSE stream over node:http and keeps its frames. */
function openStream(base: string, workspaceId: string, token: string): Promise<{ frames: Frame[]; close: () => void }> {
  return new Promise((resolve, reject) => {
    const frames: Frame[] = [];
    const req = http.get(`${base}/workspace/${workspaceId}/events`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` } }, (res) => {
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let i: number;
        while ((i = buffer.indexOf('\n\n')) >= 0) {
          const frame: Frame = {};
          for (const line of buffer.slice(0, i).split('\n')) {
            if (line.startsWith('id: ')) frame.id = line.slice(4);
            else if (line.startsWith('event: ')) frame.event = line.slice(7);
            else if (line.startsWith('data: ')) frame.data = line.slice(6);
          }
          buffer = buffer.slice(i + 2);
          if (frame.data) frames.push(frame);
        }
      });
      res.on('error', () => undefined);
      // The stream is subscribed once the headers are out.
      setTimeout(() => resolve({ frames, close: () => req.destroy() }), 300);
    });
    req.on('error', (err) => {
      if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(err);
    });
  });
}

const baseOf = (app: FastifyInstance) => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const presenceFrames = (frames: Frame[]) => frames.filter((f) => f.event === 'presence').map((f) => ({ id: f.id, signal: PresenceSignal.parse(JSON.parse(f.data!)) }));

let ta: TestApp;
let admin: Session;
let agent: Session;
let stranger: Session;
let conversationId: string;
const waId = '14155550911';

beforeAll(async () => {
  ta = await buildTestApp();
  await ta.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await ta.newAdmin('Presence Shop');
  agent = await ta.newMember(admin, 'agent');
  stranger = await ta.newAdmin('Elsewhere');
  const number = ta.sandbox.addAccount();
  const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId } });
  expect(res.statusCode).toBe(201);
  const { conversation } = await customerWrites({ ta, workspaceId: admin.workspaceId, phoneNumberId: number.phoneNumberId }, waId, 'Hello, anyone there?', 'Pia Present');
  conversationId = conversation.id;
});
afterAll(async () => {
  await ta?.close();
});

const presence = (who: Session, state: string, id = conversationId) => ta.call('POST', `/conversation/${id}/presence`, { token: who.token, body: { state } });

describe('POST /conversation/{id}/presence', () => {
  it("reaches a teammate's stream as an unstored presence event", async () => {
    const stream = await openStream(baseOf(ta.app), admin.workspaceId, admin.token);
    const seqBefore = await latestSeq(ta.db, admin.workspaceId);
    const res = await presence(agent, 'viewing');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    const [got] = await untilValue('a presence frame', () => (presenceFrames(stream.frames).length ? presenceFrames(stream.frames) : undefined));
    expect(got.signal).toMatchObject({ workspaceId: admin.workspaceId, conversationId, memberId: agent.member.id, state: 'viewing' });
    // Not in the log: no id (a resume point never moves), and the workspace's seq is where it was.
    expect(got.id).toBeUndefined();
    expect(await latestSeq(ta.db, admin.workspaceId)).toBe(seqBefore);
    stream.close();
  });

  it("shows WhatsApp's typing indicator to the customer while an agent types, at most once per throttle period", async () => {
    const before = ta.sandbox.typingIndicators.length;
    expect((await presence(agent, 'typing')).statusCode).toBe(200);
    const shown = await untilValue('a typing indicator', () => (ta.sandbox.typingIndicators.length > before ? ta.sandbox.typingIndicators.at(-1) : undefined));
    expect(shown).toMatchObject({ waId, messageId: ta.sandbox.received.filter((m) => m.waId === waId).at(-1)!.id });
    // Typing on (the client repeats every few seconds): no second indicator within the throttle period.
    expect((await presence(agent, 'typing')).statusCode).toBe(200);
    expect((await presence(admin, 'typing')).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    expect(ta.sandbox.typingIndicators.length).toBe(before + 1);
  });

  it('refuses an unknown state, another tenant and a missing conversation, in the spec error shape', async () => {
    const bad = await presence(agent, 'dancing');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    const other = await presence(stranger, 'viewing');
    expect([403, 404]).toContain(other.statusCode);
    expect((await presence(agent, 'viewing', '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });
});

describe('presence between server processes', () => {
  it.skipIf(!onPostgres)('a signal sent to one server reaches a stream of another (needs DATABASE_URL: PGlite is one in-process database)', async () => {
    const { database, url, dispose } = await openTestDatabase();
    const second = await openDatabase({ url: url!, poolSize: 2 });
    const one = new TestApp(await buildApp({ config: testConfig(), database, logger: false }), database, dispose);
    const two = await buildApp({ config: testConfig(), database: second, logger: false });
    try {
      await two.listen({ port: 0, host: '127.0.0.1' });
      const owner = await one.newAdmin('Two servers presence');
      const [contact] = await database.db.insert(t.contacts).values({ workspaceId: owner.workspaceId, name: 'Lin', phoneNumber: '+14155550143' }).returning();
      const [conversation] = await database.db.insert(t.conversations).values({ workspaceId: owner.workspaceId, contactId: contact.id }).returning();
      const stream = await openStream(baseOf(two), owner.workspaceId, owner.token);
      const res = await one.call('POST', `/conversation/${conversation.id}/presence`, { token: owner.token, body: { state: 'typing' } });
      expect(res.statusCode).toBe(200);
      const [got] = await untilValue('a presence frame', () => (presenceFrames(stream.frames).length ? presenceFrames(stream.frames) : undefined));
      expect(got.signal).toMatchObject({ conversationId: conversation.id, memberId: owner.member.id, state: 'typing' });
      stream.close();
    } finally {
      await two.close();
      await second.close();
      await one.close();
    }
  });
});
