/**
 * The demo workspace `npm start` creates on first run: a verified demo admin, attributes, contacts, a segment,
 * a bot and a campaign draft, and a few conversations, all through the real server.
 */
import type { FastifyInstance } from 'fastify';
import { type App, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { eq } from 'drizzle-orm';
import * as t from '../../src/server/db/schema';
import { signInWithPassword } from './identity-rest';

export const demoLogin = { email: 'demo@parley-demo.com', password: 'parley-demo-1', name: 'Demo Admin', organizationName: 'Parley Demo' };

export interface DemoResult {
  created: boolean;
  workspaceId: string;
}

export async function ensureDemo(app: FastifyInstance, emulatorHost: string, projectId: string): Promise<DemoResult> {
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulatorHost;
  const admin: App = initializeApp({ projectId }, `demo-seed-${Date.now()}`);
  const auth = getAuth(admin);
  const db = app.parley.db.db;
  const uidByEmail = await auth.getUserByEmail(demoLogin.email).then((u) => u.uid, () => null);
  const [member] = uidByEmail
    ? await db.select().from(t.members).where(eq(t.members.uid, uidByEmail))
    : await db.select().from(t.members).limit(0);

  if (member) {
    return { created: false, workspaceId: member.currentWorkspaceId! };
  }

  // The emulator forgot its accounts (it keeps them only while it runs) but the database kept the demo member:
  // give the identity back under the same uid.
  const [demoWs] = await db.select().from(t.workspaces).where(eq(t.workspaces.name, demoLogin.organizationName)).limit(1);
  if (!uidByEmail && demoWs) {
    const [m] = await db
      .select({ member: t.members })
      .from(t.workspaceMembers)
      .innerJoin(t.members, eq(t.members.id, t.workspaceMembers.memberId))
      .where(eq(t.workspaceMembers.workspaceId, demoWs.id))
      .limit(1);
    if (m) {
      await auth.createUser({ uid: m.member.uid, email: demoLogin.email, password: demoLogin.password, displayName: demoLogin.name, emailVerified: true });
      return { created: false, workspaceId: demoWs.id };
    }
  }

  const res = await app.inject({
    method: 'POST',
    url: '/auth/sign-up',
    payload: { email: demoLogin.email, password: demoLogin.password, name: demoLogin.name, organizationName: demoLogin.organizationName },
  });
  if (res.statusCode !== 201) throw new Error(`demo sign-up failed: ${res.statusCode} ${res.body}`);
  const created = res.json() as { uid: string; currentWorkspaceId: string; id: string };
  await auth.updateUser(created.uid, { emailVerified: true });
  const { idToken } = await signInWithPassword(emulatorHost, demoLogin.email, demoLogin.password);
  const w = created.currentWorkspaceId;
  const call = async (method: 'POST' | 'PATCH', url: string, payload: unknown) => {
    const r = await app.inject({ method, url, payload: payload as object, headers: { authorization: `Bearer ${idToken}` } });
    if (r.statusCode >= 300) throw new Error(`${method} ${url}: ${r.statusCode} ${r.body}`);
    return r.json();
  };

  for (const a of [
    { name: 'plan', description: 'Subscription plan', format: 'text' },
    { name: 'orders', description: 'Orders placed', format: 'number' },
    { name: 'vip', description: 'VIP customer', format: 'boolean' },
  ]) {
    await call('POST', '/attribute', { ...a, type: 'contact', workspaceId: w });
  }
  await call('POST', '/segment', {
    name: 'Gold customers',
    filters: [{ column: 'plan', value: 'gold', operator: 'IS', conjuction: 'AND' }],
    workspaceId: w,
  });
  await call('POST', '/bot', { workspaceId: w, title: 'Order status helper' });
  await call('POST', '/campaign', { workspaceId: w, type: 'oneTime', name: 'Winter sale' });

  const people = [
    ['Grace Hopper', '+14155550101', { plan: 'gold', orders: 12, vip: true }, 'Hi! Where is my order #A1001?'],
    ['Alan Turing', '+447700900123', { plan: 'silver', orders: 3 }, 'Can I change my delivery address?'],
    ['Ada Lovelace', '+14155550102', { plan: 'gold', orders: 7 }, 'Thanks, it arrived today.'],
    ['Katherine Johnson', '+14155550103', { plan: 'bronze', orders: 1 }, 'Do you ship to Canada?'],
  ] as const;
  const now = Date.now();
  for (const [i, [name, phone, attributes, text]] of people.entries()) {
    const [contact] = await db.insert(t.contacts).values({ workspaceId: w, name, phoneNumber: phone, attributes }).returning();
    const at = new Date(now - (i + 1) * 37 * 60_000);
    const [conversation] = await db
      .insert(t.conversations)
      .values({ workspaceId: w, contactId: contact.id, isActive: i !== 2, lastActivityAt: at, lastMessageAt: at, createdAt: at })
      .returning();
    await db.insert(t.messages).values({
      workspaceId: w,
      conversationId: conversation.id,
      type: 'text',
      text,
      creator: 'user',
      status: 'received',
      createdAt: at,
    });
  }
  return { created: true, workspaceId: w };
}
