/**
 * Campaign recipients of the whole server, for /metrics: every workspace at once (an operator's figure, never
 * shown to a workspace). One query summing campaign_counts, the few rows per campaign that triggers keep as
 * recipients change, instead of counting the recipients themselves.
 */
import { sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../db/client';

/** Recipients still to go (pending, waiting or sending) and finished (done, skipped or failed). */
export async function recipientTotals(ex: Executor): Promise<{ pending: number; finished: number }> {
  const [row] = rowsOf<{ recipients: string | number | null; pending: string | number | null }>(
    await ex.execute(sql`select sum(recipients) as recipients, sum(pending) as pending from campaign_counts`),
  );
  const pending = Number(row?.pending ?? 0);
  return { pending, finished: Number(row?.recipients ?? 0) - pending };
}
