/**
 * The idempotent record of a send: its key is recorded and claimed right before Meta is called. A new key is a new
 * send; a key seen before answers that send's outcome (sent, refused, unknown) instead of sending again, and only
 * a `pending` one (Meta certainly did not take it) is claimed again.
 */
import type { Database } from '../db/client';
import * as ch from '../repositories/channel';
import { toMessage } from '../repositories/conversations';
import * as sends from '../repositories/outbound-sends';
import { GraphApiError } from '../whatsapp/graph-errors';
import { type OutboundRequest, actorId } from './outbound-request';
import type { SendTarget } from './outbound-target';
import { OutcomeUnknownError, SendInFlightError, type SentMessage } from './send-outcomes';

/** Claimed (go on and call Meta), sent before (answer it), or found claimed by a process that died. */
type Claim = { send: sends.OutboundSendRow } | { replay: SentMessage } | { unknown: string };

/**
 * Claims the key: a new send, or a retry of a `pending` one; otherwise answers or throws the earlier outcome.
 * `inFlightMs`: a claim without outcome older than this counts as unknown (its process died); younger, in flight.
 */
export async function claimSend(database: Database, req: OutboundRequest, target: SendTarget, messageType: string, inFlightMs: number): Promise<Claim> {
  const ws = req.workspaceId;
  // A new key is recorded and claimed by one statement; only a key seen before needs the transaction below.
  const fresh = await sends.claimNew(database.db, {
    workspaceId: ws,
    idempotencyKey: req.idempotencyKey,
    whatsappAccountId: target.account.id,
    contactId: target.contact.id,
    conversationId: target.conversation?.id ?? null,
    actorType: req.actor.type,
    actorId: actorId(req.actor),
    messageType,
  });
  if (fresh) return { send: fresh };
  return database.transaction(async (tx): Promise<Claim> => {
    const known = (await sends.byKeyForUpdate(tx, ws, req.idempotencyKey))!;
    switch (known.status) {
      case 'pending':
        return { send: (await sends.reclaim(tx, ws, known.id))! };
      case 'sent': {
        const row = known.messageId ? await ch.messageById(tx, ws, known.messageId) : null;
        if (!row) throw new OutcomeUnknownError(known.id);
        return { replay: { message: toMessage(row), sendId: known.id, replayed: true, wamid: known.waMessageId } };
      }
      case 'failed':
        // The same refusal again, without asking Meta again.
        throw new GraphApiError({ httpStatus: 400, code: known.errorCode ?? undefined, message: known.failureReason ?? 'refused' });
      case 'unknown':
        throw new OutcomeUnknownError(known.id, known.waMessageId);
      case 'claimed':
        if (Date.now() - known.claimedAt.getTime() < inFlightMs) throw new SendInFlightError(known.id);
        // Claimed long ago and never finished: its process died, maybe after Meta took the message. Marked
        // (committed with this transaction), then reported.
        await sends.finish(tx, ws, known.id, { status: 'unknown', failureReason: 'claimed but never finished (the sending process stopped)' });
        return { unknown: known.id };
    }
  });
}
