/**
 * The `user_id_update` webhook field: a customer's business-scoped user id (or parent user id) changed. The
 * contact holding the previous id moves to the current one, keeping its conversations and history, as for the
 * `user_changed_user_id` system message (system-messages.ts). Each update is applied once: sent again, the
 * previous id names no contact any more and nothing changes.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { e164OfWaId } from './customer-identity';
import { type FieldHandler, eachAccountChange } from './inbound-pipeline';
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
  const handle = eachAccountChange(d, 'user id update', UserIdUpdateValue, async (account, value, { at }) => {
    for (const raw of value.user_id_update ?? []) {
      const u = UserIdUpdate.safeParse(raw);
      if (!u.success) continue;
      const { old, changes } = planOf(u.data);
      if (changes.length === 0 || (!old.userId && !old.phoneNumber)) continue;
      const when = u.data.timestamp ? timeOf(u.data.timestamp) : (at ?? new Date());
      await d.db.transaction((tx) => moveContact(tx, account.workspaceId, old, changes, when));
    }
  });
  return { field: 'user_id_update', handle };
}
