/**
 * SQL of `outbound_sends`: the record of every intended send (src/server/messaging/outbound.ts), claimed by its
 * idempotency key before Meta is called, finished with its outcome. Scoped by workspace_id.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';

export type OutboundSendRow = typeof t.outboundSends.$inferSelect;

/**
 * Records and claims a group of sends in one statement; answers the rows it recorded (a key known already, or
 * named twice in the group, is recorded once: the caller reads the others with `byKeyForUpdate`).
 */
export async function claimNewMany(
  ex: Executor,
  values: Omit<typeof t.outboundSends.$inferInsert, 'id' | 'status' | 'attempts' | 'claimedAt' | 'createdAt'>[],
): Promise<OutboundSendRow[]> {
  if (values.length === 0) return [];
  // In key order: two groups under way that share keys (a client's retries) then wait on each other's rows in
  // one order, never in opposite orders (a deadlock).
  const ordered = [...values].sort((a, b) => (a.idempotencyKey < b.idempotencyKey ? -1 : a.idempotencyKey > b.idempotencyKey ? 1 : 0));
  return ex
    .insert(t.outboundSends)
    .values(ordered.map((v) => ({ ...v, status: 'claimed' as const })))
    .onConflictDoNothing({ target: [t.outboundSends.workspaceId, t.outboundSends.idempotencyKey] })
    .returning();
}

/** The send of a key, locked until the transaction ends (two retries of one key are decided one after the other). */
export async function byKeyForUpdate(ex: Executor, workspaceId: string, key: string): Promise<OutboundSendRow | null> {
  const s = t.outboundSends;
  const [row] = await ex
    .select()
    .from(s)
    .where(and(eq(s.workspaceId, workspaceId), eq(s.idempotencyKey, key)))
    .for('update')
    .limit(1);
  return row ?? null;
}

/** Claims a `pending` send again (a retry of a send Meta did not take). */
export async function reclaim(ex: Executor, workspaceId: string, id: string): Promise<OutboundSendRow | null> {
  const s = t.outboundSends;
  const [row] = await ex
    .update(s)
    .set({ status: 'claimed', attempts: sql`${s.attempts} + 1`, claimedAt: sql`now()`, errorCode: null, failureReason: null })
    .where(and(eq(s.workspaceId, workspaceId), eq(s.id, id), eq(s.status, 'pending')))
    .returning();
  return row ?? null;
}

/**
 * Records an outcome. `sent` overrides any earlier state (an answer that arrives after its claim was declared
 * unknown makes the outcome known); the other outcomes only finish a claimed send.
 */
export async function finish(
  ex: Executor,
  workspaceId: string,
  id: string,
  outcome:
    | { status: 'sent'; messageId: string; waMessageId: string; conversationId: string }
    | { status: 'pending' | 'failed' | 'unknown'; errorCode?: number | null; failureReason?: string | null; waMessageId?: string },
): Promise<OutboundSendRow | null> {
  const s = t.outboundSends;
  const [row] = await ex
    .update(s)
    .set(
      outcome.status === 'sent'
        ? { ...outcome, finishedAt: sql`now()`, errorCode: null, failureReason: null }
        : {
            status: outcome.status,
            errorCode: outcome.errorCode ?? null,
            failureReason: outcome.failureReason ?? null,
            finishedAt: sql`now()`,
            ...(outcome.waMessageId && { waMessageId: outcome.waMessageId }),
          },
    )
    .where(and(eq(s.workspaceId, workspaceId), eq(s.id, id), outcome.status === 'sent' ? undefined : eq(s.status, 'claimed')))
    .returning();
  return row ?? null;
}

/** One more 130429 met by this send. */
export async function noteThrottled(ex: Executor, workspaceId: string, id: string): Promise<void> {
  const s = t.outboundSends;
  await ex
    .update(s)
    .set({ throttled: sql`${s.throttled} + 1` })
    .where(and(eq(s.workspaceId, workspaceId), eq(s.id, id)));
}


/** Where the send of a key stands (null when it was never recorded): a caller that met an unexpected error asks. */
export async function stateOfKey(ex: Executor, workspaceId: string, key: string): Promise<Pick<OutboundSendRow, 'status' | 'waMessageId'> | null> {
  const s = t.outboundSends;
  const [row] = await ex
    .select({ status: s.status, waMessageId: s.waMessageId })
    .from(s)
    .where(and(eq(s.workspaceId, workspaceId), eq(s.idempotencyKey, key)))
    .limit(1);
  return row ?? null;
}
