/** A session's due times as jobs: its expiry (one per session) and the waiting node's no-answer timeout. */
import type { Executor } from '../db/client';
import type { Runtime } from './session-context';

/** The session's expiry job: one per session (a waiting one absorbs another send), rescheduling itself when it finds the expiry moved. */
export const scheduleExpiry = (rt: Runtime, tx: Executor, ws: string, session: { id: string; step: number }, at: Date) =>
  rt.d.jobs.send('bots.timeout', { workspaceId: ws, sessionId: session.id, step: session.step, kind: 'expire' }, { tx, startAfter: at, singletonKey: `bots.expire:${session.id}` });

/** The waiting node's no-answer timeout, for the step it waits at (a later step makes it moot). */
export const scheduleNoAnswer = (rt: Runtime, tx: Executor, ws: string, session: { id: string; step: number }, at: Date) =>
  rt.d.jobs.send('bots.timeout', { workspaceId: ws, sessionId: session.id, step: session.step, kind: 'noAnswer' }, { tx, startAfter: at });
