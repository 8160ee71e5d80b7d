/**
 * Customers who write in: the sandbox delivers their message to Parley as WhatsApp would (a signed webhook), the
 * job queue is drained, and the test gets the contact and the conversation Parley made of it.
 */
import { and, eq } from 'drizzle-orm';
import * as t from '../../src/server/db/schema';
import type { TestApp } from './server';

export interface Landed {
  contact: typeof t.contacts.$inferSelect;
  conversation: typeof t.conversations.$inferSelect;
}

/** Where customers write to: the app, the workspace and its sandbox number. */
export interface Inbox {
  ta: TestApp;
  workspaceId: string;
  phoneNumberId: string;
}

/** The workspace's contact of the phone number `+waId`, and the conversation Parley opened for it. */
export async function landedIn(ta: TestApp, workspaceId: string, waId: string): Promise<Landed> {
  const [contact] = await ta.db
    .select()
    .from(t.contacts)
    .where(and(eq(t.contacts.workspaceId, workspaceId), eq(t.contacts.phoneNumber, `+${waId}`)));
  const [conversation] = await ta.db.select().from(t.conversations).where(eq(t.conversations.contactId, contact.id));
  return { contact, conversation };
}

/** The customer at `waId` writes `text`; answers, once Parley has processed the delivery, where it landed. */
export async function customerWrites(inbox: Inbox, waId: string, text: string, name?: string): Promise<Landed & { waId: string }> {
  await inbox.ta.sandbox.customers.say(waId, text, { phoneNumberId: inbox.phoneNumberId, name });
  await inbox.ta.app.parley.jobs.drain();
  return { waId, ...(await landedIn(inbox.ta, inbox.workspaceId, waId)) };
}

/**
 * A new customer on every call, each with a phone number of their own (`waIdPrefix`, then 1000, 1001, … or from
 * `first`), writing `text` (or the default `text`), named by the call or by `name(n)` for the n-th customer.
 * `inbox` is read at each call, so it can be declared before the test's beforeAll has set it up.
 */
export function newCustomers(inbox: () => Inbox, opts: { waIdPrefix: string; first?: number; text?: string; name?: (n: number) => string }) {
  let seq = 0;
  return (text = opts.text ?? 'Hello', name?: string) => {
    const waId = `${opts.waIdPrefix}${String((opts.first ?? 1000) + seq++).padStart(4, '0')}`;
    return customerWrites(inbox(), waId, text, name ?? opts.name?.(seq));
  };
}
