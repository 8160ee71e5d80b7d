/**
 * Final writes of sends Meta accepted, a batch per transaction and one writer per workspace at a time: the
 * workspace's event lock is held from the events to the commit, so one transaction per send made that lock
 * (and one commit each) the limit of a campaign. A batch that fails is written again one send at a time, so one
 * bad send cannot take the others with it.
 */
import type { Database, Executor } from '../db/client';
import { touchConversations } from '../repositories/conversation-rows';
import { toMessage } from '../repositories/conversations';
import { insertMessages } from '../repositories/inbound-batch-rows';
import * as sends from '../repositories/outbound-sends';
import { type NewEvent, appendEvents } from '../repositories/event-log';
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
        const results = await database.transaction((tx) => writeAccepted(tx, ws, batch.map((b) => b.item)));
        batch.forEach((b, i) => b.done(null, results[i]));
      } catch (err) {
        if (batch.length === 1) batch[0].done(err);
        else
          for (const b of batch) {
            try {
              const [one] = await database.transaction((tx) => writeAccepted(tx, ws, [b.item]));
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

/** Messages, conversations, workspace events and outcomes of accepted sends of one workspace, set-based. */
async function writeAccepted(tx: Executor, ws: string, items: Accepted[]): Promise<SentMessage[]> {
  const keyOf = (it: Accepted) => ({ contactId: it.target.contact.id, whatsappAccountId: it.target.account.id });
  const found = await findOrOpenConversations(tx, ws, items.filter((it) => !it.target.conversation).map(keyOf), { reopenClosed: false });
  const threads: Thread[] = items.map((it) =>
    it.target.conversation ? { conversation: it.target.conversation, opened: false, reopened: false } : found.get(threadKey(keyOf(it)))!,
  );
  const now = new Date();
  const rows = await insertMessages(
    tx,
    items.map((it, i) => ({
      workspaceId: ws,
      conversationId: threads[i].conversation.id,
      ...it.stored,
      creator: creatorOf(it.req.actor),
      memberId: it.req.actor.type === 'member' ? it.req.actor.memberId : null,
      campaignId: it.req.actor.type === 'campaign' ? it.req.actor.campaignId : null,
      waMessageId: it.wamid,
      status: 'sent',
      createdAt: now,
    })),
  );
  const byWamid = new Map(rows.map((row) => [row.waMessageId!, row]));
  if (byWamid.size !== items.length) throw new Error('WhatsApp answered a message id that is stored already');
  const touched = await touchConversations(
    tx,
    ws,
    [...new Set(threads.map((th) => th.conversation.id))].map((id) => ({ id, at: now })),
  );
  const events: NewEvent[] = [];
  const announced = new Set<string>();
  const results = items.map((it, i): SentMessage => {
    const row = byWamid.get(it.wamid)!;
    const message = toMessage(row);
    const { conversation, opened } = threads[i];
    const first = !announced.has(conversation.id);
    announced.add(conversation.id);
    events.push(...messageEvents({ opened: opened && first, reopened: false }, touched.get(conversation.id) ?? conversation, it.target.contact, message));
    return { message, sendId: it.sendId, replayed: false, wamid: it.wamid };
  });
  await appendEvents(tx, ws, events);
  await sends.finishSent(
    tx,
    ws,
    items.map((it, i) => ({ id: it.sendId, messageId: byWamid.get(it.wamid)!.id, waMessageId: it.wamid, conversationId: threads[i].conversation.id })),
  );
  return results;
}
