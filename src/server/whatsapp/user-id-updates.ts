/**
 * The `user_id_update` webhook field: a customer's business-scoped user id (or parent user id) changed. The
 * contact holding the previous id moves to the current one, keeping its conversations and history, as for the
 * `user_changed_user_id` system message (system-messages.ts). Each update is applied once: sent again, the
 * previous id names no contact any more and nothing changes.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import * as ch from '../repositories/channel';
import { e164OfWaId } from './customer-identity';
import { type FieldChange, type FieldHandler, eachChange } from './inbound-pipeline';
import { timeOf } from './inbound-statuses';
import { type IdentityChange, moveContact } from './system-messages';
import { UserIdUpdate, UserIdUpdateValue } from './webhook-payload';

export interface UserIdUpdatesDeps {
  db: Database;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
}

/** The old identity an update names, and what changes. */
function planOf(u: UserIdUpdate): { old: { userId: string | null; phoneNumber: string | null }; changes: IdentityChange[] } {
  const changes: IdentityChange[] = [];
  if (u.user_id?.current && u.user_id.current !== u.user_id.previous) changes.push({ kind: 'userId', current: u.user_id.current });
  if (u.parent_user_id?.current && u.parent_user_id.current !== u.parent_user_id.previous) {
    changes.push({ kind: 'parentUserId', current: u.parent_user_id.current });
  }
  return { old: { userId: u.user_id?.previous ?? null, phoneNumber: u.wa_id ? e164OfWaId(u.wa_id).phoneNumber : null }, changes };
}

export function userIdUpdates(d: UserIdUpdatesDeps): FieldHandler {
  async function update({ value, at }: FieldChange): Promise<void> {
    const parsed = UserIdUpdateValue.safeParse(value);
    if (!parsed.success) {
      d.log.warn({ issues: parsed.error.issues.slice(0, 5) }, 'malformed user id update dropped');
      return;
    }
    const account = await ch.accountByPhoneNumberId(d.db.db, parsed.data.metadata.phone_number_id);
    if (!account) {
      d.log.warn({ phoneNumberId: parsed.data.metadata.phone_number_id }, 'user id update for an unknown phone number id dropped');
      return;
    }
    for (const raw of parsed.data.user_id_update ?? []) {
      const u = UserIdUpdate.safeParse(raw);
      if (!u.success) continue;
      const { old, changes } = planOf(u.data);
      if (changes.length === 0 || (!old.userId && !old.phoneNumber)) continue;
      const when = u.data.timestamp ? timeOf(u.data.timestamp) : (at ?? new Date());
      await d.db.transaction((tx) => moveContact(tx, account.workspaceId, old, changes, when));
    }
  }

  return { field: 'user_id_update', handle: eachChange(update) };
}
