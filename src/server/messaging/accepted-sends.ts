/**
 * Final writes of sends Meta accepted, a batch per statement and one writer per workspace at a time: the
 * workspace's event lock is held from the events to the commit, so one write per send made that lock (and one
 * commit each) the limit of a campaign; and a batch written as one statement, which is its own transaction, pays
 * one round trip to the database where a transaction of its steps paid seven. A batch that fails is written again
 * one send at a time, so one bad send cannot take the others with it.
 */
import { randomUUID } from 'node:crypto';
import { type Database, type Executor, isUniqueViolation } from '../db/client';
import { toMessage } from '../repositories/conversations';
import type { NewEvent } from '../repositories/event-log';
import { type SentMessageRow, storedWamidConstraint, writeSentMessages } from '../repositories/sent-messages';
import { findOrOpenConversations, messageEvents, type Thread, threadKey } from '../whatsapp/conversation-thread';
import type { StoredContent } from './outbound-render';
import { type OutboundRequest, creatorOf } from './outbound-request';
import type { SendTarget } from './outbound-target';
import type { SentMessage } from './send-outcomes';

/** A send Meta accepted (its wamid), waiting for its writes. */
interface Accepted {
  req: OutboundRequest;
  target: SendTarget;
  sendId: string;
  wamid: string;
  stored: StoredContent;
}

const acceptedBatchMax = 200;

export function createAcceptedWriter(database: Database) {
  const waiting = new Map<string, { item: Accepted; done: (err: unknown, value?: SentMessage) => void }[]>();
  const writing = new Set<string>();

  async function writeWaiting(ws: string): Promise<void> {
    const list = waiting.get(ws);
    if (writing.has(ws) || !list?.length) return;
    const batch = list.splice(0, acceptedBatchMax);
    if (list.length === 0) waiting.delete(ws);
    writing.add(ws);
    try {
      try {
        const results = await writeAccepted(database, ws, batch.map((b) => b.item));
        batch.forEach((b, i) => b.done(null, results[i]));
      } catch (err) {
        if (batch.length === 1) batch[0].done(err);
        else
          for (const b of batch) {
            try {
              const [one] = await writeAccepted(database, ws, [b.item]);
              b.done(null, one);
            } catch (e) {
              b.done(e);
            }
          }
      }
    } finally {
      writing.delete(ws);
      void writeWaiting(ws);
    }
  }

  return {
    /** Queues the send's writes with the workspace's others; answers its stored message once committed. */
    store(item: Accepted): Promise<SentMessage> {
      const ws = item.req.workspaceId;
      return new Promise((resolvePromise, rejectPromise) => {
        let list = waiting.get(ws);
        if (!list) waiting.set(ws, (list = []));
        list.push({ item, done: (err, value) => (err ? rejectPromise(err) : resolvePromise(value!)) });
        void writeWaiting(ws);
      });
    },
  };
}

/**
 * Messages, conversations, workspace events and outcomes of accepted sends of one workspace, set-based. Sends to
 * conversations that exist (a reply, a campaign's open windows) are one statement and no transaction; a contact
 * without a conversation on the number has one opened first, in the same transaction as the rest.
 */
async function writeAccepted(database: Database, ws: string, items: Accepted[]): Promise<SentMessage[]> {
  if (items.every((it) => it.target.conversation)) return writeSent(database.db, ws, items, new Map());
  return database.transaction(async (tx) => {
    const keys = items.filter((it) => !it.target.conversation).map(threadKeyOf);
    return writeSent(tx, ws, items, await findOrOpenConversations(tx, ws, keys, { reopenClosed: false }));
  });
}

const threadKeyOf = (it: Accepted) => ({ contactId: it.target.contact.id, whatsappAccountId: it.target.account.id });

/** The later of two times, as `greatest` moves a conversation's times (a time it has not got yet counts as earlier). */
const later = (a: Date | null, b: Date) => (a && a > b ? a : b);

async function writeSent(ex: Executor, ws: string, items: Accepted[], opened: Map<string, Thread>): Promise<SentMessage[]> {
  const threads: Thread[] = items.map((it) =>
    it.target.conversation ? { conversation: it.target.conversation, opened: false, reopened: false } : opened.get(threadKey(threadKeyOf(it)))!,
  );
  const now = new Date();
  const rows: SentMessageRow[] = items.map((it, i) => ({
    id: randomUUID(),
    sendId: it.sendId,
    conversationId: threads[i].conversation.id,
    type: it.stored.type,
    header: it.stored.header ?? null,
    text: it.stored.text ?? null,
    mediaUrl: it.stored.mediaUrl ?? null,
    footer: it.stored.footer ?? null,
    action: it.stored.action ?? null,
    templateComponents: it.stored.templateComponents ?? null,
    creator: creatorOf(it.req.actor),
    memberId: it.req.actor.type === 'member' ? it.req.actor.memberId : null,
    campaignId: it.req.actor.type === 'campaign' ? it.req.actor.campaignId : null,
    waMessageId: it.wamid,
  }));
  const events: NewEvent[] = [];
  const announced = new Set<string>();
  const results = items.map((it, i): SentMessage => {
    const message = toMessage({ ...rows[i], workspaceId: ws, status: 'sent', failureReason: null, pricing: null, createdAt: now, sentFromPhone: false });
    const { conversation, opened: isNew } = threads[i];
    const first = !announced.has(conversation.id);
    announced.add(conversation.id);
    // An opened conversation is announced as it stands after its first message (its times moved to now).
    const after = isNew ? { ...conversation, lastMessageAt: later(conversation.lastMessageAt, now), lastActivityAt: later(conversation.lastActivityAt, now) } : conversation;
    events.push(...messageEvents({ opened: isNew && first, reopened: false }, after, it.target.contact, message));
    return { message, sendId: it.sendId, replayed: false, wamid: it.wamid };
  });
  try {
    await writeSentMessages(ex, ws, now, rows, events);
  } catch (err) {
    if (isUniqueViolation(err, storedWamidConstraint)) throw new Error('WhatsApp answered a message id that is stored already');
    throw err;
  }
  return results;
}
