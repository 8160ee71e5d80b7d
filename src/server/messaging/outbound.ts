/**
 * The one outbound path: every message Parley sends (an agent's reply, a template, a campaign step, a bot node, a
 * system message) goes out through `send`, on behalf of an actor.
 *
 * Decide, record, call, record; each step is a module of its own:
 * 1. Resolves the target (conversation, contact, number) and refuses what cannot go (no number, free-form
 *    content outside the 24-hour window) before anything is recorded (outbound-target.ts), and renders the
 *    content as the Graph message and what the conversation stores (outbound-render.ts).
 * 2. Waits for the number's pacer (pacer.ts), 3. records the intended send under its idempotency key and claims
 *    it, in one statement, right before Meta is called (so a crash leaves `claimed` only the sends whose request
 *    may have left). A key seen before answers that send's outcome instead of sending again (a retried job never
 *    sends twice) (send-claim.ts). 4. Calls the Graph API, outside any transaction; a 130429 backs the number off
 *    and sends the same claimed send again later, never as a second send (send-call.ts, which also settles a
 *    send Meta did not take).
 * 5. Stores the message with its wamid, the conversation (opened if the contact had none on that number), the
 *    workspace events and the send's outcome in one transaction, shared by the sends of the workspace accepted
 *    meanwhile (accepted-sends.ts).
 * The concurrent sends of a workspace share the statements of steps 1 and 3 too (coalesce.ts), and those of a
 * number share the pacer's reservation: a campaign's batch costs a few statements per step, not per send.
 *
 * Outcomes of a send record: `sent`; `failed` (Meta refused for good: a retry answers the same refusal);
 * `pending` (Meta certainly did not take it and waiting may help: a retry with the same key sends it);
 * `unknown` (Meta may have it: the request timed out after it left, or the process died between claim and
 * outcome). An unknown send is never sent again automatically: a duplicate (a marketing message twice) is worse
 * than one reported as unknown. Each is logged, and stays in `outbound_sends` with its state.
 */
import { HttpError } from '../errors';
import * as sends from '../repositories/outbound-sends';
import type { Channel } from '../whatsapp/channel';
import type { GraphClient } from '../whatsapp/graph-client';
import { GraphApiError } from '../whatsapp/graph-errors';
import { createAcceptedWriter } from './accepted-sends';
import type { OutboundDeps, OutboundLog } from './outbound-deps';
import { publicLinkOf, renderOutbound } from './outbound-render';
import { OutboundRequest, type OutboundRequest as Request } from './outbound-request';
import { createTargetResolver } from './outbound-target';
import { type Pacer, createPacer } from './pacer';
import { createClaimer } from './send-claim';
import { type GraphCall, type SendOutcome, callGraph, notTakenOutcome, reportUnknown, settleNotStored, settleNotTaken } from './send-call';
import type { SendTarget } from './outbound-target';
import { OutcomeUnknownError, SendInFlightError, type SentMessage } from './send-outcomes';

export interface OutboundOptions {
  /** A claim without outcome older than this counts as unknown (its process died); younger, as in flight. */
  inFlightMs?: number;
  /** 130429 answers one call absorbs (backing off each time) before it leaves the send `pending`. */
  maxThrottled?: number;
  pacer?: Pacer;
}

export function createOutbound(d: OutboundDeps, channel: Pick<Channel, 'credsOf'>, graph: Pick<GraphClient, 'sendMessage'>, opts: OutboundOptions = {}) {
  const inFlightMs = opts.inFlightMs ?? 5 * 60_000;
  const pacer = opts.pacer ?? createPacer(d.db, { metrics: d.metrics });
  /** A send that reached the Graph step, by its number's phone number id and how it ended. */
  const counted = (target: SendTarget, outcome: SendOutcome) =>
    d.metrics?.messages.inc({ direction: 'out', number: target.account.phoneNumberId, outcome });
  const call: GraphCall = { db: d.db, log: d.log, channel, graph, pacer, maxThrottled: opts.maxThrottled ?? 5 };
  const publicLink = publicLinkOf(d.files);
  const accepted = createAcceptedWriter(d.db);
  const resolveTarget = createTargetResolver(d.db);
  const claimSend = createClaimer(d.db, inFlightMs);

  /**
   * Sends one message; answers the stored message, or throws the refusal (see the file's comment). `beforeRequest`
   * runs once the pacer's slot is taken and the send claimed, right before the request is handed to the HTTP
   * client: a throw there sends nothing and leaves the send `pending` for a later retry (a campaign paused while
   * its send waited for the slot or for the claim's write, which a busy database can hold for seconds).
   */
  async function send(input: Request, opts: { beforeRequest?: () => Promise<void> } = {}): Promise<SentMessage> {
    const req = OutboundRequest.parse(input);
    // Decide: what goes where, or the refusal, before anything is recorded.
    const target = await resolveTarget(req);
    const { message, stored } = renderOutbound(req.content, publicLink);
    // The number's slot first, the claim right before the request: a send is `claimed` only while its request is
    // really on its way, so a process that dies leaves as unknown only what may have reached Meta (sends still
    // waiting for a slot were never claimed and go normally after the restart).
    await pacer.take(target.account);
    const claimed = await claimSend({ req, target, messageType: stored.type });
    if ('replay' in claimed) return claimed.replay;
    if ('unknown' in claimed) {
      counted(target, 'unknown');
      reportUnknown(d.log, req, claimed.unknown, 'claim never finished');
      throw new OutcomeUnknownError(claimed.unknown);
    }
    const sendId = claimed.send.id;
    await checkBeforeRequest(d.db, req.workspaceId, sendId, opts.beforeRequest);

    let wamid: string;
    try {
      wamid = (await callGraph(call, req, target, sendId, message)).wamid;
    } catch (err) {
      counted(target, notTakenOutcome(err));
      return settleNotTaken(call, req, sendId, err);
    }

    try {
      const sent = await accepted.store({ req, target, sendId, wamid, stored });
      counted(target, 'sent');
      return sent;
    } catch (err) {
      counted(target, 'unknown');
      await settleNotStored(call, req, sendId, wamid);
      throw err;
    }
  }

  return {
    send,
    runJob: (req: Request) => runSendJob(send, d.log, req),
  };
}
export type Outbound = ReturnType<typeof createOutbound>;

/** The caller's last word before the request leaves; a no puts the claimed send back to `pending` (nothing went to Meta). */
async function checkBeforeRequest(database: OutboundDeps['db'], workspaceId: string, sendId: string, check?: () => Promise<void>): Promise<void> {
  if (!check) return;
  try {
    await check();
  } catch (err) {
    await sends.finish(database.db, workspaceId, sendId, { status: 'pending', failureReason: 'not sent: withdrawn before the request' });
    throw err;
  }
}

/**
 * The `messages.send` job. A refusal (for good, or before anything was recorded) and an unknown outcome end the
 * job; a send Meta did not take for a passing reason, or one still in flight, is retried by the job.
 */
async function runSendJob(send: (req: Request) => Promise<SentMessage>, log: OutboundLog, req: Request): Promise<void> {
  try {
    await send(req);
  } catch (err) {
    if (err instanceof SendInFlightError) throw err;
    if (err instanceof GraphApiError && err.retryable && !err.mayHaveArrived) throw err;
    if (err instanceof OutcomeUnknownError || err instanceof GraphApiError || err instanceof HttpError) {
      log.warn({ idempotencyKey: req.idempotencyKey, reason: err.message }, 'outbound send not delivered');
      return;
    }
    throw err;
  }
}
