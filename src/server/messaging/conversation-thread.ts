/**
 * Finding or opening the conversation of a contact on a WhatsApp number, for both directions: webhook ingestion
 * (a customer writes) and the outbound path (Parley writes first, e.g. a campaign). Runs inside the caller's
 * transaction, so a caller that stores a batch of deliveries can call it once per message of the batch.
 */
import type { Executor } from '../db/client';
import * as ch from '../repositories/channel';
import * as conv from '../repositories/conversations';
import { toContact } from '../repositories/resources';
import { appendEvent } from '../realtime/event-log';

export interface Thread {
  conversation: ch.ConversationRow;
  /** Created by this call: announced as `conversation.opened` with its first message. */
  opened: boolean;
  /** A closed conversation opened again by this call (CONVERSATION_REOPENED recorded). */
  reopened: boolean;
}

/**
 * The contact's most recent conversation on the number, or a new one. Serialised per (contact, number) until the
 * transaction ends, so two first messages at once open one conversation, not two. `reopenClosed`: a customer
 * writing on a closed conversation reopens it (rather than duplicating it); Parley writing does not reopen one.
 */
export async function findOrOpenConversation(
  tx: Executor,
  workspaceId: string,
  contactId: string,
  whatsappAccountId: string,
  opts: { reopenClosed: boolean },
): Promise<Thread> {
  await ch.lockThread(tx, workspaceId, contactId, whatsappAccountId);
  const latest = await ch.latestConversation(tx, workspaceId, contactId, whatsappAccountId);
  if (!latest) {
    const conversation = await ch.insertConversation(tx, { workspaceId, contactId, whatsappAccountId });
    return { conversation, opened: true, reopened: false };
  }
  const conversation = (await ch.lockConversation(tx, workspaceId, latest.id))!;
  if (conversation.isActive || !opts.reopenClosed) return { conversation, opened: false, reopened: false };
  const reopened = await ch.updateConversation(tx, workspaceId, conversation.id, { isActive: true });
  await conv.insertEvent(tx, workspaceId, conversation.id, { type: 'CONVERSATION_REOPENED', reopenedBy: 'contact', memberId: null });
  return { conversation: reopened, opened: false, reopened: true };
}

/**
 * Records a message stored on a thread: the conversation moves to the top (`at`; `inboundAt` refreshes the
 * 24-hour window) and the workspace events go out: `conversation.opened` (with contact and first message) or
 * `conversation.updated` for a reopened one, then `message.created`.
 */
export async function announceMessage(
  tx: Executor,
  workspaceId: string,
  thread: Thread,
  contact: ch.ContactRow,
  row: ch.MessageRow,
  inboundAt?: Date,
): Promise<void> {
  const touched = await ch.touchForMessage(tx, workspaceId, thread.conversation.id, row.createdAt, inboundAt);
  const conversation = conv.toConversation(touched);
  const message = conv.toMessage(row);
  if (thread.opened) {
    await appendEvent(tx, workspaceId, 'conversation.opened', { conversation: { ...conversation, Contact: toContact(contact), lastMessage: message } });
  } else if (thread.reopened) {
    await appendEvent(tx, workspaceId, 'conversation.updated', { conversation });
  }
  await appendEvent(tx, workspaceId, 'message.created', { message });
}
