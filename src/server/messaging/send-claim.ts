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
import { type Settled, coalesced, settle } from './coalesce';

/** Claimed (go on and call Meta), sent before (answer it), or found claimed by a process that died. */
type Claim = { send: sends.OutboundSendRow } | { replay: SentMessage } | { unknown: string };

/** One send to claim: its request, target and stored message type. */
export interface ClaimRequest {
  req: OutboundRequest;
  target: SendTarget;
  messageType: string;
}

/**
 * Claims a group of one workspace's sends: the new keys are recorded and claimed by one statement; a key seen
 * before (or named twice in the group: the first is claimed, the second finds it in flight) is decided one by
 * one (claimKnown). `inFlightMs`: a claim without outcome older than this counts as unknown (its process died).
 */
export async function claimSends(database: Database, ws: string, group: ClaimRequest[], inFlightMs: number): Promise<Settled<Claim>[]> {
  const fresh = await sends.claimNewMany(
    database.db,
    group.map(({ req, target, messageType }) => ({
      workspaceId: ws,
      idempotencyKey: req.idempotencyKey,
      whatsappAccountId: target.account.id,
      contactId: target.contact.id,
      conversationId: target.conversation?.id ?? null,
      actorType: req.actor.type,
      actorId: actorId(req.actor),
      messageType,
    })),
  );
  const byKey = new Map(fresh.map((row) => [row.idempotencyKey, row]));
  return Promise.all(
    group.map(({ req }) => {
      const row = byKey.get(req.idempotencyKey);
      // Each recorded row is the claim of the first send of the group that named its key.
      if (row) {
        byKey.delete(req.idempotencyKey);
        return { value: { send: row } };
      }
      return settle(() => claimKnown(database, req, inFlightMs));
    }),
  );
}

/** claimSends for one send; concurrent sends of a workspace share the statement. */
export function createClaimer(database: Database, inFlightMs: number): (c: ClaimRequest) => Promise<Claim> {
  return coalesced<ClaimRequest, Claim>(
    (c) => c.req.workspaceId,
    (ws, group) => claimSends(database, ws, group, inFlightMs),
  );
}

/** A key seen before: a `pending` send is claimed again; otherwise its outcome is answered or thrown. */
async function claimKnown(database: Database, req: OutboundRequest, inFlightMs: number): Promise<Claim> {
  const ws = req.workspaceId;
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
