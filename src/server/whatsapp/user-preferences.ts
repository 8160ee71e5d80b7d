/**
 * Meta's marketing consent of a customer, kept apart from Parley's own opt-out (keywords, the template's
 * button, by hand):
 * - the `user_preferences` webhook field: the customer stopped or resumed marketing messages in WhatsApp;
 * - a `failed` status with 131050: WhatsApp refused a marketing template because the customer stopped them.
 * Each change is ordered by Meta's timestamp, so a redelivered or late event (a `resume` older than the `stop`)
 * changes nothing. Only a newer `resume` lifts a stop.
 */
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Database, Executor } from '../db/client';
import { appendEvents } from '../repositories/event-log';
import { type ConsentByPhone, type MarketingConsentSource, applyConsentByPhone, phonesOfWamids } from '../repositories/marketing-consent';
import { toContact } from '../repositories/resources';
import { type AppliedStatus, type FieldHandler, type InboundHandler, eachAccountChange } from './inbound-pipeline';
import { e164OfWaId } from './customer-identity';
import { timeOf } from './inbound-statuses';

/** Meta's customer stopped marketing messages: the status error code. */
const stoppedCode = 131050;

const Preference = z.looseObject({
  wa_id: z.string().min(1).optional(),
  user_id: z.string().optional(),
  category: z.string(),
  value: z.string(),
  timestamp: z.union([z.string(), z.number()]).optional(),
});
const PreferencesValue = z.looseObject({
  metadata: z.looseObject({ phone_number_id: z.string() }),
  user_preferences: z.array(Preference),
});

interface PreferencesDeps {
  db: Database;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
}

/** The newest change per phone; its contacts updated in one statement, with their `contact.updated` events. */
async function apply(ex: Executor, workspaceId: string, source: MarketingConsentSource, changes: ConsentByPhone[]): Promise<void> {
  const newest = new Map<string, ConsentByPhone>();
  for (const c of changes) {
    const key = c.phoneNumber ?? `user:${c.userId}`;
    const known = newest.get(key);
    if (!known || known.at < c.at) newest.set(key, c);
  }
  const changed = await applyConsentByPhone(ex, workspaceId, source, [...newest.values()]);
  await appendEvents(ex, workspaceId, changed.map((row) => ({ type: 'contact.updated' as const, payload: { contact: toContact(row) } })));
}

/** The `user_preferences` webhook field. */
export function userPreferences(d: PreferencesDeps): FieldHandler {
  const handle = eachAccountChange(d, 'user preferences webhook', PreferencesValue, async (account, value) => {
    const changes: ConsentByPhone[] = [];
    for (const p of value.user_preferences) {
      if (p.category !== 'marketing_messages' || (p.value !== 'stop' && p.value !== 'resume')) continue;
      // The phone when Meta shares it, else the user id (a customer with a username).
      if (!p.wa_id && !p.user_id) continue;
      const at = timeOf(p.timestamp === undefined ? undefined : String(p.timestamp));
      changes.push({ phoneNumber: p.wa_id ? e164OfWaId(p.wa_id).phoneNumber : null, userId: p.user_id ?? null, value: p.value === 'stop' ? 'stopped' : 'resumed', at });
    }
    if (changes.length === 0) return;
    await d.db.transaction((tx) => apply(tx, account.workspaceId, 'user_preferences', changes));
  });
  return { field: 'user_preferences', handle };
}

/** Inside the statuses' transaction: a marketing template refused with 131050 records the customer's stop. */
export function marketingRefusals(): InboundHandler {
  return {
    failureMessage: 'marketing consent from refused sends failed',
    async onStatuses(tx: Executor, workspaceId: string, statuses: AppliedStatus[]) {
      const refused = statuses.filter((s) => s.status === 'failed' && s.failure.code === stoppedCode);
      if (refused.length === 0) return;
      const phones = await phonesOfWamids(tx, workspaceId, refused.map((s) => s.wamid));
      const changes = refused.flatMap((s) => {
        const phoneNumber = phones.get(s.wamid);
        return phoneNumber ? [{ phoneNumber, value: 'stopped' as const, at: s.at }] : [];
      });
      await apply(tx, workspaceId, '131050', changes);
    },
  };
}
