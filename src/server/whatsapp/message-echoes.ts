/**
 * The `smb_message_echoes` webhook field (coexistence: the number is used both in the WhatsApp Business app and
 * through Parley). Each echo is a message the business sent from the app on its phone: it is stored as the
 * business's own outbound message in the customer's conversation, marked `sentFromPhone`, so the team sees the
 * whole exchange. It is not a customer's message: the messages field's handlers (campaign replies, bots,
 * routing) never see it, it never marks the conversation unread (`lastInboundAt` stays), never reopens a closed
 * conversation and never opens the 24-hour window. An echo delivered again is stored once (by its wamid).
 * Edits and revocations made in the app are not messages of their own and are left out.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../db/client';
import * as ch from '../repositories/channel';
import * as conv from '../repositories/conversations';
import { toContact } from '../repositories/resources';
import { type CustomerIdentity, identityKey, upsertCustomers } from '../repositories/customer-identities';
import { type NewEvent, appendEvents } from '../repositories/event-log';
import type { MessageContent } from './inbound-batch';
import type { MessageContents } from './inbound-contents';
import { findOrOpenConversations, messageEvents, threadKey } from './conversation-thread';
import { type FieldChange, type FieldHandler, eachAccountChange } from './inbound-pipeline';
import { timeOf } from './inbound-statuses';
import { e164OfWaId } from './customer-identity';
import { EchoesValue, MessageEcho, type WebhookContact } from './webhook-payload';

export interface EchoesDeps {
  db: Database;
  log: Pick<FastifyBaseLogger, 'warn' | 'debug'>;
  contents: MessageContents;
}

/** App actions on an earlier message, not messages of their own. */
const notMessages = new Set(['edit', 'revoke', 'reaction']);

interface Echo {
  wamid: string;
  customer: CustomerIdentity;
  content: MessageContent;
  /** When the business sent it (receipt time, or Meta's timestamp when that is earlier): orders the conversation. */
  at: Date;
}

const clean = (s: string | undefined | null) => s?.trim() || null;

/** The customer an echo went to: `to_user_id` first, the phone (`to`) second; null when it names neither. */
function recipientOf(e: MessageEcho, contacts: WebhookContact[]): CustomerIdentity | null {
  const entry = (e.to_user_id ? contacts.find((c) => c.user_id === e.to_user_id) : undefined) ?? (e.to ? contacts.find((c) => c.wa_id === e.to) : undefined);
  const waId = e.to ?? entry?.wa_id;
  const userId = clean(e.to_user_id ?? entry?.user_id);
  if (!waId && !userId) return null;
  return {
    phoneNumber: waId ? e164OfWaId(waId).phoneNumber : null,
    userId,
    parentUserId: clean(e.to_parent_user_id ?? entry?.parent_user_id),
    username: clean(entry?.profile?.username),
    name: clean(entry?.profile?.name),
  };
}

const later = (a: Date | null, b: Date) => (a && a.getTime() >= b.getTime() ? a : b);

/**
 * Stores one number's echoes in its customers' latest conversations (a new one when there is none), with their
 * `message.created` events. A conversation's last message and activity move forward only: an echo arriving
 * after a later message keeps its own place (its send time) in the thread.
 */
async function storeEchoes(tx: Executor, account: ch.AccountRow, echoes: Echo[]): Promise<void> {
  const ws = account.workspaceId;
  const contacts = await upsertCustomers(tx, ws, echoes.map((e) => e.customer));
  const contactOf = (e: Echo) => contacts.byKey.get(identityKey(e.customer))!;
  const keyOf = (e: Echo) => ({ contactId: contactOf(e).id, whatsappAccountId: account.id });
  const threads = await findOrOpenConversations(tx, ws, echoes.map(keyOf), { reopenClosed: false });
  const threadOf = (e: Echo) => threads.get(threadKey(keyOf(e)))!;
  const rows = await ch.insertMessages(
    tx,
    echoes.map((e) => ({
      workspaceId: ws,
      conversationId: threadOf(e).conversation.id,
      ...e.content,
      creator: 'agent' as const,
      memberId: null,
      waMessageId: e.wamid,
      status: 'sent',
      sentFromPhone: true,
      createdAt: e.at,
    })),
  );
  const rowOf = new Map(rows.map((r) => [r.waMessageId!, r]));
  const events: NewEvent[] = [];
  const announced = new Set<string>();
  const touched = new Map<string, ch.ConversationRow>();
  for (const e of echoes) {
    const row = rowOf.get(e.wamid);
    if (!row) continue; // stored meanwhile by another delivery of the same echo
    const contact = contactOf(e);
    if (!announced.has(contact.id)) {
      announced.add(contact.id);
      if (contacts.created.has(contact.id)) events.push({ type: 'contact.created', payload: { contact: toContact(contact) } });
      else if (contacts.updated.has(contact.id)) events.push({ type: 'contact.updated', payload: { contact: toContact(contact) } });
    }
    const before = touched.get(row.conversationId) ?? threadOf(e).conversation;
    const c: ch.ConversationRow = { ...before, lastMessageAt: later(before.lastMessageAt, e.at), lastActivityAt: later(before.lastActivityAt, e.at) };
    const first = !touched.has(c.id);
    touched.set(c.id, c);
    events.push(...messageEvents({ opened: first && threadOf(e).opened, reopened: false }, c, contact, conv.toMessage(row)));
  }
  await ch.setConversationTimes(tx, ws, [...touched.values()]);
  await appendEvents(tx, ws, events);
}

export function messageEchoes(d: EchoesDeps): FieldHandler {
  /** The echoes of one change that are messages and not stored yet, with their contents (media fetched). */
  async function echoesOf(account: ch.AccountRow, value: EchoesValue, change: FieldChange): Promise<Echo[]> {
    const parsed: { e: MessageEcho; customer: CustomerIdentity; receivedAt: number }[] = [];
    for (const [i, raw] of value.message_echoes.entries()) {
      const e = MessageEcho.safeParse(raw);
      if (!e.success) {
        d.log.warn({ issues: e.error.issues.slice(0, 5) }, 'malformed message echo dropped');
        continue;
      }
      if (notMessages.has(e.data.type)) {
        d.log.debug({ wamid: e.data.id, type: e.data.type }, 'message echo that is not a message of its own left out');
        continue;
      }
      const customer = recipientOf(e.data, value.contacts ?? []);
      if (!customer) {
        d.log.warn({ wamid: e.data.id }, 'message echo naming neither a phone number nor a user id dropped');
        continue;
      }
      parsed.push({ e: e.data, customer, receivedAt: change.receivedAt + i });
    }
    const stored = await ch.storedWamids(d.db.db, account.workspaceId, parsed.map((p) => p.e.id));
    const seen = new Set(stored);
    const echoes: Echo[] = [];
    for (const { e, customer, receivedAt } of parsed) {
      if (seen.has(e.id)) continue;
      seen.add(e.id);
      const content = await d.contents.contentOf(account, e);
      if (!content) continue;
      // Meta's timestamp has whole seconds: an echo arriving within its second keeps its place by receipt (as a
      // customer's message does), one arriving late goes back to when it was sent.
      echoes.push({ wamid: e.id, customer, content, at: new Date(Math.min(timeOf(e.timestamp).getTime() + 999, receivedAt)) });
    }
    return echoes;
  }

  const handle = eachAccountChange(d, 'message echoes webhook', EchoesValue, async (account, value, change) => {
    const echoes = await echoesOf(account, value, change);
    if (echoes.length > 0) await d.db.transaction((tx) => storeEchoes(tx, account, echoes));
  });
  return { field: 'smb_message_echoes', handle };
}
