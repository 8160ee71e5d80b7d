/**
 * Finding or opening the conversation of a contact on a WhatsApp number, for both directions: webhook ingestion
 * (a customer writes) and the outbound path (Parley writes first, e.g. a campaign). Runs inside the caller's
 * transaction, set-based: both store messages in batches.
 */
import type { Executor } from '../db/client';
import * as ch from '../repositories/channel';
import * as conv from '../repositories/conversations';
import { toContact } from '../repositories/resources';
import type { Message } from '../../shared';
import type { NewEvent } from '../repositories/event-log';

export interface Thread {
  conversation: ch.ConversationRow;
  /** Created by this call: announced as `conversation.opened` with its first message. */
  opened: boolean;
  /** A closed conversation opened again by this call (CONVERSATION_REOPENED recorded). */
  reopened: boolean;
}

/** A (contact, WhatsApp number) pair: the thread its messages belong to. */
export interface ThreadKey {
  contactId: string;
  whatsappAccountId: string;
}
export const threadKey = (k: ThreadKey) => `${k.whatsappAccountId}:${k.contactId}`;

/**
 * Each thread's most recent conversation, or a new one, for a batch of messages (keyed by `threadKey`). The
 * threads stay locked until the transaction ends, so two first messages at once open one conversation, not two.
 * `reopenClosed`: a customer writing on a closed conversation reopens it (rather than duplicating it,
 * CONVERSATION_REOPENED recorded); Parley writing does not reopen one.
 */
export async function findOrOpenConversations(
  tx: Executor,
  workspaceId: string,
  keys: ThreadKey[],
  opts: { reopenClosed: boolean },
): Promise<Map<string, Thread>> {
  const threads = new Map<string, Thread>();
  if (keys.length === 0) return threads;
  await ch.lockThreads(tx, workspaceId, keys);
  const contactsByAccount = new Map<string, Set<string>>();
  for (const k of keys) {
    let set = contactsByAccount.get(k.whatsappAccountId);
    if (!set) contactsByAccount.set(k.whatsappAccountId, (set = new Set()));
    set.add(k.contactId);
  }
  for (const [whatsappAccountId, contactSet] of contactsByAccount) {
    const contactIds = [...contactSet];
    const latest = await ch.latestConversationsLocked(tx, workspaceId, whatsappAccountId, contactIds);
    const created = await ch.insertConversations(
      tx,
      contactIds.filter((id) => !latest.has(id)).map((contactId) => ({ workspaceId, contactId, whatsappAccountId })),
    );
    for (const conversation of created) threads.set(threadKey({ contactId: conversation.contactId, whatsappAccountId }), { conversation, opened: true, reopened: false });
    for (const [contactId, conversation] of latest) {
      const key = threadKey({ contactId, whatsappAccountId });
      if (conversation.isActive || !opts.reopenClosed) {
        threads.set(key, { conversation, opened: false, reopened: false });
        continue;
      }
      const reopened = await ch.updateConversation(tx, workspaceId, conversation.id, { isActive: true });
      await conv.insertEvent(tx, workspaceId, conversation.id, { type: 'CONVERSATION_REOPENED', reopenedBy: 'contact', memberId: null });
      threads.set(key, { conversation: reopened, opened: false, reopened: true });
    }
  }
  return threads;
}

/**
 * The workspace events of a message stored on a thread, for the writers that store messages in batches (webhook
 * ingestion, the outbound path): `conversation.opened` (with contact and first message) or `conversation.updated`
 * for a reopened one, then `message.created`. The caller sets `opened` / `reopened` for the thread's first message
 * of the batch only, and passes the conversation as it stands after this message.
 */
export function messageEvents(
  thread: Pick<Thread, 'opened' | 'reopened'>,
  conversationRow: ch.ConversationRow,
  contact: ch.ContactRow,
  message: Message,
): NewEvent[] {
  const events: NewEvent[] = [];
  if (thread.opened) {
    const conversation = conv.toConversation(conversationRow);
    events.push({ type: 'conversation.opened', payload: { conversation: { ...conversation, Contact: toContact(contact), lastMessage: message } } });
  } else if (thread.reopened) {
    events.push({ type: 'conversation.updated', payload: { conversation: conv.toConversation(conversationRow) } });
  }
  events.push({ type: 'message.created', payload: { message } });
  return events;
}
