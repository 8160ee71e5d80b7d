/**
 * The first step of a send, before anything is recorded: the number, the contact and (when there is one) the
 * conversation, and the refusals of what cannot go (no number; free-form content outside the 24-hour window).
 */
import { customerWindow } from '../../shared/customer-window';
import type { Executor } from '../db/client';
import { conflict, notFound } from '../errors';
import * as ch from '../repositories/channel';
import * as r from '../repositories/resources';
import type { OutboundRequest } from './outbound-request';
import type { ContactRow } from '../repositories/contacts';

export const outsideWindowMessage =
  'More than 24 hours have passed since the customer last wrote; send an approved template to reopen the conversation';

export const noAddressMessage = 'This contact has no phone number or WhatsApp user id to send to';
/** Meta's 131062, refused before Meta: one-tap, zero-tap and copy-code codes are bound to a phone number. */
export const authenticationNeedsPhoneMessage =
  'Authentication templates need the customer\'s phone number, which WhatsApp withholds for this contact; ask them to share it first';

/** Whom WhatsApp can reach: a phone number, or else a user id; authentication templates need the phone. */
async function checkAddress(ex: Executor, ws: string, contact: ContactRow, content: OutboundRequest['content']): Promise<void> {
  if (contact.phoneNumber) return;
  if (!contact.userId) throw conflict(noAddressMessage);
  if (content.type === 'template' && content.templateId) {
    const tpl = await r.whatsappTemplates.get(ex, ws, content.templateId);
    if (tpl?.category === 'AUTHENTICATION') throw conflict(authenticationNeedsPhoneMessage);
  }
}

export async function resolveTarget(ex: Executor, req: OutboundRequest) {
  const ws = req.workspaceId;
  let conversation: ch.ConversationRow | null;
  let contactId: string;
  let accountId: string | null;
  if ('conversationId' in req.target) {
    conversation = await ch.conversation(ex, ws, req.target.conversationId);
    if (!conversation) throw notFound('Conversation not found');
    contactId = conversation.contactId;
    accountId = conversation.whatsappAccountId;
  } else {
    contactId = req.target.contactId;
    accountId = req.target.whatsappAccountId;
    conversation = null;
  }
  const [contact, account] = await Promise.all([r.contacts.get(ex, ws, contactId), accountId ? ch.account(ex, ws, accountId) : null]);
  if (!contact) throw notFound('Contact not found');
  if (!account) throw conflict('This conversation has no connected WhatsApp number to send from');
  await checkAddress(ex, ws, contact, req.content);
  // Free-form messages only inside the customer-service window; templates go any time.
  if (req.content.type !== 'template') {
    const latest = conversation ?? (await ch.latestConversation(ex, ws, contact.id, account.id));
    if (!customerWindow(latest?.lastInboundAt).open) throw conflict(outsideWindowMessage);
  }
  return { contact, account, conversation };
}
export type SendTarget = Awaited<ReturnType<typeof resolveTarget>>;
