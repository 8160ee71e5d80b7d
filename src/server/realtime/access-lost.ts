/**
 * "This user may no longer read this": the access check (src/server/auth/access.ts) reports it the moment any
 * request finds the identity deleted or disabled, the member gone, or the membership removed; the realtime
 * streams of that user (or of that member in that workspace) end at once instead of at their next periodic
 * recheck. Keyed by the Database object both sides already share, so no wiring is needed between them.
 */
import type { Database } from '../db/client';

export type AccessLost = { uid: string } | { memberId: string; workspaceId: string };

/** Who an open stream belongs to. */
export interface StreamSubject {
  uid: string;
  memberId: string;
  workspaceId: string;
}

const listeners = new WeakMap<Database, Set<(lost: AccessLost) => void>>();

export function onAccessLost(database: Database, listener: (lost: AccessLost) => void): () => void {
  let set = listeners.get(database);
  if (!set) listeners.set(database, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

export function reportAccessLost(database: Database, lost: AccessLost): void {
  for (const listener of listeners.get(database) ?? []) listener(lost);
}

/** Whether a stream of `subject` must end for `lost`. */
export function affects(lost: AccessLost, subject: StreamSubject): boolean {
  return 'uid' in lost ? lost.uid === subject.uid : lost.memberId === subject.memberId && lost.workspaceId === subject.workspaceId;
}
