// The real server stack for the main-process tests: listening on a free port, an admin with a connected
// sandbox WhatsApp number, and customers who write in.
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import * as t from '../../src/server/db/schema';
import type { SandboxAccount } from '../../src/sandbox';
import { buildTestApp, type Session, type TestApp } from '../support/server';

export interface DeskStack {
  ta: TestApp;
  base: string;
  admin: Session;
  number: SandboxAccount;
  /** a new customer (its own phone number) writes `text`; answers the contact and conversation Parley opened */
  customerWrites(text: string, name?: string): Promise<{ waId: string; contact: typeof t.contacts.$inferSelect; conversation: typeof t.conversations.$inferSelect }>;
}

export async function startDeskStack(organizationName: string, phonePrefix: string): Promise<DeskStack> {
  const ta = await buildTestApp();
  await ta.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(ta.app.server.address() as AddressInfo).port}`;
  const admin = await ta.newAdmin(organizationName);
  const number = ta.sandbox.addAccount();
  const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId } });
  if (res.statusCode !== 201) throw new Error(`connecting the sandbox number failed: ${res.statusCode} ${res.body}`);
  let seq = 0;
  return {
    ta,
    base,
    admin,
    number,
    async customerWrites(text, name) {
      const waId = `${phonePrefix}${String(1000 + seq++).padStart(4, '0')}`;
      await ta.sandbox.customers.say(waId, text, { phoneNumberId: number.phoneNumberId, name: name ?? `Customer ${seq}` });
      await ta.app.parley.jobs.drain();
      const [contact] = await ta.db
        .select()
        .from(t.contacts)
        .where(and(eq(t.contacts.workspaceId, admin.workspaceId), eq(t.contacts.phoneNumber, `+${waId}`)));
      const [conversation] = await ta.db.select().from(t.conversations).where(eq(t.conversations.contactId, contact!.id));
      return { waId, contact: contact!, conversation: conversation! };
    },
  };
}

/** Polls `probe` until it answers something truthy. */
export async function until<T>(what: string, probe: () => T | undefined | null | false, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
