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
import { conversationTarget } from '../repositories/send-targets';

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

/** The contact and the number of the request's target, with its conversation when it names one. */
async function targetRows(ex: Executor, req: OutboundRequest) {
  const ws = req.workspaceId;
  if ('conversationId' in req.target) {
    // A conversation's send (a reply, a bot's message): the three rows in one statement.
    const found = await conversationTarget(ex, ws, req.target.conversationId);
    if (!found) throw notFound('Conversation not found');
    return found;
  }
  const { contactId, whatsappAccountId } = req.target;
  const [contact, account] = await Promise.all([r.contacts.get(ex, ws, contactId), whatsappAccountId ? ch.account(ex, ws, whatsappAccountId) : null]);
  return { conversation: null, contact, account };
}

export async function resolveTarget(ex: Executor, req: OutboundRequest) {
  const ws = req.workspaceId;
  const { conversation, contact, account } = await targetRows(ex, req);
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
