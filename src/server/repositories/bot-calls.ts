/** SQL of a bot turn's network calls (HTTP node requests, e-mails), each named by its key. */
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';

export type BotCallRow = typeof t.botCalls.$inferSelect;

const byKey = (workspaceId: string, key: string) => and(eq(t.botCalls.workspaceId, workspaceId), eq(t.botCalls.key, key));

export async function callByKey(ex: Executor, workspaceId: string, key: string): Promise<BotCallRow | null> {
  const [row] = await ex.select().from(t.botCalls).where(byKey(workspaceId, key));
  return row ?? null;
}

/** Records a call to make (a key recorded already keeps its row: a turn run again names the same call). */
export async function recordCall(ex: Executor, values: typeof t.botCalls.$inferInsert): Promise<void> {
  await ex.insert(t.botCalls).values(values).onConflictDoNothing();
}

/**
 * Takes the call to make it: only one runner at a time, and only while it has no outcome. A claim older than
 * `staleBefore` belonged to a runner that died; taking it again counts an attempt more, so the caller can tell.
 * Answers the attempts so far (1 for a first attempt), or null when the call is done or someone else makes it.
 */
export async function claimCall(ex: Executor, workspaceId: string, key: string, staleBefore: Date): Promise<number | null> {
  const [row] = await ex
    .update(t.botCalls)
    .set({ attempts: sql`${t.botCalls.attempts} + 1`, attemptedAt: sql`now()` })
    .where(and(byKey(workspaceId, key), isNull(t.botCalls.outcome), or(isNull(t.botCalls.attemptedAt), lt(t.botCalls.attemptedAt, staleBefore))))
    .returning({ attempts: t.botCalls.attempts });
  return row?.attempts ?? null;
}

/** Gives a claim back when nothing left (an SMTP server that refused before taking the mail). */
export async function releaseCall(ex: Executor, workspaceId: string, key: string): Promise<void> {
  await ex
    .update(t.botCalls)
    .set({ attempts: sql`greatest(${t.botCalls.attempts} - 1, 0)`, attemptedAt: null })
    .where(and(byKey(workspaceId, key), isNull(t.botCalls.outcome)));
}

/** Records the call's outcome once (a second runner's outcome is not kept). */
export async function recordOutcome(ex: Executor, workspaceId: string, key: string, outcome: unknown): Promise<void> {
  await ex
    .update(t.botCalls)
    .set({ outcome, doneAt: sql`now()` })
    .where(and(byKey(workspaceId, key), isNull(t.botCalls.outcome)));
}

/** The From address of the workspace's bot e-mails, when it set one. */
export async function botEmailFromOf(ex: Executor, workspaceId: string): Promise<string | null> {
  const [row] = await ex.select({ from: t.workspaces.botEmailFrom }).from(t.workspaces).where(eq(t.workspaces.id, workspaceId));
  return row?.from ?? null;
}

export async function setBotEmailFrom(ex: Executor, workspaceId: string, from: string | null): Promise<void> {
  await ex.update(t.workspaces).set({ botEmailFrom: from }).where(eq(t.workspaces.id, workspaceId));
}
