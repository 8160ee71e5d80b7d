/**
 * The network step of a send and how a send Meta did not take is settled. Runs outside any transaction: the
 * claim before it and the writes after it are transactions of their own.
 */
import type { Database } from '../db/client';
import * as sends from '../repositories/outbound-sends';
import type { Channel } from '../whatsapp/channel';
import { GraphApiError } from '../whatsapp/graph-errors';
import type { GraphClient, OutboundMessage } from '../whatsapp/graph-client';
import type { OutboundLog } from './outbound-deps';
import type { OutboundRequest } from './outbound-request';
import type { SendTarget } from './outbound-target';
import type { Pacer } from './pacer';
import { OutcomeUnknownError, haltingCodes, pairRateLimitCode } from './send-outcomes';

export interface GraphCall {
  db: Database;
  log: OutboundLog;
  channel: Pick<Channel, 'credsOf'>;
  graph: Pick<GraphClient, 'sendMessage'>;
  pacer: Pick<Pacer, 'take' | 'backOff'>;
  /** 130429 answers one call absorbs (backing off each time) before it leaves the send `pending`. */
  maxThrottled: number;
}

export function reportUnknown(log: OutboundLog, req: OutboundRequest, sendId: string, why: string): void {
  log.warn({ sendId, workspaceId: req.workspaceId, idempotencyKey: req.idempotencyKey, why }, 'outbound send outcome unknown; not sent again');
}

/**
 * Calls Meta (its first slot already taken: `send` paces before it claims); 130429 backs the number off and
 * the same claimed send goes again in a new slot.
 */
export async function callGraph(c: GraphCall, req: OutboundRequest, target: SendTarget, sendId: string, message: OutboundMessage) {
  const creds = c.channel.credsOf(target.account);
  for (let throttled = 0; ; ) {
    if (throttled > 0) await c.pacer.take(target.account);
    try {
      return await c.graph.sendMessage(creds, { phoneNumber: target.contact.phoneNumber, userId: target.contact.userId }, message, { replyTo: req.replyTo, retryThrottled: false });
    } catch (err) {
      if (!(err instanceof GraphApiError) || err.code !== 130429) throw err;
      throttled++;
      await c.pacer.backOff(target.account);
      await sends.noteThrottled(c.db.db, req.workspaceId, sendId);
      c.log.warn({ sendId, accountId: target.account.id, throttled }, 'WhatsApp answered 130429; the number backs off and the send goes again');
      if (throttled >= c.maxThrottled) throw err;
    }
  }
}

/** How a send ends: Meta took it, refused it for good, refused it for now, or may have it. */
export type SendOutcome = 'sent' | 'failed' | 'pending' | 'unknown';

/** The outcome of a send Meta did not take: `pending` when waiting may help, `failed` for good, `unknown` when it may have. */
export function notTakenOutcome(err: unknown): Exclude<SendOutcome, 'sent'> {
  if (!(err instanceof GraphApiError) || err.mayHaveArrived) return 'unknown';
  // 131056 (pair rate): too many messages to this one customer. Not the number's fault (no back-off) and not
  // final: the key stays sendable, and the caller (a campaign's runner) tries that recipient again later.
  // An account-level refusal (haltingCodes) stays sendable too: the same send goes once the account is fixed.
  return err.retryable || err.code === pairRateLimitCode || (err.code !== undefined && haltingCodes.has(err.code)) ? 'pending' : 'failed';
}

/** Settles a send Meta did not take (notTakenOutcome). */
export async function settleNotTaken(c: Pick<GraphCall, 'db' | 'log'>, req: OutboundRequest, sendId: string, err: unknown): Promise<never> {
  const ws = req.workspaceId;
  const status = notTakenOutcome(err);
  if (err instanceof GraphApiError && status !== 'unknown') {
    await sends.finish(c.db.db, ws, sendId, { status, errorCode: err.code ?? null, failureReason: err.userMessage });
    throw err;
  }
  await sends.finish(c.db.db, ws, sendId, { status: 'unknown', failureReason: err instanceof Error ? err.message : 'unexpected error' });
  reportUnknown(c.log, req, sendId, err instanceof Error ? err.message : 'unexpected error');
  throw err instanceof GraphApiError ? err : new OutcomeUnknownError(sendId);
}

/**
 * Meta has the message but it could not be stored: unknown to the product, never sent again. Its wamid is kept
 * in its own column (a status webhook for it settles the caller's record, e.g. a campaign's log line).
 */
export async function settleNotStored(c: Pick<GraphCall, 'db' | 'log'>, req: OutboundRequest, sendId: string, wamid: string): Promise<void> {
  await sends
    .finish(c.db.db, req.workspaceId, sendId, { status: 'unknown', waMessageId: wamid, failureReason: `accepted by WhatsApp as ${wamid} but not stored` })
    .catch(() => undefined);
  reportUnknown(c.log, req, sendId, 'accepted but not stored');
}
