/**
 * Bots' hook after an inbound batch commits (issue 18): for each conversation of the batch on a number with an
 * active bot, one `bots.turn` job, run at once by this process (runInSender) and by any worker if it crashes.
 * It costs the ingestion one indexed query per batch when no bot is active on its numbers.
 */
import type { ServiceDeps } from '../services/context';
import type { InboundItem } from '../whatsapp/inbound-batch';
import * as s from '../repositories/bot-sessions';

export async function botsInboundCommitted(d: ServiceDeps, workspaceId: string, items: InboundItem[]): Promise<void> {
  const accounts = await s.accountsWithActiveBot(d.db.db, [...new Set(items.map((i) => i.account.id))]);
  const mine = items.filter((i) => accounts.has(i.account.id));
  if (mine.length === 0) return;
  const rows = await s.inboundByWamids(d.db.db, workspaceId, mine.map((i) => i.wamid));
  const span = new Map<string, { from: Date; upTo: Date }>();
  for (const r of rows) {
    const x = span.get(r.conversationId);
    if (!x) span.set(r.conversationId, { from: r.createdAt, upTo: r.createdAt });
    else {
      if (r.createdAt < x.from) x.from = r.createdAt;
      if (r.createdAt > x.upTo) x.upTo = r.createdAt;
    }
  }
  // Sent together: the queue commits them in one INSERT (one at a time, a batch of 100 conversations waited
  // for 100 commits before the next webhook batch could be stored).
  await Promise.all(
    [...span].map(([conversationId, { from, upTo }]) => d.jobs.send('bots.turn', { workspaceId, conversationId, from: from.toISOString(), upTo: upTo.toISOString() })),
  );
}
