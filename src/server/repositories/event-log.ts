/**
 * The workspace event log: every change a client must see live, in a per-workspace order (`seq` 1, 2, 3 ...).
 * appendEvent runs inside the caller's transaction, so an event exists exactly when its change does, and its
 * NOTIFY is delivered to the listening servers only on commit.
 */
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../db/client';
import * as t from '../db/schema';
import {
  type WorkspaceEvent,
  type WorkspaceEventPayload,
  type WorkspaceEventType,
  eventPayloads,
} from '../../shared/schemas/events';

/** The NOTIFY channel; its payload is `<workspaceId>:<seq>` (the event itself is read from the table). */
export const eventChannel = 'parley_events';

type EventRow = typeof t.workspaceEvents.$inferSelect;

export const toWorkspaceEvent = (r: EventRow): WorkspaceEvent =>
  ({
    seq: r.seq,
    workspaceId: r.workspaceId,
    type: r.type,
    createdAt: r.createdAt.toISOString(),
    payload: r.payload,
  }) as WorkspaceEvent;

/**
 * Appends an event. Concurrency: a transaction-scoped advisory lock per workspace serialises appends until
 * commit, so seqs are gap-free and become visible in order (a reader that has seen seq n has seen all before
 * it). Called outside a transaction it opens one; inside, it uses a savepoint (the lock lasts to the commit).
 */
export async function appendEvent<T extends WorkspaceEventType>(
  ex: Executor,
  workspaceId: string,
  type: T,
  payload: WorkspaceEventPayload<T>,
): Promise<WorkspaceEvent> {
  // One way into the log: the same function as appendEvents (the lock, the next seq, the NOTIFY); the row is read
  // back by its seq, which the lock keeps this transaction's own until it commits.
  return ex.transaction(async (tx) => {
    const seq = await appendEvents(tx, workspaceId, [{ type, payload } as NewEvent]);
    const [row] = await tx
      .select()
      .from(t.workspaceEvents)
      .where(and(eq(t.workspaceEvents.workspaceId, workspaceId), eq(t.workspaceEvents.seq, seq)));
    return toWorkspaceEvent(row);
  });
}

/** One event of a batch for appendEvents. */
export type NewEvent = { [T in WorkspaceEventType]: { type: T; payload: WorkspaceEventPayload<T> } }[WorkspaceEventType];

/**
 * Appends several events of one workspace in one statement, in the given order (consecutive seqs), under the
 * same lock as appendEvent, with one NOTIFY for the last seq (a listener reads everything it missed from the
 * log). Runs in the caller's transaction (no savepoint of its own); call it last there: the workspace's
 * appends wait for that transaction's commit.
 */
export async function appendEvents(tx: Executor, workspaceId: string, events: NewEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  // The function (migration 0033) takes the lock, then reads the last seq in a snapshot after it; statements
  // that write rows of their own append through the same function, so the log has one way in.
  const [row] = rowsOf<{ seq: number }>(await tx.execute(sql`select append_workspace_events(${workspaceId}, ${eventsJson(events)}::jsonb) as seq`));
  return Number(row.seq);
}

/** A batch of events as append_workspace_events takes them; the payloads go to browsers as they are, so held to the wire schema. */
export function eventsJson(events: NewEvent[]): string {
  return JSON.stringify(events.map((e) => ({ type: e.type, payload: eventPayloads[e.type].parse(e.payload) })));
}

/** Events after `afterSeq`, oldest first (replay for a client that resumes, catch-up after a lost NOTIFY). */
export async function readEvents(ex: Executor, workspaceId: string, afterSeq: number, limit = 500): Promise<WorkspaceEvent[]> {
  const e = t.workspaceEvents;
  const rows = await ex
    .select()
    .from(e)
    .where(and(eq(e.workspaceId, workspaceId), gt(e.seq, afterSeq)))
    .orderBy(asc(e.seq))
    .limit(limit);
  return rows.map(toWorkspaceEvent);
}

/** The newest seq of a workspace (0 when it has none): where a client without Last-Event-ID starts. */
export async function latestSeq(ex: Executor, workspaceId: string): Promise<number> {
  const e = t.workspaceEvents;
  const [row] = await ex
    .select({ seq: sql<number>`coalesce(max(${e.seq}), 0)::int` })
    .from(e)
    .where(eq(e.workspaceId, workspaceId));
  return Number(row?.seq ?? 0);
}

/** The oldest seq the log still holds for a workspace (0 when it has none). */
export async function oldestSeq(ex: Executor, workspaceId: string): Promise<number> {
  const e = t.workspaceEvents;
  const [row] = await ex
    .select({ seq: sql<number>`coalesce(min(${e.seq}), 0)::int` })
    .from(e)
    .where(eq(e.workspaceId, workspaceId));
  return Number(row?.seq ?? 0);
}

/**
 * Deletes events created before `before`, in chunks (short transactions on a busy log), keeping each workspace's
 * newest event: seqs continue from it, so a seq is never handed out twice. Answers how many were deleted.
 */
export async function pruneEvents(ex: Executor, before: Date, chunk = 10_000): Promise<number> {
  let total = 0;
  for (;;) {
    const [row] = rowsOf<{ n: number }>(
      await ex.execute(sql`
        with doomed as (
          select e.workspace_id, e.seq from ${t.workspaceEvents} e
          where e.created_at < ${before.toISOString()}::timestamptz
            and e.seq < (select max(n.seq) from ${t.workspaceEvents} n where n.workspace_id = e.workspace_id)
          limit ${chunk}),
        deleted as (
          delete from ${t.workspaceEvents} e using doomed d
          where e.workspace_id = d.workspace_id and e.seq = d.seq
          returning 1)
        select count(*)::int as n from deleted`),
    );
    total += Number(row.n);
    if (Number(row.n) < chunk) return total;
  }
}
