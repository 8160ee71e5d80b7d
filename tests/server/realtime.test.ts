/**
 * The live event stream GET /workspace/{id}/events over real HTTP (server-sent events): live delivery, replay
 * from Last-Event-ID, tenant scoping, 401/403, clean-up, and fan-out between two server processes.
 */
import http from 'node:http';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { openDatabase } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import { appendEvent, latestSeq } from '../../src/server/repositories/event-log';
import { WorkspaceEvent, type Contact } from '../../src/shared';
import { TestApp, buildTestApp, onPostgres, openTestDatabase, testConfig, type Session } from '../support/server';
import { type Seeded, seedWorkspace } from '../support/fixtures';

interface Frame {
  id?: string;
  event?: string;
  data?: string;
}

/** A minimal EventSource over node:http that keeps every frame it receives. */
class SseClient {
  frames: Frame[] = [];
  comments: string[] = [];
  private waiters: (() => void)[] = [];
  constructor(
    readonly status: number,
    readonly headers: http.IncomingHttpHeaders,
    readonly body: string,
    private readonly req: http.ClientRequest,
  ) {}

  get events(): WorkspaceEvent[] {
    return this.frames.filter((f) => f.data).map((f) => WorkspaceEvent.parse(JSON.parse(f.data!)));
  }

  push(block: string) {
    const frame: Frame = {};
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
      else if (line.startsWith('id: ')) frame.id = line.slice(4);
      else if (line.startsWith('event: ')) frame.event = line.slice(7);
      else if (line.startsWith('data: ')) frame.data = line.slice(6);
    }
    if (frame.data) this.frames.push(frame);
    for (const w of this.waiters.splice(0)) w();
  }

  async waitForEvents(n: number, timeoutMs = 8000): Promise<WorkspaceEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.events.length < n) {
      if (Date.now() > deadline) throw new Error(`got ${this.events.length} of ${n} events: ${JSON.stringify(this.frames)}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 100);
      });
    }
    return this.events;
  }

  close() {
    this.req.destroy();
  }

  /** Stops reading from the socket (a slow client), and starts again. */
  res?: http.IncomingMessage;
  pause() {
    this.res?.pause();
  }
  resume() {
    this.res?.resume();
  }
}

function listenUrl(app: FastifyInstance): string {
  const { port } = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** Connects; resolves at the first frame of a stream, or with the whole body of an error answer. */
function connect(base: string, path: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      res.setEncoding('utf8');
      if (res.statusCode !== 200) {
        let body = '';
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve(new SseClient(res.statusCode!, res.headers, body, req)));
        return;
      }
      const client = new SseClient(200, res.headers, '', req);
      client.res = res;
      let buffer = '';
      let first = true;
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let i: number;
        while ((i = buffer.indexOf('\n\n')) >= 0) {
          client.push(buffer.slice(0, i));
          buffer = buffer.slice(i + 2);
          if (first) {
            first = false;
            resolve(client);
          }
        }
      });
      res.on('error', () => undefined);
    });
    req.on('error', (err) => {
      if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(err);
    });
  });
}

/** The newest seq of a workspace. */
const readEventsAfter = async (workspaceId: string) => latestSeq(ta.db, workspaceId);

const eventsPath = (workspaceId: string, query = '') => `/workspace/${workspaceId}/events${query}`;

let ta: TestApp;
let base: string;
let admin: Session;
let agent: Session;
let stranger: Session;
let a: Seeded;
let contact: Contact;

beforeAll(async () => {
  ta = await buildTestApp();
  await ta.app.listen({ port: 0, host: '127.0.0.1' });
  base = listenUrl(ta.app);
  admin = await ta.newAdmin('Stream A');
  agent = await ta.newMember(admin, 'agent');
  stranger = await ta.newAdmin('Stream B');
  a = await seedWorkspace(ta, admin);
  contact = (await ta.call('GET', `/workspace/${a.workspaceId}/contacts`, { token: admin.token })).json().items[0];
});
afterAll(async () => {
  await ta?.close();
});

const rename = (name: string, token = admin.token) =>
  ta.call('PATCH', `/contact/${a.ids.contact}`, { token, body: { name } });

describe('GET /workspace/{id}/events', () => {
  it('streams a change made by a teammate live, as an SSE message with id, event and data', async () => {
    const client = await connect(base, eventsPath(a.workspaceId), { authorization: `Bearer ${agent.token}` });
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(client.headers['cache-control']).toContain('no-cache');

    const res = await ta.call('PATCH', `/conversation/${a.ids.conversation}`, { token: admin.token, body: { isActive: false } });
    expect(res.statusCode).toBe(200);
    const [event] = await client.waitForEvents(1);
    expect(event.type).toBe('conversation.updated');
    expect(event.payload).toEqual({ conversation: res.json() });
    expect(client.frames[0].id).toBe(String(event.seq));
    expect(client.frames[0].event).toBe('conversation.updated');
    client.close();
  });

  it('accepts the token as ?token= (EventSource cannot send headers)', async () => {
    const client = await connect(base, eventsPath(a.workspaceId, `?token=${encodeURIComponent(agent.token)}`));
    expect(client.status).toBe(200);
    await rename('Grace by query token');
    const [event] = await client.waitForEvents(1);
    expect(event).toMatchObject({ type: 'contact.updated', payload: { contact: { name: 'Grace by query token' } } });
    client.close();
  });

  it('answers 401 without a token or with a bad one, and 403 to a member of another workspace', async () => {
    const none = await connect(base, eventsPath(a.workspaceId));
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body)).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    const bad = await connect(base, eventsPath(a.workspaceId, '?token=not-a-token'));
    expect(bad.status).toBe(401);
    const other = await connect(base, eventsPath(a.workspaceId), { authorization: `Bearer ${stranger.token}` });
    expect(other.status).toBe(403);
    expect(JSON.parse(other.body)).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    const viaQuery = await connect(base, eventsPath(a.workspaceId, `?token=${encodeURIComponent(stranger.token)}`));
    expect(viaQuery.status).toBe(403);
  });

  it("never shows one workspace's events to another", async () => {
    const mine = await connect(base, eventsPath(stranger.workspaceId), { authorization: `Bearer ${stranger.token}` });
    await rename('Grace private');
    await appendEvent(ta.db, stranger.workspaceId, 'contact.updated', { contact: { ...contact, workspaceId: stranger.workspaceId, name: 'Own' } });
    const events = await mine.waitForEvents(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(mine.events.map((e) => e.workspaceId)).toEqual([stranger.workspaceId]);
    expect(JSON.stringify(mine.frames)).not.toContain('Grace private');
    expect(events[0].payload).toMatchObject({ contact: { name: 'Own' } });
    mine.close();
  });

  it('replays what a client missed from Last-Event-ID, then continues live', async () => {
    const first = await connect(base, eventsPath(a.workspaceId), { authorization: `Bearer ${admin.token}` });
    await rename('Seen 1');
    const [seen] = await first.waitForEvents(1);
    first.close();

    // While disconnected.
    await rename('Missed 1');
    await rename('Missed 2');

    const again = await connect(base, eventsPath(a.workspaceId), { authorization: `Bearer ${admin.token}`, 'last-event-id': String(seen.seq) });
    const replayed = await again.waitForEvents(2);
    expect(replayed.map((e) => [e.seq, (e.payload as { contact: Contact }).contact.name])).toEqual([
      [seen.seq + 1, 'Missed 1'],
      [seen.seq + 2, 'Missed 2'],
    ]);
    await rename('Live after replay');
    const all = await again.waitForEvents(3);
    expect(all[2]).toMatchObject({ seq: seen.seq + 3, payload: { contact: { name: 'Live after replay' } } });
    again.close();

    const byQuery = await connect(base, eventsPath(a.workspaceId, `?lastEventId=${seen.seq + 1}`), { authorization: `Bearer ${admin.token}` });
    expect((await byQuery.waitForEvents(2)).map((e) => e.seq)).toEqual([seen.seq + 2, seen.seq + 3]);
    byQuery.close();
  });

  it('lets a slow client fall behind and catch up, in order and without gaps', async () => {
    const client = await connect(base, eventsPath(stranger.workspaceId), { authorization: `Bearer ${stranger.token}` });
    const start = (await readEventsAfter(stranger.workspaceId)) + 1;
    client.pause();
    // ~6 MB of events while the client reads nothing: far more than socket buffers hold.
    const big = { ...contact, workspaceId: stranger.workspaceId, attributes: { notes: 'n'.repeat(16_000) } };
    for (let batch = 0; batch < 4; batch++) {
      await ta.database.transaction(async (tx) => {
        for (let i = 0; i < 100; i++) await appendEvent(tx, stranger.workspaceId, 'contact.updated', { contact: { ...big, name: `c${batch * 100 + i}` } });
      });
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(client.events.length).toBeLessThan(400);
    client.resume();
    const events = await client.waitForEvents(400, 30_000);
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 400 }, (_, i) => start + i));
    expect(events.map((e) => (e.payload as { contact: Contact }).contact.name)).toEqual(Array.from({ length: 400 }, (_, i) => `c${i}`));
    client.close();
  });

  it('releases its subscription when the client disconnects', async () => {
    const realtime = ta.app.parley.services.deps.realtime;
    const settle = async (n: number) => {
      const deadline = Date.now() + 3000;
      while (realtime.hub.size !== n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      return realtime.hub.size;
    };
    // The earlier tests' clients have gone.
    expect(await settle(0)).toBe(0);
    const client = await connect(base, eventsPath(a.workspaceId), { authorization: `Bearer ${admin.token}` });
    expect(realtime.hub.size).toBe(1);
    expect(realtime.openStreams).toBe(1);
    client.close();
    expect(await settle(0)).toBe(0);
    expect(realtime.openStreams).toBe(0);
  });

  it('sends keep-alive comments on an idle stream, and lets the server close while streams are open', async () => {
    const other = await buildTestApp({ realtime: { heartbeatMs: 100, retentionDays: 30 } });
    await other.app.listen({ port: 0, host: '127.0.0.1' });
    const owner = await other.newAdmin('Closing');
    const client = await connect(listenUrl(other.app), eventsPath(owner.workspaceId), { authorization: `Bearer ${owner.token}` });
    expect(client.status).toBe(200);
    const pings = () => client.comments.filter((c) => c === 'ping').length;
    const deadline = Date.now() + 5000;
    while (pings() < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(pings()).toBeGreaterThanOrEqual(2);
    expect(client.events).toEqual([]);
    const t0 = Date.now();
    await other.close();
    expect(Date.now() - t0).toBeLessThan(5000);
    client.close();
  });
});

describe('logs', () => {
  it('never contain a token given as ?token=', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const app = await buildApp({ config: testConfig({ logLevel: 'debug' }), database: ta.database, logger: { stream } });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const url = listenUrl(app);
      const ok = await connect(url, eventsPath(a.workspaceId, `?token=${encodeURIComponent(admin.token)}&lastEventId=1`));
      expect(ok.status).toBe(200);
      ok.close();
      const refused = await connect(url, eventsPath(a.workspaceId, '?token=forged-secret-token'));
      expect(refused.status).toBe(401);
    } finally {
      await app.close();
    }
    const all = lines.join('');
    expect(all).toContain('token=[redacted]');
    expect(all).not.toContain(admin.token);
    expect(all).not.toContain(admin.token.split('.')[1]);
    expect(all).not.toContain('forged-secret-token');
  });
});

describe('the API documentation', () => {
  it('shows the stream as text/event-stream with the WorkspaceEvent schema and the token and lastEventId parameters', async () => {
    const doc = (await ta.call('GET', '/docs/json')).json();
    const op = doc.paths['/workspace/{workspaceId}/events'].get;
    expect(op.operationId).toBe('streamEvents');
    expect(Object.keys(op.responses['200'].content)).toEqual(['text/event-stream']);
    expect(JSON.stringify(op.responses['200'].content['text/event-stream'].schema)).toContain('conversation.updated');
    expect(op.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['lastEventId', 'token', 'workspaceId']);
  });
});

describe('fan-out between server processes', () => {
  it.skipIf(!onPostgres)(
    'delivers an event appended through one server to a stream of another (needs DATABASE_URL: two servers share one PostgreSQL database; PGlite is one in-process database)',
    async () => {
      const { database, url, dispose } = await openTestDatabase();
      const second = await openDatabase({ url: url!, poolSize: 2 });
      const one = new TestApp(await buildApp({ config: testConfig(), database, logger: false }), database, dispose);
      const two = await buildApp({ config: testConfig(), database: second, logger: false });
      try {
        await two.listen({ port: 0, host: '127.0.0.1' });
        const owner = await one.newAdmin('Two servers');
        const client = await connect(listenUrl(two), eventsPath(owner.workspaceId), { authorization: `Bearer ${owner.token}` });
        expect(client.status).toBe(200);

        const [row] = await database.db
          .insert(t.contacts)
          .values({ workspaceId: owner.workspaceId, name: 'Lin', phoneNumber: '+14155550142' })
          .returning();
        const res = await one.call('PATCH', `/contact/${row.id}`, { token: owner.token, body: { name: 'Lin Two-Servers' } });
        expect(res.statusCode).toBe(200);
        const [event] = await client.waitForEvents(1);
        expect(event).toMatchObject({ type: 'contact.updated', workspaceId: owner.workspaceId, payload: { contact: res.json() } });

        // The second server's LISTEN connection drops; an event appended meanwhile still arrives after it reconnects.
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        const killed = await admin.query(
          `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'parley-events' and datname = current_database()`,
        );
        expect(killed.rowCount).toBe(1);
        await admin.end();
        const again = await one.call('PATCH', `/contact/${row.id}`, { token: owner.token, body: { name: 'Lin Reconnected' } });
        expect(again.statusCode).toBe(200);
        const events = await client.waitForEvents(2);
        expect(events[1]).toMatchObject({ seq: event.seq + 1, payload: { contact: { name: 'Lin Reconnected' } } });
        client.close();
      } finally {
        await two.close();
        await second.close();
        await one.close();
      }
    },
  );
});
