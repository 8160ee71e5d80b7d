/**
 * Bots' hook after an inbound batch commits: for each conversation of the batch on a number with an
 * active bot, one `bots.turn` job, run at once by this process (runInSender) and by any worker if it crashes.
 * One statement per batch finds those conversations; when no bot is active on the batch's numbers it reads
 * nothing more than that.
 */
import type { ServiceDeps } from '../services/context';
import type { InboundItem } from '../whatsapp/inbound-batch';
import * as inbound from '../repositories/inbound-bots';

export async function botsInboundCommitted(d: ServiceDeps, workspaceId: string, items: InboundItem[]): Promise<void> {
  const spans = await inbound.botTurnSpans(d.db.db, workspaceId, [...new Set(items.map((i) => i.account.id))], items.map((i) => i.wamid));
  // Sent together: the queue commits them in one INSERT (one at a time, a batch of 100 conversations waited
  // for 100 commits before the next webhook batch could be stored).
  await Promise.all(
    spans.map(({ conversationId, from, upTo }) => d.jobs.send('bots.turn', { workspaceId, conversationId, from: from.toISOString(), upTo: upTo.toISOString() })),
  );
}
