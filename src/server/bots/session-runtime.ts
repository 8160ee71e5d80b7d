/**
 * Live bot sessions on WhatsApp. After an inbound batch commits, a `bots.turn` job per conversation applies the
 * customer's new messages, one at a time and in order, under a lock of the conversation row (two messages racing
 * in are applied one after the other, never against the same step). A turn's state, attribute writes,
 * assignment changes, e-mails, due-time jobs (no-answer timeouts, expiry), its pending HTTP call and the turn's
 * `bots.deliver` job commit together; the sends then go out in order, run at once from memory after the commit
 * (and by a worker if this process dies, even right after the commit), every send keyed
 * `bot:<sessionId>:<step>:<block>`, so a job run twice never sends twice. An agent handing a conversation to a bot
 * from live chat starts a session too (`bots.assigned`, queued by the assignment's transaction).
 *
 * This module owns the four ways a turn begins (an inbound message, a handoff to the bot, a due time, a call's
 * outcome) and the order of a turn: decide and record in a short transaction, the network after the commit
 * (sends, e-mails, an HTTP node's call), record and go on in another. The steps are modules of their own:
 * session-start.ts, session-turn.ts (one turn), session-end.ts, session-timers.ts, turn-effects.ts (the turn's
 * commit), session-calls.ts (an HTTP node's call) and session-delivery.ts (its sends and e-mails).
 */
import type { Outbound } from '../messaging/outbound';
import type { OutboundRequest } from '../messaging/outbound-request';
import type { JobInfo } from '../jobs/queue';
import * as s from '../repositories/bot-sessions';
import * as v from '../repositories/bot-versions';
import { type TurnRead, type TurnValues, readTurn } from '../repositories/bot-turn-read';
import { makeRecordedCall } from './session-calls';
import type { CallJob, BotRuntimeDeps, KeyedBotMail, Runtime, TurnScope } from './session-context';
import { sendBotMail, sessionDelivery } from './session-delivery';
import { endSession } from './session-end';
import { isOptKeyword } from '../../shared/opt-out-words';
import { answerOf } from './session-messages';
import { type LiveBot, sessionAtStart, startSession } from './session-start';
import { scheduleExpiry } from './session-timers';
import { type TurnResult, sessionTurns } from './session-turn';
import { botJobs } from './jobs';
import { noEffects, queueEffects, runCommittedDelivery } from './turn-effects';

type Turns = ReturnType<typeof sessionTurns>;
const deliverRetryLimit = botJobs['bots.deliver'].retryLimit ?? 0;

/** What began a turn (the `trigger` label of its metric). */
type TurnTrigger = 'inbound' | 'assigned' | 'timeout' | 'call' | 'failed_send';

/**
 * Runs `body` as one turn: its transaction with its effects queued last, then (once committed) its network.
 * Its duration (the transaction) is counted by trigger and outcome.
 */
async function inTurn(rt: Runtime, ws: string, trigger: TurnTrigger, body: (t: TurnScope) => Promise<void>): Promise<void> {
  const fx = noEffects();
  const began = performance.now();
  const took = (outcome: 'committed' | 'failed') => rt.d.metrics?.botTurnSeconds.observe({ trigger, outcome }, (performance.now() - began) / 1000);
  try {
    await rt.d.db.transaction(async (tx) => {
      const t = { tx, ws, fx };
      await body(t);
      await queueEffects(rt, t);
    });
  } catch (err) {
    took('failed');
    throw err;
  }
  took('committed');
  runCommittedDelivery(rt, fx);
}

/** A session paused at a network call answers no message until the call's outcome has been recorded and walked on. */
const pausedAtCall = (session: s.BotSessionRow | null) => session?.waitingFor === 'call';

/**
 * The turn's read (readTurn, one statement), again when a turn of the conversation committed while this one
 * waited for the conversation's lock; the versions it brought are cached.
 */
async function readInbound(turns: Turns, { tx, ws }: TurnScope, data: { conversationId: string; from: string; upTo: string }) {
  const read = () => readTurn(tx, ws, data.conversationId, new Date(data.from), new Date(data.upTo), turns.cachedVersionIds(ws));
  let got = await read();
  if (got.stale) got = await read();
  turns.cacheVersions(got.versions);
  return got;
}

/** The number's live bot with its published version (cached, else read), or null. */
async function liveBotOf(turns: Turns, { tx, ws }: TurnScope, live: TurnRead['live']): Promise<LiveBot | null> {
  if (!live || live.workspaceId !== ws) return null;
  const version = await turns.versionOf(tx, ws, live.versionId);
  return version && { botId: live.botId, workspaceId: live.workspaceId, version };
}

/**
 * Applies the conversation's inbound messages after `from`, up to `upTo`, each once, in order: a member who took
 * over or wrote ends the session, an expired one ends, a message starts a session or answers the running one.
 * Bots yield to people: once a member has the conversation, an agent wrote since it was last closed, or a session
 * gave up on it (needs a person), no session starts in it; opt-out and opt-in keywords, and a contact who opted
 * out, neither start nor advance one. Reads in one statement (readTurn); the first turn uses the values it read.
 */
async function applyInbound(rt: Runtime, turns: Turns, t: TurnScope, data: { conversationId: string; from: string; upTo: string }): Promise<void> {
  const read = await readInbound(turns, t, data);
  let c = read.conversation;
  if (!c) return;
  const facts = read.facts;
  let session = facts.session;
  // Whether an agent wrote since the session started: read with the session for the first message, asked
  // again for a session started by an earlier message of this turn.
  let agentWrote: boolean | null = facts.agentWroteInSession;
  let peopleHaveIt = facts.agentWroteSinceOpen;
  // The attribute values as read; a turn may change them, so the turns after the first read them again.
  let values: TurnValues | undefined = read.values;
  for (const m of read.messages) {
    if (session && (c.assigneeMemberId || (agentWrote ?? (await s.agentWroteSince(t.tx, t.ws, c.id, session.createdAt))))) {
      c = await endSession(rt, t, session, c, 'member');
      session = null;
      peopleHaveIt = true;
    }
    agentWrote = null;
    if (facts.optedOut || isOptKeyword(m.text, facts.optOutKeywords)) continue;
    if (session && session.expiresAt.getTime() < m.createdAt.getTime()) {
      c = await endSession(rt, t, session, c, 'expired');
      session = null;
    }
    // This message and the next wait for the call: the walk resuming after it applies them (handledUntil).
    if (pausedAtCall(session)) break;
    let turn: TurnResult;
    if (!session) {
      if (peopleHaveIt || c.needsPerson) continue;
      const started = await startSession(t, c, m.text, await liveBotOf(turns, t, read.live));
      if (!started) continue;
      c = { ...c, assigneeBotId: started.botId };
      turn = await turns.applyTurn(t, c, started, null, m.createdAt, { handledUntil: m.createdAt, fresh: true, values });
    } else {
      turn = await turns.applyTurn(t, c, session, answerOf(m), m.createdAt, { handledUntil: m.createdAt, values });
    }
    values = undefined;
    c = turn.c;
    session = turn.session;
    // A session that ended here gave the conversation to a member or to people: no other starts in this turn.
    if (!session && (c.assigneeMemberId || c.needsPerson)) peopleHaveIt = true;
  }
}

/** A handoff to the bot from live chat: a session at Start, unless the bot no longer has the conversation. */
async function startAssigned(rt: Runtime, turns: Turns, t: TurnScope, data: { conversationId: string; botId: string }): Promise<void> {
  const { tx, ws } = t;
  const c = await s.lockConversation(tx, ws, data.conversationId);
  if (!c || c.assigneeBotId !== data.botId || c.assigneeMemberId || !c.whatsappAccountId) return;
  const facts = await s.turnFacts(tx, ws, c);
  if (facts.session) return;
  if (facts.optedOut) {
    rt.log.info({ conversationId: c.id, botId: data.botId }, 'conversation handed to a bot, but the contact opted out; no session');
    return;
  }
  const live = await v.liveBotOfAccount(tx, c.whatsappAccountId);
  if (!live || live.bot.id !== data.botId || live.bot.workspaceId !== ws) {
    rt.log.warn({ conversationId: c.id, botId: data.botId }, 'conversation handed to a bot that is no longer live on its number; no session');
    return;
  }
  // The messages before the handoff are not answers: the session has handled them.
  const now = new Date();
  const session = sessionAtStart(ws, c, { botId: live.bot.id, workspaceId: live.bot.workspaceId, version: live.version }, now);
  await turns.applyTurn(t, c, session, null, now, { fresh: true });
}

/** A due time: the session's expiry, or the waiting node's no-answer edge, if nothing happened since. */
async function applyTimeout(rt: Runtime, turns: Turns, t: TurnScope, data: { sessionId: string; step: number; kind: 'noAnswer' | 'expire' }): Promise<void> {
  const { tx, ws } = t;
  const first = await s.sessionById(tx, ws, data.sessionId);
  if (!first) return;
  const c = await s.lockConversation(tx, ws, first.conversationId);
  const session = await s.sessionById(tx, ws, data.sessionId);
  if (!c || !session || session.status !== 'active') return;
  if (data.kind === 'expire') {
    // One expiry job per session, whatever the step: turns push the expiry later without requeuing it, so
    // it ends the session if due, or queues itself again for the expiry as it now stands.
    if (session.expiresAt.getTime() <= Date.now() + 1000) await endSession(rt, t, session, c, 'expired');
    else await scheduleExpiry(rt, tx, ws, session, session.expiresAt);
    return;
  }
  if (session.step !== data.step) return;
  // The reminder goes only if nobody wrote since: an agent who wrote takes over; a customer's message not yet
  // applied is its turn's to answer.
  const wrote = await s.wroteSince(tx, ws, c.id, session.createdAt, session.handledUntil ?? session.createdAt);
  if (wrote.agent || c.assigneeMemberId) {
    await endSession(rt, t, session, c, 'member');
    return;
  }
  if (wrote.customer) return;
  await turns.applyTurn(t, c, session, { type: 'noAnswer' }, new Date());
}

/**
 * The record step after a call: if the session still waits at that call (not ended, not moved on by a duplicate
 * job), the walk resumes at the node with the recorded outcome, then the customer's messages that came meanwhile
 * are applied in order.
 */
async function resumeAfterCall(rt: Runtime, turns: Turns, t: TurnScope, data: CallJob): Promise<void> {
  const { tx, ws } = t;
  const first = await s.sessionById(tx, ws, data.sessionId);
  if (!first) return;
  const c = await s.lockConversation(tx, ws, first.conversationId);
  const session = await s.sessionById(tx, ws, data.sessionId);
  if (!c || !session || session.status !== 'active' || !pausedAtCall(session) || data.key !== `bot:${session.id}:${session.step}:0`) return;
  const turn = await turns.applyTurn(t, c, session, null, new Date());
  if (!turn.session || pausedAtCall(turn.session)) return;
  await applyInbound(rt, turns, t, { conversationId: c.id, from: (turn.session.handledUntil ?? turn.session.createdAt).toISOString(), upTo: new Date().toISOString() });
}

/** A bot send that failed for good: the session ends (failed), the conversation is handed to people. */
async function endOnFailedSend(rt: Runtime, t: TurnScope, sessionId: string, reason: string): Promise<void> {
  const { tx, ws } = t;
  const first = await s.sessionById(tx, ws, sessionId);
  if (!first || first.status !== 'active') return;
  const c = await s.lockConversation(tx, ws, first.conversationId);
  const session = await s.sessionById(tx, ws, sessionId);
  if (!c || !session || session.status !== 'active') return;
  rt.log.warn({ sessionId, reason }, 'a bot message could not be sent: the session ends and the rest of its turn is not sent');
  await endSession(rt, t, session, c, 'failed');
}

export function botSessionRuntime(d: BotRuntimeDeps, outbound: Pick<Outbound, 'send'>) {
  const rt: Runtime = { d, log: d.log.child({ area: 'bots' }) };
  const turns = sessionTurns(rt);
  const deliver = sessionDelivery(outbound, (ws, sessionId, reason) => inTurn(rt, ws, 'failed_send', (t) => endOnFailedSend(rt, t, sessionId, reason)));

  return {
    /** `bots.turn`: applies the conversation's inbound messages after `from`, up to `upTo`, each once, in order. */
    onInbound: (data: { workspaceId: string; conversationId: string; from: string; upTo: string }): Promise<void> =>
      inTurn(rt, data.workspaceId, 'inbound', (t) => applyInbound(rt, turns, t, data)),

    /**
     * `bots.assigned`: an agent handed the conversation to a bot from live chat. Starts a session at Start of the
     * bot's published version (its first messages go out at once); the messages before the handoff are not
     * answers. Nothing when the conversation is no longer the bot's, a session runs already, or the bot stopped
     * being live on the conversation's number.
     */
    onAssigned: (data: { workspaceId: string; conversationId: string; botId: string }): Promise<void> =>
      inTurn(rt, data.workspaceId, 'assigned', (t) => startAssigned(rt, turns, t, data)),

    /** `bots.timeout`: the waiting node's no-answer edge, or the session's expiry, if nothing happened since. */
    onTimeout: (data: { workspaceId: string; sessionId: string; step: number; kind: 'noAnswer' | 'expire' }): Promise<void> =>
      inTurn(rt, data.workspaceId, 'timeout', (t) => applyTimeout(rt, turns, t, data)),

    /** `bots.call`: the HTTP call a walk paused at, outside any transaction, then the walk resumed in its own. */
    onCall: async (data: CallJob): Promise<void> => {
      if (await makeRecordedCall(rt, data)) await inTurn(rt, data.workspaceId, 'call', (t) => resumeAfterCall(rt, turns, t, data));
    },

    /** `bots.deliver`: the durable path of a turn's sends; a send failing for good ends its session. */
    deliver: (data: { workspaceId: string; requests: OutboundRequest[] }, job?: JobInfo) => deliver(data, (job?.retryCount ?? 0) >= deliverRetryLimit),

    /** `bots.email`: a SendEmail node's mail through the mailer (SMTP_URL), once under its key. */
    email: (mail: KeyedBotMail & { workspaceId: string }) => sendBotMail(d, mail),
  };
}
export type BotSessionRuntime = ReturnType<typeof botSessionRuntime>;
