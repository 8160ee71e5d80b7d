/**
 * The first step of a send, before anything is recorded: the number, the contact and (when there is one) the
 * conversation, and the refusals of what cannot go (no number; free-form content outside the 24-hour window).
 * The concurrent sends of a workspace read their rows together (coalesce.ts): one statement for a group.
 */
import { customerWindow } from '../../shared/customer-window';
import type { Database, Executor } from '../db/client';
import { conflict, notFound } from '../errors';
import * as ch from '../repositories/channel';
import * as r from '../repositories/resources';
import type { OutboundRequest } from './outbound-request';
import type { ContactRow } from '../repositories/contacts';
import { type ConversationTarget, canonicalId, contactTargets, conversationTargets } from '../repositories/send-targets';
import { coalesced, settle } from './coalesce';

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

/** The rows of a group of one workspace's targets: conversations (with contact and number), contacts, numbers. */
async function targetRows(ex: Executor, ws: string, reqs: OutboundRequest[]) {
  const conversationIds: string[] = [];
  const contactIds: string[] = [];
  const accountIds: string[] = [];
  for (const req of reqs) {
    if ('conversationId' in req.target) conversationIds.push(req.target.conversationId);
    else {
      contactIds.push(req.target.contactId);
      accountIds.push(req.target.whatsappAccountId);
    }
  }
  const [byConversation, byContact] = await Promise.all([
    conversationTargets(ex, ws, conversationIds),
    contactIds.length > 0 ? contactTargets(ex, ws, contactIds, accountIds) : null,
  ]);
  return (req: OutboundRequest): ConversationTarget | { conversation: null; contact: ContactRow | null; account: ch.AccountRow | null } => {
    if ('conversationId' in req.target) {
      const found = byConversation.get(canonicalId(req.target.conversationId));
      if (!found) throw notFound('Conversation not found');
      return found;
    }
    const { contactId, whatsappAccountId } = req.target;
    return { conversation: null, contact: byContact!.contacts.get(canonicalId(contactId)) ?? null, account: byContact!.accounts.get(canonicalId(whatsappAccountId)) ?? null };
  };
}

/** One send's target from its rows, or its refusal. */
async function checkTarget(ex: Executor, req: OutboundRequest, rows: Awaited<ReturnType<typeof targetRows>>) {
  const ws = req.workspaceId;
  const { conversation, contact, account } = rows(req);
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
export type SendTarget = Awaited<ReturnType<typeof checkTarget>>;

/** The targets of a group of one workspace's sends, each its own or its refusal. */
export async function resolveTargets(ex: Executor, ws: string, reqs: OutboundRequest[]) {
  const rows = await targetRows(ex, ws, reqs);
  return Promise.all(reqs.map((req) => settle(() => checkTarget(ex, req, rows))));
}

/** resolveTarget for one send; concurrent sends of a workspace share the statement. */
export function createTargetResolver(database: Database): (req: OutboundRequest) => Promise<SendTarget> {
  return coalesced<OutboundRequest, SendTarget>(
    (req) => req.workspaceId,
    (ws, reqs) => resolveTargets(database.db, ws, reqs),
  );
}
