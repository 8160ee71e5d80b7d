/**
 * SQL of `send_pacers`: one row per WhatsApp number, the shared state of its token bucket
 * (src/server/messaging/pacer.ts). Times are the database's clock (epoch seconds), so every server process
 * paces against the same clock.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';

const nowEpoch = sql`extract(epoch from clock_timestamp())::double precision`;

/**
 * Reserves the number's next `count` send slots (GCRA, virtual scheduling): the first starts at the later of the
 * theoretical time `next_at` and now, each next one an interval later, and `next_at` moves past the last. Answers
 * the first reserved slot and the database's now; the caller may send at `slot - burstSeconds`.
 */
export async function reserve(
  ex: Executor,
  workspaceId: string,
  whatsappAccountId: string,
  intervalSeconds: number,
  count = 1,
): Promise<{ slot: number; now: number }> {
  const p = t.sendPacers;
  const span = intervalSeconds * count;
  const [row] = await ex
    .insert(p)
    .values({ whatsappAccountId, workspaceId, nextAt: sql`${nowEpoch} + ${span}::double precision` })
    .onConflictDoUpdate({
      target: p.whatsappAccountId,
      set: { nextAt: sql`greatest(${p.nextAt}, ${nowEpoch}) + ${span}::double precision` },
    })
    .returning({ nextAt: p.nextAt, now: sql<number>`${nowEpoch}`.mapWith(Number) });
  return { slot: row.nextAt - span, now: row.now };
}

/** Nothing of this number goes before `seconds` from now (130429: Meta says the number sends too fast). */
export async function backOff(ex: Executor, workspaceId: string, whatsappAccountId: string, seconds: number): Promise<void> {
  const p = t.sendPacers;
  await ex
    .update(p)
    .set({ nextAt: sql`greatest(${p.nextAt}, ${nowEpoch} + ${seconds}::double precision)`, backoffs: sql`${p.backoffs} + 1` })
    .where(and(eq(p.workspaceId, workspaceId), eq(p.whatsappAccountId, whatsappAccountId)));
}

