/**
 * Campaign recipients of the whole server, for /metrics: every workspace at once (an operator's figure, never
 * shown to a workspace). One query summing campaign_counts, the few rows per campaign that triggers keep as
 * recipients change, instead of counting the recipients themselves.
 */
import { sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../db/client';

/** What campaign sends ended as (a recipient has one line per send step), by outcome as the results count them. */
export const sendOutcomes = ['sent', 'delivered', 'read', 'replied', 'failed', 'unknown', 'opted_out', 'capped'] as const;
export type SendOutcome = (typeof sendOutcomes)[number];

export interface CampaignTotals {
  /** Recipients still to go (pending, waiting or sending) and finished (done, skipped or failed). */
  recipients: { pending: number; finished: number };
  sends: Record<SendOutcome, number>;
}

export async function campaignTotals(ex: Executor): Promise<CampaignTotals> {
  const [row] = rowsOf<Record<string, string | number | null>>(
    await ex.execute(sql`select sum(recipients) as recipients, sum(pending) as pending, sum(sent) as sent,
      sum(delivered) as delivered, sum(read) as read, sum(replied) as replied, sum(failed) as failed,
      sum(unknown) as unknown, sum(opted_out) as opted_out, sum(capped) as capped from campaign_counts`),
  );
  const n = (key: string) => Number(row?.[key] ?? 0);
  const pending = n('pending');
  return {
    recipients: { pending, finished: n('recipients') - pending },
    sends: Object.fromEntries(sendOutcomes.map((o) => [o, n(o)])) as Record<SendOutcome, number>,
  };
}
