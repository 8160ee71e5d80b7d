/**
 * Live bot sessions on WhatsApp. After an inbound batch commits, a `bots.turn` job per conversation applies the
 * customer's new messages, one at a time and in order, under a lock of the conversation row (two messages racing
 * in are applied one after the other, never against the same step). A turn's state, attribute writes,
 * assignment changes, e-mails, due-time jobs (no-answer timeouts, expiry) and the turn's `bots.deliver` job commit
 * together; the sends then go out in order, run at once from memory after the commit (and by a worker if this
 * process dies, even right after the commit), every send keyed `bot:<sessionId>:<step>:<block>`, so a job run
 * twice never sends twice. An agent handing a conversation to a bot from live chat starts a session too
 * (`bots.assigned`, queued by the assignment's transaction).
 */
import type { BotPreviewAnswer, BotRfInstance } from '../../shared';
import type { OutboundContent, OutboundRequest } from '../messaging/outbound-request';
import type { Outbound } from '../messaging/outbound';
import type { Executor } from '../db/client';
import type { ServiceDeps } from '../services/context';
import * as s from '../repositories/bot-sessions';
import * as v from '../repositories/bot-versions';
import * as conv from '../repositories/conversations';
import * as r from '../repositories/resources';
import { appendEvents, type NewEvent } from '../realtime/event-log';
import { guardedFetch } from './http-node';
import { memberNames, unnamedMember } from './member-names';
import type { AttributeInfo, BotEnv, BotMessage, EndReason, RunState } from './executor-contract';
import { idleMinutesOf, noAnswerMinutesOf, runTurn, startState, startsSession } from './walker';

const DAY_MS = 24 * 3600_000;

export interface BotMail { to: string[]; cc: string[]; bcc: string[]; subject: string; text: string }
interface Effects {
  requests: OutboundRequest[];
  emails: BotMail[];
  /**
   * The turn's workspace events, appended last in its transaction: appending takes the workspace's event lock to
   * the commit, so appending early held every other writer of the workspace (the inbound store, other turns,
   * sends) for the whole turn.
   */
  events: NewEvent[];
  /** The turn's `bots.deliver` job, committed with it. */
  delivery?: { id: string; data: { workspaceId: string; requests: OutboundRequest[] } };
}

/** What a stored inbound message answers. */
function answerOf(m: { type: string; text: string | null; action: unknown }): BotPreviewAnswer {
  const a = (m.action ?? {}) as { type?: string; id?: string; response_json?: unknown };
  if (m.type === 'reply' && a.type === 'button_reply' && a.id) return { type: 'button', id: a.id };
  if (m.type === 'list' && a.type === 'list_reply' && a.id) return { type: 'listRow', id: a.id };
  if (m.type === 'flow' && a.response_json && typeof a.response_json === 'object') return { type: 'flow', response: a.response_json as Record<string, string> };
  return { type: 'text', text: m.text ?? '' };
}

/** A bot message as the outbound path takes it (null for notes, which are only logged). */
export function toContent(m: BotMessage, sessionId: string): OutboundContent | null {
  const header = m.header ? { type: 'text' as const, text: m.header } : undefined;
  const footer = m.footer ?? undefined;
  switch (m.type) {
    case 'text':
      return { type: 'text', text: m.text ?? '' };
    case 'image':
    case 'video':
    case 'document':
      return {
        type: m.type,
        media: { link: m.mediaUrl ?? '' },
        ...(m.text ? { caption: m.text } : {}),
        ...(m.type === 'document' && m.filename ? { filename: m.filename } : {}),
      };
    case 'list':
      return { type: 'list', ...(m.header ? { header: m.header } : {}), body: m.text ?? '', footer, button: m.actionLabel ?? 'Options', sections: [{ rows: m.buttons }] };
    case 'reply':
      return { type: 'buttons', header, body: m.text ?? '', footer, buttons: m.buttons };
    case 'flow':
      return { type: 'flow', header, body: m.text ?? '', footer, flowId: m.flowId, cta: m.actionLabel ?? 'Open', flowToken: sessionId, mode: 'published' };
    default:
      return null;
  }
}

export function botSessionRuntime(d: ServiceDeps, outbound: Outbound) {
  const log = d.log.child({ area: 'bots' });

  /**
   * Published versions by id: immutable once published (a new deploy is a new row), so cached without expiry,
   * bounded (oldest dropped first). Saves a statement and the canvas's JSON decoding on every turn.
   */
  const versions = new Map<string, v.BotVersionRow>();
  async function versionOf(tx: Executor, ws: string, versionId: string) {
    const key = `${ws}:${versionId}`;
    const hit = versions.get(key);
    if (hit) return hit;
    const row = await v.versionOfSession(tx, ws, versionId);
    if (row) {
      if (versions.size >= 500) versions.delete(versions.keys().next().value!);
      versions.set(key, row);
    }
    return row;
  }

  /**
   * The workspace's attributes and the values known before the session's answers (the contact's and the
   * conversation's, by name), in one statement. Attributes can be renamed or deleted at any time, so they are read
   * with the values rather than cached.
   */
  async function turnContext(tx: Executor, ws: string, c: s.ConversationRow) {
    const ctx = await s.turnContext(tx, ws, c.contactId, c.id);
    const attributes = new Map<string, AttributeInfo>(ctx.attributes.map((a) => [a.id, { id: a.id, name: a.name, format: a.format as AttributeInfo['format'], type: a.type as AttributeInfo['type'] }]));
    const known: Record<string, string> = {};
    for (const [k, val] of Object.entries(ctx.contact)) if (val !== null && val !== undefined) known[k] = String(val);
    return { attributes, known: { ...known, ...ctx.conversation } };
  }

  /** The seam for a live session: sends and e-mails are collected for the commit, a handoff is remembered. */
  function liveEnv(ws: string, session: s.BotSessionRow, attributes: Map<string, AttributeInfo>, known: Record<string, string>, fx: Effects) {
    const handoff: { memberId: string | null; message: string } = { memberId: null, message: '' };
    const push = (key: string, m: BotMessage) => {
      const content = toContent(m, session.id);
      if (!content) return;
      fx.requests.push({ workspaceId: ws, actor: { type: 'bot', botId: session.botId }, target: { conversationId: session.conversationId }, content, idempotencyKey: `bot:${session.id}:${key}` });
    };
    const env: BotEnv = {
      attributes,
      known,
      send: (_n, key, m) => push(key, m),
      email: (_n, _k, mail) => fx.emails.push(mail),
      handoff: (nodeId, memberId, text, key) => {
        if (text.trim()) push(key, { nodeId, type: 'text', text, header: null, footer: null, mediaUrl: null, filename: null, buttons: [], actionLabel: null });
        handoff.memberId = memberId;
        handoff.message = text.trim();
      },
      http: guardedFetch,
      note: (nodeId, text) => log.info({ sessionId: session.id, nodeId }, text),
    };
    return { env, handoff };
  }

  /** Writes what the turn collected: contact-type attributes on the contact, conversation-type on the conversation. */
  async function storeCollected(tx: Executor, ws: string, c: s.ConversationRow, attributes: Map<string, AttributeInfo>, before: Record<string, string>, after: Record<string, string>, fx: Effects) {
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

  /** The `bot.handoff` event: the member (by name) and what the bot told the customer; their desktop app notifies. */
  async function handoffEvent(tx: Executor, ws: string, c: s.ConversationRow, botId: string, memberId: string, message: string, fx: Effects) {
    const [names, bot, contact] = await Promise.all([memberNames(d, tx, ws, [memberId]), r.bots.get(tx, ws, botId), r.contacts.get(tx, ws, c.contactId)]);
    fx.events.push({
      type: 'bot.handoff',
      payload: {
        conversationId: c.id,
        memberId,
        memberName: names.get(memberId) ?? unnamedMember,
        botId,
        botName: bot?.title ?? 'Bot',
        contact: { name: contact?.name ?? null, phoneNumber: contact?.phoneNumber ?? '' },
        message,
      },
    });
  }

  /** Gives the conversation to a member (handoff) or back to nobody (session over), with its events. */
  async function reassign(tx: Executor, ws: string, c: s.ConversationRow, botId: string, fx: Effects, memberId: string | null, message = '') {
    const updated = await conv.updateConversation(tx, ws, c.id, { assigneeMemberId: memberId ?? c.assigneeMemberId, assigneeBotId: null });
    if (memberId) {
      await conv.insertEvent(tx, ws, c.id, { type: 'CONVERSATION_ASSIGNED', assignedByType: 'bot', assignedById: botId, assigneeType: 'member', assigneeBotId: null, assigneeMemberId: memberId });
      // Before conversation.updated: a notifier taking both at once tells of the handoff, not a bare assignment.
      await handoffEvent(tx, ws, c, botId, memberId, message, fx);
    }
    if (updated) fx.events.push({ type: 'conversation.updated', payload: { conversation: conv.toConversation(updated) } });
    return updated ?? c;
  }

  /** A new session at Start of the bot's published version. */
  function insertAtStart(tx: Executor, ws: string, c: s.ConversationRow, live: { bot: { id: string }; version: { id: string; rfInstance: unknown } }, handledUntil: Date | null = null) {
    const rf = live.version.rfInstance as BotRfInstance;
    return s.insertSession(tx, {
      workspaceId: ws,
      botId: live.bot.id,
      botVersionId: live.version.id,
      conversationId: c.id,
      currentNodeId: startState(rf).currentNodeId ?? 'start',
      expiresAt: new Date(Date.now() + idleMinutesOf(rf) * 60_000),
      handledUntil,
    });
  }

  /** Starts a session of the account's live bot: recorded as assigned to the bot by the system. */
  async function startSession(tx: Executor, ws: string, c: s.ConversationRow, text: string | null, fx: Effects) {
    if (c.assigneeMemberId || !c.whatsappAccountId) return null;
    const live = await v.liveBotOfAccount(tx, c.whatsappAccountId);
    if (!live || live.bot.workspaceId !== ws || !startsSession(live.version.rfInstance as BotRfInstance, text)) return null;
    const session = await insertAtStart(tx, ws, c, live);
    const updated = await conv.updateConversation(tx, ws, c.id, { assigneeBotId: live.bot.id });
    await conv.insertEvent(tx, ws, c.id, { type: 'CONVERSATION_ASSIGNED', assignedByType: 'system', assignedById: null, assigneeType: 'bot', assigneeBotId: live.bot.id, assigneeMemberId: null });
    if (updated) fx.events.push({ type: 'conversation.updated', payload: { conversation: conv.toConversation(updated) } });
    return session;
  }

  async function endSession(tx: Executor, ws: string, session: s.BotSessionRow, c: s.ConversationRow, reason: EndReason, fx: Effects, memberId: string | null = null, message = '', handledUntil?: Date) {
    await s.updateSession(tx, ws, session.id, { status: 'ended', endReason: reason, endedAt: new Date(), waitingFor: null, noAnswerAt: null, ...(handledUntil && { handledUntil }) });
    if (reason === 'failed') log.warn({ sessionId: session.id }, 'bot session ended without finishing; the conversation waits for a human');
    if (c.assigneeBotId === session.botId || memberId) return reassign(tx, ws, c, session.botId, fx, memberId, message);
    return c;
  }

  /** The session's expiry job: one per session (a waiting one absorbs another send), rescheduling itself when it finds the expiry moved. */
  const scheduleExpiry = (tx: Executor, ws: string, session: { id: string; step: number }, at: Date) =>
    d.jobs.send('bots.timeout', { workspaceId: ws, sessionId: session.id, step: session.step, kind: 'expire' }, { tx, startAfter: at, singletonKey: `bots.expire:${session.id}` });

  /**
   * Runs one turn of a session (start, an answer, or a timeout) and saves it with its effects, with the last
   * inbound message it handled (`handledUntil`). Answers the conversation as it stands after the turn, and the
   * session, or null when it ended. `fresh`: the session was just inserted (its expiry job is queued here; later
   * turns only push the expiry later, which the job finds when it runs).
   */
  async function applyTurn(tx: Executor, ws: string, c: s.ConversationRow, session: s.BotSessionRow, answer: BotPreviewAnswer | null, at: Date, fx: Effects, handledUntil?: Date, fresh = false): Promise<{ c: s.ConversationRow; session: s.BotSessionRow | null }> {
    const version = session.botVersionId ? await versionOf(tx, ws, session.botVersionId) : null;
    if (!version) return { c: await endSession(tx, ws, session, c, 'failed', fx, null, '', handledUntil), session: null };
    const rf = version.rfInstance as BotRfInstance;
    const { attributes, known } = await turnContext(tx, ws, c);
    const { env, handoff } = liveEnv(ws, session, attributes, known, fx);
    const before = (session.variables ?? {}) as Record<string, string>;
    const state: RunState = { currentNodeId: session.currentNodeId, step: session.step, waitingFor: session.waitingFor, invalidAnswers: session.invalidAnswers, variables: before };
    const turn = await runTurn(rf, env, state, answer);
    await storeCollected(tx, ws, c, attributes, before, turn.state.variables, fx);
    const windowEnd = (c.lastInboundAt ?? at).getTime() + DAY_MS;
    const expiresAt = new Date(Math.min(windowEnd, at.getTime() + idleMinutesOf(rf) * 60_000));
    const minutes = turn.ended ? null : noAnswerMinutesOf(rf, turn.state);
    const noAnswerAt = minutes ? new Date(at.getTime() + minutes * 60_000) : null;
    const saved = await s.updateSession(tx, ws, session.id, {
      currentNodeId: turn.state.currentNodeId ?? session.currentNodeId,
      step: turn.state.step,
      waitingFor: turn.state.waitingFor,
      invalidAnswers: turn.state.invalidAnswers,
      variables: turn.state.variables,
      expiresAt,
      noAnswerAt,
      ...(handledUntil && { handledUntil }),
    });
    if (turn.ended) return { c: await endSession(tx, ws, session, c, turn.ended, fx, handoff.memberId, handoff.message), session: null };
    if (fresh) await scheduleExpiry(tx, ws, { id: session.id, step: turn.state.step }, expiresAt);
    if (noAnswerAt) await d.jobs.send('bots.timeout', { workspaceId: ws, sessionId: session.id, step: turn.state.step, kind: 'noAnswer' }, { tx, startAfter: noAnswerAt });
    return { c, session: saved };
  }

  /**
   * Queues the turn's e-mails and its sends in its transaction: the sends as one `bots.deliver` job that commits
   * with the turn (no gap between the commit and the enqueue), run from memory by `afterCommit`, or by any worker
   * after runInSenderSeconds if this process dies first.
   */
  async function queueEffects(tx: Executor, ws: string, fx: Effects) {
    for (const mail of fx.emails) await d.jobs.send('bots.email', { workspaceId: ws, ...mail }, { tx });
    if (fx.requests.length > 0) {
      const data = { workspaceId: ws, requests: fx.requests };
      const id = await d.jobs.send('bots.deliver', data, { tx, runInSender: true });
      if (id) fx.delivery = { id, data };
    }
    await appendEvents(tx, ws, fx.events);
  }

  /** After the turn committed: its sends go out now, from memory. */
  function afterCommit(fx: Effects) {
    if (fx.delivery) d.jobs.runCommitted('bots.deliver', fx.delivery.id, fx.delivery.data);
  }

  /**
   * Sends in order, each once (a replayed key sends nothing); stops at the first failure, for the job to retry.
   * Deliveries of one conversation run one after the other in this process (turns' jobs run concurrently).
   */
  const chains = new Map<string, Promise<void>>();
  async function deliver(requests: OutboundRequest[]): Promise<void> {
    const key = requests[0]?.target && 'conversationId' in requests[0].target ? requests[0].target.conversationId : '';
    const previous = chains.get(key) ?? Promise.resolve();
    const mine = previous.catch(() => undefined).then(async () => {
      for (const req of requests) await outbound.send(req);
    });
    chains.set(key, mine);
    try {
      await mine;
    } finally {
      if (chains.get(key) === mine) chains.delete(key);
    }
  }

  return {
    /** `bots.turn`: applies the conversation's inbound messages after `from`, up to `upTo`, each once, in order. */
    async onInbound(data: { workspaceId: string; conversationId: string; from: string; upTo: string }): Promise<void> {
      const ws = data.workspaceId;
      const fx: Effects = { requests: [], emails: [], events: [] };
      await d.db.transaction(async (tx) => {
        let c = await s.lockConversation(tx, ws, data.conversationId);
        if (!c) return;
        const live = await s.liveSessionAndAgentOf(tx, ws, c.id);
        let session = live?.session ?? null;
        // Whether an agent wrote since the session started: read with the session for the first message, asked
        // again for a session started by an earlier message of this turn.
        let agentWrote: boolean | null = live?.agentWrote ?? null;
        const after = session?.handledUntil ?? new Date(new Date(data.from).getTime() - 1);
        for (const m of await s.inboundBetween(tx, ws, c.id, after, new Date(data.upTo))) {
          if (session && (c.assigneeMemberId || (agentWrote ?? (await s.agentWroteSince(tx, ws, c.id, session.createdAt))))) {
            c = await endSession(tx, ws, session, c, 'member', fx);
            session = null;
          }
          agentWrote = null;
          if (session && session.expiresAt.getTime() < m.createdAt.getTime()) {
            c = await endSession(tx, ws, session, c, 'expired', fx);
            session = null;
          }
          let turn: { c: s.ConversationRow; session: s.BotSessionRow | null };
          if (!session) {
            const started = await startSession(tx, ws, c, m.text, fx);
            if (!started) continue;
            c = { ...c, assigneeBotId: started.botId };
            turn = await applyTurn(tx, ws, c, started, null, m.createdAt, fx, m.createdAt, true);
          } else {
            turn = await applyTurn(tx, ws, c, session, answerOf(m), m.createdAt, fx, m.createdAt);
          }
          c = turn.c;
          session = turn.session;
        }
        await queueEffects(tx, ws, fx);
      });
      afterCommit(fx);
    },

    /**
     * `bots.assigned`: an agent handed the conversation to a bot from live chat. Starts a session at Start of the
     * bot's published version (its first messages go out at once); the messages before the handoff are not
     * answers. Nothing when the conversation is no longer the bot's, a session runs already, or the bot stopped
     * being live on the conversation's number.
     */
    async onAssigned(data: { workspaceId: string; conversationId: string; botId: string }): Promise<void> {
      const ws = data.workspaceId;
      const fx: Effects = { requests: [], emails: [], events: [] };
      await d.db.transaction(async (tx) => {
        const c = await s.lockConversation(tx, ws, data.conversationId);
        if (!c || c.assigneeBotId !== data.botId || c.assigneeMemberId || !c.whatsappAccountId) return;
        if (await s.liveSessionOf(tx, ws, c.id)) return;
        const live = await v.liveBotOfAccount(tx, c.whatsappAccountId);
        if (!live || live.bot.id !== data.botId || live.bot.workspaceId !== ws) {
          log.warn({ conversationId: c.id, botId: data.botId }, 'conversation handed to a bot that is no longer live on its number; no session');
          return;
        }
        const now = new Date();
        const session = await insertAtStart(tx, ws, c, live, now);
        await applyTurn(tx, ws, c, session, null, now, fx, undefined, true);
        await queueEffects(tx, ws, fx);
      });
      afterCommit(fx);
    },

    /** `bots.timeout`: the waiting node's no-answer edge, or the session's expiry, if nothing happened since. */
    async onTimeout(data: { workspaceId: string; sessionId: string; step: number; kind: 'noAnswer' | 'expire' }): Promise<void> {
      const ws = data.workspaceId;
      const fx: Effects = { requests: [], emails: [], events: [] };
      await d.db.transaction(async (tx) => {
        const first = await s.sessionById(tx, ws, data.sessionId);
        if (!first) return;
        const c = await s.lockConversation(tx, ws, first.conversationId);
        const session = await s.sessionById(tx, ws, data.sessionId);
        if (!c || !session || session.status !== 'active') return;
        if (data.kind === 'expire') {
          // One expiry job per session, whatever the step: turns push the expiry later without requeuing it, so
          // it ends the session if due, or queues itself again for the expiry as it now stands.
          if (session.expiresAt.getTime() <= Date.now() + 1000) {
            await endSession(tx, ws, session, c, 'expired', fx);
            await appendEvents(tx, ws, fx.events);
          } else await scheduleExpiry(tx, ws, session, session.expiresAt);
          return;
        }
        if (session.step !== data.step) return;
        await applyTurn(tx, ws, c, session, { type: 'noAnswer' }, new Date(), fx);
        await queueEffects(tx, ws, fx);
      });
      afterCommit(fx);
    },

    /** `bots.deliver`: the durable path of a turn's sends. */
    deliver: (data: { requests: OutboundRequest[] }) => deliver(data.requests),

    /** `bots.email`: a SendEmail node's mail through the mailer (SMTP_URL). */
    email: (mail: BotMail) =>
      d.mailer.send({ to: mail.to.join(', '), cc: mail.cc.length ? mail.cc.join(', ') : undefined, bcc: mail.bcc.length ? mail.bcc.join(', ') : undefined, subject: mail.subject, text: mail.text }),
  };
}
export type BotSessionRuntime = ReturnType<typeof botSessionRuntime>;
