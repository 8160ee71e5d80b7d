/**
 * How a session ends: recorded with its reason, and the conversation handed to a member or back to nobody; a
 * session that ends without finishing (failed) leaves it to people, marked "needs a person".
 */
import * as s from '../repositories/bot-sessions';
import * as conv from '../repositories/conversations';
import * as r from '../repositories/resources';
import type { EndReason } from './executor-contract';
import { memberNames, unnamedMember } from './member-names';
import type { Runtime, TurnScope } from './session-context';

/** The `bot.handoff` event: the member (by name) and what the bot told the customer; their desktop app notifies. */
async function handoffEvent(rt: Runtime, { tx, ws, fx }: TurnScope, c: s.ConversationRow, botId: string, memberId: string, message: string) {
  // One after another: a transaction's client runs one statement at a time (pg deprecates queueing them).
  const names = await memberNames(rt.d, tx, ws, [memberId]);
  const bot = await r.bots.get(tx, ws, botId);
  const contact = await r.contacts.get(tx, ws, c.contactId);
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

/** The `bot.needsPerson` event: the bot gave up, the conversation is nobody's; every agent's desktop app notifies. */
async function needsPersonEvent({ tx, ws, fx }: TurnScope, c: s.ConversationRow, botId: string) {
  const bot = await r.bots.get(tx, ws, botId);
  const contact = await r.contacts.get(tx, ws, c.contactId);
  fx.events.push({
    type: 'bot.needsPerson',
    payload: { conversationId: c.id, botId, botName: bot?.title ?? 'Bot', contact: { name: contact?.name ?? null, phoneNumber: contact?.phoneNumber ?? '' } },
  });
}

/**
 * Gives the conversation to a member (handoff) or back to nobody (session over), with its events. `needsPerson`:
 * the session gave up, so the conversation is marked for people and never goes back to a bot by itself.
 */
async function reassign(rt: Runtime, t: TurnScope, c: s.ConversationRow, botId: string, memberId: string | null, message = '', needsPerson = false) {
  const { tx, ws, fx } = t;
  const updated = await conv.updateConversation(tx, ws, c.id, { assigneeMemberId: memberId ?? c.assigneeMemberId, assigneeBotId: null, ...(needsPerson && { needsPerson: true }) });
  if (needsPerson) await needsPersonEvent(t, c, botId);
  if (memberId) {
    await conv.insertEvent(tx, ws, c.id, { type: 'CONVERSATION_ASSIGNED', assignedByType: 'bot', assignedById: botId, assigneeType: 'member', assigneeBotId: null, assigneeMemberId: memberId });
    // Before conversation.updated: a notifier taking both at once tells of the handoff, not a bare assignment.
    await handoffEvent(rt, t, c, botId, memberId, message);
  }
  if (updated) fx.events.push({ type: 'conversation.updated', payload: { conversation: conv.toConversation(updated) } });
  return updated ?? c;
}

/** Ends the session; answers the conversation as it stands after (reassigned when the bot had it, or handed over). */
export async function endSession(rt: Runtime, t: TurnScope, session: s.BotSessionRow, c: s.ConversationRow, reason: EndReason, memberId: string | null = null, message = '', handledUntil?: Date) {
  await s.updateSession(t.tx, t.ws, session.id, { status: 'ended', endReason: reason, endedAt: new Date(), waitingFor: null, noAnswerAt: null, ...(handledUntil && { handledUntil }) });
  if (reason === 'failed') rt.log.warn({ sessionId: session.id }, 'bot session ended without finishing; the conversation waits for a person');
  if (c.assigneeBotId === session.botId || memberId) return reassign(rt, t, c, session.botId, memberId, message, reason === 'failed' && !memberId && !c.assigneeMemberId);
  return c;
}
