/**
 * The call step of a turn: the HTTP request a walk paused at, made outside any transaction and lock, bounded by the
 * node's timeout, at most once under its key (the Idempotency-Key header carries it). The turn that reached the
 * node recorded the call and committed; the walk resumes in a transaction of its own once the outcome is recorded.
 */
import * as calls from '../repositories/bot-calls';
import type { HttpCall, HttpOutcome } from './executor-contract';
import { loggedFetch } from './http-node';
import type { CallJob, Runtime } from './session-context';

/** A claim older than the call's timeout by this much belonged to a process that died during the call. */
const staleMarginMs = 15_000;

/** The outcome of a call that may have left while its answer was lost: never made again (it may have side effects). */
export const lostCallOutcome: HttpOutcome = { ok: false, reason: 'The call may have been made, but its answer was lost (the server stopped); it is not repeated' };

/** Another run makes this call right now: the job tries again later, when that run has recorded its outcome. */
export class CallInFlightError extends Error {}

/**
 * Makes the recorded call unless it has an outcome already. Answers false when there is no such call (its
 * session was deleted); throws CallInFlightError while another run makes it.
 */
export async function makeRecordedCall(rt: Runtime, data: CallJob): Promise<boolean> {
  const db = rt.d.db.db;
  const row = await calls.callByKey(db, data.workspaceId, data.key);
  if (!row) return false;
  if (row.outcome) return true;
  const request = row.request as HttpCall;
  const attempts = await calls.claimCall(db, data.workspaceId, data.key, new Date(Date.now() - request.timeoutMs - staleMarginMs));
  if (attempts === null) {
    if ((await calls.callByKey(db, data.workspaceId, data.key))?.outcome) return true;
    throw new CallInFlightError(`bot call ${data.key} is being made by another run`);
  }
  const outcome =
    attempts > 1
      ? lostCallOutcome
      : await loggedFetch(rt.log, { ...request, headers: { ...request.headers, 'Idempotency-Key': data.key } }, { sessionId: data.sessionId, nodeId: row.nodeId });
  if (attempts > 1) rt.log.warn({ sessionId: data.sessionId, key: data.key }, 'bot HTTP call interrupted by a stop of the server: not repeated, the failure edge is taken');
  await calls.recordOutcome(db, data.workspaceId, data.key, outcome);
  return true;
}
