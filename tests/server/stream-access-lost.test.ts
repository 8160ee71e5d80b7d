/**
 * An event stream ends at once when any request finds its user deleted or its membership removed,
 * not at the stream's next periodic recheck (a minute here, as in production).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { deleteApp, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { type Session, type TestApp, buildTestApp } from '../support/server';

let ta: TestApp;
let base: string;
let admin: Session;
const adminApp = initializeApp({ projectId: 'demo-parley' }, `stream-access-lost-${randomUUID()}`);

beforeAll(async () => {
  ta = await buildTestApp({ realtime: { heartbeatMs: 15_000, recheckMs: 60_000 } });
  await ta.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(ta.app.server.address() as AddressInfo).port}`;
  admin = await ta.newAdmin('Lost Access Ltd');
});
afterAll(async () => {
  await ta?.close();
  await deleteApp(adminApp);
});

function openStream(workspaceId: string, token: string): Promise<{ status: number; ended: Promise<void>; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/workspace/${workspaceId}/events?token=${encodeURIComponent(token)}`, (res) => {
      const ended = new Promise<void>((done) => {
        res.on('end', () => done());
        res.on('close', () => done());
      });
      res.resume();
      resolve({ status: res.statusCode ?? 0, ended, close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}
const within = (p: Promise<void>, ms: number) =>
  Promise.race([p.then(() => 'ended' as const), new Promise<'still open'>((r) => setTimeout(() => r('still open'), ms))]);

describe('a stream ends at once when a request finds its user gone', () => {
  it('the user was deleted: the next request with its token ends its stream, not a minute later', async () => {
    const agent = await ta.newMember(admin, 'agent');
    const bystander = await ta.newMember(admin, 'agent');
    const stream = await openStream(admin.workspaceId, agent.token);
    const other = await openStream(admin.workspaceId, bystander.token);
    expect(stream.status).toBe(200);
    await getAuth(adminApp).deleteUser(agent.member.uid);
    expect((await ta.call('POST', '/workspace', { token: agent.token, body: { name: 'Ghost Ltd' } })).statusCode).toBe(401);
    expect(await within(stream.ended, 2000)).toBe('ended');
    expect(await within(other.ended, 300)).toBe('still open');
    other.close();
  });

  it('the member was removed from the workspace: its next request there (403) ends its stream', async () => {
    const agent = await ta.newMember(admin, 'agent');
    const stream = await openStream(admin.workspaceId, agent.token);
    expect(stream.status).toBe(200);
    await ta.db
      .delete(t.workspaceMembers)
      .where(and(eq(t.workspaceMembers.workspaceId, admin.workspaceId), eq(t.workspaceMembers.memberId, agent.member.id)));
    expect(await within(stream.ended, 300)).toBe('still open');
    const res = await ta.call('GET', `/workspace/${admin.workspaceId}/conversations`, { token: agent.token });
    expect(res.statusCode).toBe(403);
    expect(await within(stream.ended, 2000)).toBe('ended');
  });
});
