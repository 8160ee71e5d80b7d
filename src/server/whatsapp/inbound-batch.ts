/**
 * Stores a batch of inbound WhatsApp messages of one workspace in one transaction, set-based: a burst of
 * customer replies costs about a dozen statements per batch instead of a dozen per message. The rules are those
 * of one message at a time: the contact is found or created by user id first and phone number second
 * (repositories/customer-identities.ts; the profile name fills a contact without one), the contact's latest
 * conversation on that number is reused, reopened when closed, or opened; a wamid already stored is skipped;
 * the workspace events follow in message order.
 */
import type { Executor } from '../db/client';
import * as ch from '../repositories/channel';
import * as conv from '../repositories/conversations';
import { findOrOpenConversations, messageEvents, threadKey } from './conversation-thread';
import { toContact } from '../repositories/resources';
import { type CustomerIdentity, identityKey, upsertCustomers } from '../repositories/customer-identities';
import { type NewEvent, appendEvents } from '../repositories/event-log';

export type MessageContent = Pick<ch.MessageRow, 'type' | 'text' | 'mediaUrl' | 'header' | 'action' | 'footer'>;

export interface InboundItem {
  account: ch.AccountRow;
  wamid: string;
  /** Who wrote: their user id, phone number (either may be missing), username and profile name. */
  customer: CustomerIdentity;
  content: MessageContent;
  /** Orders the conversation (receipt time, 1 ms apart within a delivery). */
  at: Date;
  /** Meta's timestamp, never later than `at`: opens the 24-hour window. */
  sentAt: Date;
}

/** An inbound message once stored, with the contact it was stored under. */
export interface StoredItem extends InboundItem {
  contactId: string;
}

const later = (a: Date | null, b: Date) => (a && a.getTime() >= b.getTime() ? a : b);

/** A batch's customers, one per identity key; a later message fills what an earlier one left out. */
function customersOf(items: InboundItem[]): CustomerIdentity[] {
  const people = new Map<string, CustomerIdentity>();
  for (const { customer } of items) {
    const key = identityKey(customer);
    const known = people.get(key);
    if (!known) people.set(key, { ...customer });
    else for (const f of ['phoneNumber', 'parentUserId', 'username', 'name'] as const) known[f] = known[f] ?? customer[f];
  }
  return [...people.values()];
}

/**
 * Answers the messages stored by this call with their contacts (a wamid stored meanwhile by another worker is
 * not among them).
 */
export async function storeInboundBatch(tx: Executor, workspaceId: string, items: InboundItem[]): Promise<{ stored: Set<string>; items: StoredItem[] }> {
  const stored = new Set<string>();
  if (items.length === 0) return { stored, items: [] };
  const ws = workspaceId;

  const contacts = await upsertCustomers(tx, ws, customersOf(items));
  const contactOf = (i: InboundItem) => contacts.byKey.get(identityKey(i.customer))!;

  // The customer writing again on a closed conversation reopens it rather than duplicating it.
  const keyOf = (i: InboundItem) => ({ contactId: contactOf(i).id, whatsappAccountId: i.account.id });
  const threads = await findOrOpenConversations(tx, ws, items.map(keyOf), { reopenClosed: true });
  const threadOf = (i: InboundItem) => threads.get(threadKey(keyOf(i)))!;
  const target = (i: InboundItem) => threadOf(i).conversation;
  const rows = await ch.insertMessages(
    tx,
    items.map((i) => ({
      workspaceId: ws,
      conversationId: target(i).id,
      ...i.content,
      creator: 'user' as const,
      memberId: null,
      waMessageId: i.wamid,
      status: 'received',
      createdAt: i.at,
    })),
  );
  const rowOf = new Map(rows.map((r) => [r.waMessageId!, r]));

  // Events in message order, each conversation as it stands after that message.
  const events: NewEvent[] = [];
  const announced = new Set<string>();
  const touched = new Map<string, ch.ConversationRow>();
  for (const i of items) {
    const row = rowOf.get(i.wamid);
    if (!row) continue; // stored meanwhile by another delivery of the same message
    stored.add(i.wamid);
    const contact = contactOf(i);
    if (!announced.has(contact.id)) {
      announced.add(contact.id);
      if (contacts.created.has(contact.id)) events.push({ type: 'contact.created', payload: { contact: toContact(contact) } });
      else if (contacts.updated.has(contact.id)) events.push({ type: 'contact.updated', payload: { contact: toContact(contact) } });
    }
    const before = touched.get(row.conversationId) ?? target(i);
    const c: ch.ConversationRow = {
      ...before,
      lastMessageAt: later(before.lastMessageAt, i.at),
      lastActivityAt: later(before.lastActivityAt, i.at),
      lastInboundAt: later(before.lastInboundAt, i.sentAt),
    };
    const first = !touched.has(c.id);
    touched.set(c.id, c);
    const thread = threadOf(i);
    events.push(...messageEvents({ opened: first && thread.opened, reopened: first && thread.reopened }, c, contact, conv.toMessage(row)));
  }
  await ch.setConversationTimes(tx, ws, [...touched.values()]);
  // Last: the workspace's event lock is then held only until the commit that follows.
  await appendEvents(tx, ws, events);
  return { stored, items: items.filter((i) => stored.has(i.wamid)).map((i) => ({ ...i, contactId: contactOf(i).id })) };
}
