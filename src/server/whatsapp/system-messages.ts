/**
 * System messages of the `messages` field: WhatsApp telling the business that a customer's identity changed
 * (`user_changed_number`: a new phone number; `user_changed_user_id`: a new business-scoped user id). They are not
 * messages of the conversation: the contact moves to its new identity, keeping its conversations and history
 * (`contact_identity_changes`), and a `contact.updated` event follows. Sent again, a change finds the contact
 * already moved and changes nothing.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../db/client';
import type { AccountRow } from '../repositories/channel';
import { type CustomerIdentity, type IdentityKind, changeIdentity, contactByIdentity } from '../repositories/customer-identities';
import { appendEvents } from '../repositories/event-log';
import { toContact } from '../repositories/resources';
import { e164OfWaId } from './customer-identity';
import type { InboundMessage } from './webhook-payload';
import { timeOf } from './inbound-statuses';

export interface SystemMessagesDeps {
  db: Database;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
}

export interface IdentityChange {
  kind: IdentityKind;
  current: string;
}

/** What a system message changes, in the order applied; empty for system messages Parley does not act on. */
export function identityChangesOf(m: InboundMessage): IdentityChange[] {
  const s = m.system;
  if (!s) return [];
  const changes: IdentityChange[] = [];
  const newPhone = s.type === 'user_changed_number' ? (s.wa_id ?? s.new_wa_id) : undefined;
  if (newPhone) changes.push({ kind: 'phoneNumber', current: e164OfWaId(newPhone).phoneNumber });
  if (s.user_id && (s.type === 'user_changed_user_id' || s.type === 'user_changed_number')) changes.push({ kind: 'userId', current: s.user_id });
  if (s.parent_user_id) changes.push({ kind: 'parentUserId', current: s.parent_user_id });
  return changes;
}

/**
 * Moves one contact (found by its old identity) to a new one, inside the caller's transaction, with its event.
 * Answers whether anything moved.
 */
export async function moveContact(
  tx: Executor,
  workspaceId: string,
  old: Pick<CustomerIdentity, 'userId' | 'phoneNumber'>,
  changes: IdentityChange[],
  at: Date,
): Promise<boolean> {
  const contact = await contactByIdentity(tx, workspaceId, old);
  if (!contact) return false;
  let latest = null;
  for (const change of changes) {
    const result = await changeIdentity(tx, workspaceId, contact.id, { ...change, at });
    if (result?.moved) latest = result.contact;
  }
  if (latest) await appendEvents(tx, workspaceId, [{ type: 'contact.updated', payload: { contact: toContact(latest) } }]);
  return latest !== null;
}

export function systemMessages(d: SystemMessagesDeps) {
  return {
    /** Applies one system message from this number's webhook; `sender` is the customer's old identity. */
    async apply(account: AccountRow, m: InboundMessage, sender: CustomerIdentity): Promise<void> {
      const changes = identityChangesOf(m);
      if (changes.length === 0) {
        d.log.info({ type: m.system?.type }, 'system message Parley does not act on');
        return;
      }
      const moved = await d.db.transaction((tx) => moveContact(tx, account.workspaceId, sender, changes, timeOf(m.timestamp)));
      if (!moved) d.log.info({ accountId: account.id, type: m.system?.type }, 'identity change for a customer Parley does not know, or known already');
    },
  };
}
export type SystemMessages = ReturnType<typeof systemMessages>;
