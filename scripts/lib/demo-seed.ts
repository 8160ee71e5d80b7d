/**
 * The demo workspace `npm start` creates on first run: a verified demo admin, attributes, contacts, a segment,
 * a bot and a campaign draft, and a few conversations, all through the real server. With the WhatsApp sandbox
 * running, the workspace gets the sandbox number (POST /whatsapp, checked against the sandbox like Meta) and
 * the conversations start the real way: simulated customers write in and their signed webhooks arrive.
 */
import type { FastifyInstance } from 'fastify';
import { type App, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { and, eq, isNotNull } from 'drizzle-orm';
import * as t from '../../src/server/db/schema';
import { type Sandbox, sandboxAccount } from '../../src/sandbox';
import { signInWithPassword } from './identity-rest';

export const demoLogin = { email: 'demo@parley-demo.com', password: 'parley-demo-1', name: 'Demo Admin', organizationName: 'Parley Demo' };
export type DemoLogin = typeof demoLogin;

export interface DemoResult {
  created: boolean;
  workspaceId: string;
  /** What happened to the sandbox number: connected now, already connected, or why not. */
  whatsapp?: string;
}

/** The demo's customers: name, phone, attributes, and what they wrote. */
const people = [
  ['Grace Hopper', '+14155550101', { plan: 'gold', orders: 12, vip: true }, 'Hi! Where is my order #A1001?'],
  ['Alan Turing', '+447700900123', { plan: 'silver', orders: 3 }, 'Can I change my delivery address?'],
  ['Ada Lovelace', '+14155550102', { plan: 'gold', orders: 7 }, 'Thanks, it arrived today.'],
  ['Katherine Johnson', '+14155550103', { plan: 'bronze', orders: 1 }, 'Do you ship to Canada?'],
] as const;

type Call = (method: 'POST' | 'PATCH', url: string, payload: unknown) => Promise<{ status: number; body: unknown }>;

function caller(app: FastifyInstance, idToken: string): Call {
  return async (method, url, payload) => {
    const r = await app.inject({ method, url, payload: payload as object, headers: { authorization: `Bearer ${idToken}` } });
    return { status: r.statusCode, body: r.body ? r.json() : undefined };
  };
}

/**
 * Connects the sandbox number to the demo workspace through the product's own call. Answers a line for the
 * start-up log; never throws, so a server without the WhatsApp channel still starts.
 */
async function connectSandboxNumber(call: Call, workspaceId: string): Promise<{ connected: boolean; note: string }> {
  const { phoneNumber, wabaAccountId, appId, phoneNumberId, token } = sandboxAccount;
  const r = await call('POST', '/whatsapp', { phoneNumber, wabaAccountId, appId, phoneNumberId, token, workspaceId });
  if (r.status === 201) return { connected: true, note: `connected the sandbox number ${phoneNumber} to the demo workspace` };
  const message = (r.body as { message?: unknown } | undefined)?.message;
  return { connected: false, note: `could not connect the sandbox number (${r.status}: ${Array.isArray(message) ? message.join('; ') : String(message)})` };
}

/** Whether the demo workspace already has the sandbox number. */
async function hasSandboxNumber(app: FastifyInstance, workspaceId: string): Promise<boolean> {
  const rows = await app.parley.db.db
    .select({ id: t.whatsappAccounts.id })
    .from(t.whatsappAccounts)
    .where(and(eq(t.whatsappAccounts.workspaceId, workspaceId), eq(t.whatsappAccounts.phoneNumberId, sandboxAccount.phoneNumberId)));
  return rows.length > 0;
}

/**
 * A restarted sandbox without its state file forgot who wrote when; the database did not. Reopen the
 * 24-hour windows it knows about so agents can answer the demo conversations.
 */
async function restoreWindows(app: FastifyInstance, workspaceId: string, sandbox: Sandbox): Promise<void> {
  const rows = await app.parley.db.db
    .select({ phone: t.contacts.phoneNumber, at: t.conversations.lastInboundAt })
    .from(t.conversations)
    .innerJoin(t.contacts, eq(t.contacts.id, t.conversations.contactId))
    .where(and(eq(t.conversations.workspaceId, workspaceId), isNotNull(t.conversations.lastInboundAt)));
  for (const row of rows) if (row.at && row.phone) sandbox.customers.restoreWindow(row.phone, row.at);
}

/**
 * The demo workspace of this data directory, created on first run. The Auth emulator may be shared with another
 * Parley stack (a second checkout, a test run) that already made the demo identity: then this database gets its
 * own demo workspace for that same identity (signed in with the demo password, POST /workspace) instead of a
 * second sign-up, which the emulator refuses (409 EMAIL_EXISTS).
 */
export async function ensureDemo(
  app: FastifyInstance,
  emulatorHost: string,
  projectId: string,
  sandbox?: Sandbox,
  login: DemoLogin = demoLogin,
): Promise<DemoResult> {
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulatorHost;
  const admin: App = initializeApp({ projectId }, `demo-seed-${Date.now()}`);
  const auth = getAuth(admin);
  const db = app.parley.db.db;
  const uidByEmail = await auth.getUserByEmail(login.email).then((u) => u.uid, () => null);
  const [member] = uidByEmail
    ? await db.select().from(t.members).where(eq(t.members.uid, uidByEmail))
    : await db.select().from(t.members).limit(0);

  if (member) {
    const workspaceId = member.currentWorkspaceId!;
    return { created: false, workspaceId, whatsapp: sandbox ? await sandboxOnRestart(workspaceId) : undefined };
  }

  /** Later starts: connect the number if an earlier start could not (older server), and reopen windows. */
  async function sandboxOnRestart(workspaceId: string): Promise<string> {
    await restoreWindows(app, workspaceId, sandbox!);
    if (await hasSandboxNumber(app, workspaceId)) return `the sandbox number ${sandboxAccount.phoneNumber} is connected to the demo workspace`;
    const { idToken } = await signInWithPassword(emulatorHost, login.email, login.password);
    return (await connectSandboxNumber(caller(app, idToken), workspaceId)).note;
  }

  // The emulator forgot its accounts (it keeps them only while it runs) but the database kept the demo member:
  // give the identity back under the same uid.
  const [demoWs] = await db.select().from(t.workspaces).where(eq(t.workspaces.name, login.organizationName)).limit(1);
  if (!uidByEmail && demoWs) {
    const [m] = await db
      .select({ member: t.members })
      .from(t.workspaceMembers)
      .innerJoin(t.members, eq(t.members.id, t.workspaceMembers.memberId))
      .where(eq(t.workspaceMembers.workspaceId, demoWs.id))
      .limit(1);
    if (m) {
      await auth.createUser({ uid: m.member.uid, email: login.email, password: login.password, displayName: login.name, emailVerified: true });
      return { created: false, workspaceId: demoWs.id, whatsapp: sandbox ? await sandboxOnRestart(demoWs.id) : undefined };
    }
  }

  const { idToken, workspaceId: w } = uidByEmail ? await workspaceForSharedIdentity(uidByEmail) : await signUp();
  const raw = caller(app, idToken);
  const call = async (method: 'POST' | 'PATCH', url: string, payload: unknown) => {
    const r = await raw(method, url, payload);
    if (r.status >= 300) throw new Error(`${method} ${url}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };

  /** First run on an emulator without the demo identity: the product's sign-up. */
  async function signUp(): Promise<{ idToken: string; workspaceId: string }> {
    const res = await app.inject({
      method: 'POST',
      url: '/auth/sign-up',
      payload: { email: login.email, password: login.password, name: login.name, organizationName: login.organizationName },
    });
    if (res.statusCode !== 201) throw new Error(`demo sign-up failed: ${res.statusCode} ${describeFailure(res.body)}`);
    const created = res.json() as { uid: string; currentWorkspaceId: string };
    await auth.updateUser(created.uid, { emailVerified: true });
    const { idToken } = await signInWithPassword(emulatorHost, login.email, login.password);
    return { idToken, workspaceId: created.currentWorkspaceId };
  }

  /** The demo identity exists (another stack made it) but this database has no demo yet: a workspace of its own. */
  async function workspaceForSharedIdentity(uid: string): Promise<{ idToken: string; workspaceId: string }> {
    await auth.updateUser(uid, { emailVerified: true });
    let idToken: string;
    try {
      ({ idToken } = await signInWithPassword(emulatorHost, login.email, login.password));
    } catch {
      throw new Error(
        `${login.email} exists in the shared Auth emulator (${emulatorHost}) with another password: stop the other Parley stack (or reset its demo password)`,
      );
    }
    const res = await app.inject({ method: 'POST', url: '/workspace', payload: { name: login.organizationName }, headers: { authorization: `Bearer ${idToken}` } });
    if (res.statusCode !== 201) throw new Error(`creating the demo workspace failed: ${res.statusCode} ${describeFailure(res.body)}`);
    return { idToken, workspaceId: (res.json() as { id: string }).id };
  }

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

  const whatsapp = sandbox ? await connectSandboxNumber(raw, w) : undefined;
  const now = Date.now();
  for (const [i, [name, phone, attributes, text]] of people.entries()) {
    const [contact] = await db.insert(t.contacts).values({ workspaceId: w, name, phoneNumber: phone, attributes }).returning();
    if (whatsapp?.connected) {
      // The real path: the customer writes to the sandbox number, its signed webhook reaches /webhooks/whatsapp,
      // and the server opens the conversation (this also opens the customer's 24-hour window in the sandbox).
      await sandbox!.customers.say(phone, text, { name });
      continue;
    }
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
  if (whatsapp?.connected) {
    // One customer also sends a photo, so the demo shows inbound media.
    await sandbox!.customers.send(people[0][1], { type: 'image', caption: 'The label on my parcel' }, { name: people[0][0] });
  }
  return { created: true, workspaceId: w, whatsapp: whatsapp?.note };
}

/** The message of an error answer, without the whole body. */
function describeFailure(body: string): string {
  try {
    const message = (JSON.parse(body) as { message?: unknown }).message;
    return Array.isArray(message) ? message.join('; ') : String(message ?? body);
  } catch {
    return body.slice(0, 200);
  }
}
