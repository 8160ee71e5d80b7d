/** What the outbound path left in the database, read by the tests (the product itself never asks). */
import { and, count, eq } from 'drizzle-orm';
import type { Executor } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';

type SendStatus = (typeof t.outboundSends.$inferSelect)['status'];

/** How many sends of the workspace are in each state. */
export async function countByStatus(ex: Executor, workspaceId: string): Promise<Record<SendStatus, number>> {
  const s = t.outboundSends;
  const rows = await ex
    .select({ status: s.status, n: count() })
    .from(s)
    .where(eq(s.workspaceId, workspaceId))
    .groupBy(s.status);
  const out: Record<SendStatus, number> = { claimed: 0, pending: 0, sent: 0, failed: 0, unknown: 0 };
  for (const r of rows) out[r.status] = Number(r.n);
  return out;
}

/** How many times the number's pacer backed off (WhatsApp's rate limit answers). */
export async function backoffCount(ex: Executor, workspaceId: string, whatsappAccountId: string): Promise<number> {
  const p = t.sendPacers;
  const [row] = await ex
    .select({ backoffs: p.backoffs })
    .from(p)
    .where(and(eq(p.workspaceId, workspaceId), eq(p.whatsappAccountId, whatsappAccountId)));
  return row?.backoffs ?? 0;
}
