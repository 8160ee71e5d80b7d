/**
 * One turn of a live session (its start, an answer, a timeout, or the resumption after a call): the walker runs
 * the session's published version behind the live seam (sends and e-mails collected for the commit, a handoff
 * remembered, an HTTP call answered from its record or else recorded for after the commit, where the walk
 * pauses), then the turn's state, the attributes it collected, its due times and its pending call are saved in
 * the turn's transaction. No network call runs inside it.
 */
import type { BotPreviewAnswer, BotRfInstance } from '../../shared';
import type { Executor } from '../db/client';
import * as calls from '../repositories/bot-calls';
import * as s from '../repositories/bot-sessions';
import * as v from '../repositories/bot-versions';
import type { TurnValues } from '../repositories/bot-turn-read';
import * as r from '../repositories/resources';
import type { AttributeInfo, BotEnv, BotMessage, HttpCall, HttpOutcome, RunState } from './executor-contract';
import type { Runtime, TurnScope } from './session-context';
import { endSession } from './session-end';
import { toContent } from './session-messages';
import { scheduleExpiry, scheduleNoAnswer } from './session-timers';
import { idleMinutesOf, noAnswerMinutesOf, runTurn } from './walker';

const DAY_MS = 24 * 3600_000;

/** The conversation as it stands after the turn, and the session (null when it ended). */
export interface TurnResult {
  c: s.ConversationRow;
  session: s.BotSessionRow | null;
}

/**
 * Published versions by id: immutable once published (a new deploy is a new row), so cached without expiry,
 * bounded (oldest dropped first). Saves the canvas's transfer and JSON decoding on every turn; the turn's read
 * names the ids it has, so it brings only the versions missing here.
 */
function versionCache() {
  const versions = new Map<string, v.BotVersionRow>();
  const put = (row: v.BotVersionRow) => {
    const key = `${row.workspaceId}:${row.id}`;
    versions.delete(key);
    if (versions.size >= 500) versions.delete(versions.keys().next().value!);
    versions.set(key, row);
  };
  return {
    put,
    /** The workspace's most recently used versions (at most 16: a read naming more would cost more than it saves). */
    idsOf(ws: string): string[] {
      const ids = [...versions.values()].filter((row) => row.workspaceId === ws).map((row) => row.id);
      return ids.slice(-16);
    },
    async get(tx: Executor, ws: string, versionId: string) {
      const hit = versions.get(`${ws}:${versionId}`);
      if (hit) return hit;
      const row = await v.versionOfSession(tx, ws, versionId);
      if (row) put(row);
      return row;
    },
  };
}

/**
 * The workspace's attributes and the values known before the session's answers (the contact's and the
 * conversation's, by name). Attributes can be renamed or deleted at any time, so they are read with the values
 * (by the turn's read, or in one statement) rather than cached.
 */
function contextOf(ctx: TurnValues) {
  const attributes = new Map<string, AttributeInfo>(ctx.attributes.map((a) => [a.id, { id: a.id, name: a.name, format: a.format as AttributeInfo['format'], type: a.type as AttributeInfo['type'] }]));
  const known: Record<string, string> = {};
  for (const [k, val] of Object.entries(ctx.contact)) if (val !== null && val !== undefined) known[k] = String(val);
  return { attributes, known: { ...known, ...ctx.conversation } };
}

/** How a turn runs: `fresh`, a session not stored yet (the turn inserts it); `values`, read already by the turn. */
interface TurnOptions {
  /** The last inbound message the turn handles. */
  handledUntil?: Date;
  fresh?: boolean;
  values?: TurnValues;
}

/** The HTTP call a walk paused at: recorded in the turn, made after it committed. */
interface PendingCall {
  key: string;
  nodeId: string;
  step: number;
  request: HttpCall;
}

/**
 * The seam for a live session: sends and e-mails are collected for the commit, a handoff is remembered, an HTTP
 * call is answered from its record (a turn run again, or the walk resuming after the call) or else remembered as
 * the call to make once the turn has committed.
 */
function liveEnv(rt: Runtime, { tx, ws, fx }: TurnScope, session: s.BotSessionRow, attributes: Map<string, AttributeInfo>, known: Record<string, string>) {
  const handoff: { memberId: string | null; message: string } = { memberId: null, message: '' };
  const pending: { call: PendingCall | null } = { call: null };
  const keyOf = (key: string) => `bot:${session.id}:${key}`;
  const push = (key: string, m: BotMessage) => {
    const content = toContent(m, session.id);
    if (!content) return;
    fx.requests.push({ workspaceId: ws, actor: { type: 'bot', botId: session.botId }, target: { conversationId: session.conversationId }, content, idempotencyKey: keyOf(key) });
  };
  const env: BotEnv = {
    attributes,
    known,
    send: (_n, key, m) => push(key, m),
    email: (_n, key, mail) => fx.emails.push({ ...mail, sessionId: session.id, key: keyOf(key) }),
    handoff: (nodeId, memberId, text, key) => {
      if (text.trim()) push(key, { nodeId, type: 'text', text, header: null, footer: null, mediaUrl: null, filename: null, buttons: [], actionLabel: null });
      handoff.memberId = memberId;
      handoff.message = text.trim();
    },
    // The key names the call: a recorded outcome is reused, never asked again; an unrecorded one pauses the walk.
    http: async (call, at) => {
      const recorded = await calls.callByKey(tx, ws, keyOf(at.key));
      if (recorded?.outcome) return recorded.outcome as HttpOutcome;
      pending.call = { key: keyOf(at.key), nodeId: at.nodeId, step: Number(at.key.split(':')[0]), request: call };
      return null;
    },
    note: (nodeId, text) => rt.log.info({ sessionId: session.id, nodeId }, text),
  };
  return { env, handoff, pending };
}

/** Records the call the walk paused at, and its `bots.call` job, in the turn's transaction. */
async function recordPendingCall(rt: Runtime, { tx, ws, fx }: TurnScope, session: s.BotSessionRow, call: PendingCall, guard: { walked: number; httpCalls: number }) {
  await calls.recordCall(tx, { workspaceId: ws, sessionId: session.id, key: call.key, kind: 'http', nodeId: call.nodeId, step: call.step, request: call.request, guard });
  const data = { workspaceId: ws, sessionId: session.id, key: call.key };
  const id = await rt.d.jobs.send('bots.call', data, { tx, runInSender: true });
  if (id) fx.calls.push({ id, data });
}

/** Writes what the turn collected: contact-type attributes on the contact, conversation-type on the conversation. */
async function storeCollected({ tx, ws, fx }: TurnScope, c: s.ConversationRow, attributes: Map<string, AttributeInfo>, before: Record<string, string>, after: Record<string, string>) {
  const contactValues: Record<string, string> = {};
  const conversationValues: Record<string, string> = {};
  for (const [id, value] of Object.entries(after)) {
    const a = attributes.get(id);
    if (!a || before[id] === value) continue;
    (a.type === 'conversation' ? conversationValues : contactValues)[a.name] = value;
  }
  await s.mergeConversationAttributes(tx, ws, c.id, conversationValues);
  const contact = await s.mergeContactAttributes(tx, ws, c.contactId, contactValues);
  if (contact) fx.events.push({ type: 'contact.updated', payload: { contact: r.toContact(contact) } });
}

/** The stored columns of a session (a fresh one is inserted with the state its first turn reached). */
function sessionValues(session: s.BotSessionRow) {
  const { createdAt: _c, updatedAt: _u, ...values } = session;
  return values;
}

export function sessionTurns(rt: Runtime) {
  const versions = versionCache();

  /**
   * Runs one turn of a session (start, an answer, or a timeout) and saves it with its effects, with the last
   * inbound message it handled (`handledUntil`), in one statement per table. Answers the conversation as it stands
   * after the turn, and the session, or null when it ended. `fresh`: the session is new and not stored yet: the
   * turn inserts it with the state it reached, and queues its expiry job (later turns only push the expiry later,
   * which the job finds when it runs).
   */
  async function applyTurn(t: TurnScope, c: s.ConversationRow, session: s.BotSessionRow, answer: BotPreviewAnswer | null, at: Date, o: TurnOptions = {}): Promise<TurnResult> {
    const { tx, ws } = t;
    const { handledUntil, fresh = false } = o;
    const version = session.botVersionId ? await versions.get(tx, ws, session.botVersionId) : null;
    if (!version) {
      if (fresh) await s.insertSession(tx, sessionValues(session));
      return { c: await endSession(rt, t, session, c, 'failed', null, '', handledUntil), session: null };
    }
    const rf = version.rfInstance as BotRfInstance;
    const { attributes, known } = contextOf(o.values ?? (await s.turnContext(tx, ws, c.contactId, c.id)));
    const { env, handoff, pending } = liveEnv(rt, t, session, attributes, known);
    const before = (session.variables ?? {}) as Record<string, string>;
    const state: RunState = { currentNodeId: session.currentNodeId, step: session.step, waitingFor: session.waitingFor, invalidAnswers: session.invalidAnswers, variables: before };
    const resumed = session.waitingFor === 'call' ? await calls.callByKey(tx, ws, `bot:${session.id}:${session.step}:0`) : null;
    const turn = await runTurn(rf, env, state, answer, resumed?.guard ?? undefined);
    await storeCollected(t, c, attributes, before, turn.state.variables);
    const windowEnd = (c.lastInboundAt ?? at).getTime() + DAY_MS;
    const expiresAt = new Date(Math.min(windowEnd, at.getTime() + idleMinutesOf(rf) * 60_000));
    const minutes = turn.ended ? null : noAnswerMinutesOf(rf, turn.state);
    const noAnswerAt = minutes ? new Date(at.getTime() + minutes * 60_000) : null;
    const next = {
      currentNodeId: turn.state.currentNodeId ?? session.currentNodeId,
      step: turn.state.step,
      waitingFor: turn.state.waitingFor,
      invalidAnswers: turn.state.invalidAnswers,
      variables: turn.state.variables,
      expiresAt,
      noAnswerAt,
      ...(handledUntil && { handledUntil }),
    };
    const saved = fresh ? await s.insertSession(tx, { ...sessionValues(session), ...next }) : await s.updateSession(tx, ws, session.id, next);
    if (turn.ended) return { c: await endSession(rt, t, saved ?? session, c, turn.ended, handoff.memberId, handoff.message), session: null };
    const waitingStep = { id: session.id, step: turn.state.step };
    if (fresh) await scheduleExpiry(rt, tx, ws, waitingStep, expiresAt);
    if (turn.guard && pending.call) await recordPendingCall(rt, t, session, pending.call, turn.guard);
    if (noAnswerAt) await scheduleNoAnswer(rt, tx, ws, waitingStep, noAnswerAt);
    return { c, session: saved };
  }

  return {
    applyTurn,
    /** The versions a turn's read brought (see versionCache). */
    cacheVersions: (rows: v.BotVersionRow[]) => rows.forEach(versions.put),
    cachedVersionIds: versions.idsOf,
    versionOf: versions.get,
  };
}
