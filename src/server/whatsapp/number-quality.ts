/**
 * The `phone_number_quality_update` webhook field: the number on that WABA whose display digits the value names
 * gets its health refreshed (services/number-health.ts, registered at the composition root).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import * as ch from '../repositories/channel';
import { type FieldChange, type FieldHandler, eachChange } from './inbound-pipeline';
import { QualityUpdateValue } from './webhook-payload';

export interface NumberQualityDeps {
  db: Database;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  /** A quality update for this account (its failure retries the delivery). */
  afterQualityUpdate?: (account: ch.AccountRow, value: QualityUpdateValue) => Promise<unknown>;
}

export function numberQuality(d: NumberQualityDeps): FieldHandler {
  async function update({ wabaId, value }: FieldChange): Promise<void> {
    const parsed = QualityUpdateValue.safeParse(value);
    if (!parsed.success) {
      d.log.warn({ issues: parsed.error.issues.slice(0, 5) }, 'malformed phone number quality update dropped');
      return;
    }
    const digits = parsed.data.display_phone_number.replace(/\D/g, '');
    const accounts = (await ch.accountsByWaba(d.db.db, wabaId)).filter((a) => a.phoneNumber.replace(/\D/g, '') === digits);
    for (const account of accounts) await d.afterQualityUpdate?.(account, parsed.data);
    if (accounts.length === 0) d.log.info({ wabaId }, 'quality update for a number Parley does not know');
  }

  return {
    field: 'phone_number_quality_update',
    handle: eachChange(update),
  };
}
