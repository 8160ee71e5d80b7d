/** How a session starts: at Start of the bot's published version, the conversation assigned to the bot. */
import type { BotRfInstance } from '../../shared';
import type { Executor } from '../db/client';
import * as s from '../repositories/bot-sessions';
import * as v from '../repositories/bot-versions';
import * as conv from '../repositories/conversations';
import type { TurnScope } from './session-context';
import { idleMinutesOf, startState, startsSession } from './walker';

/** A new session at Start of the bot's published version. */
export function insertAtStart(tx: Executor, ws: string, c: s.ConversationRow, live: { bot: { id: string }; version: { id: string; rfInstance: unknown } }, handledUntil: Date | null = null) {
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

/** Starts a session of the account's live bot when this message starts one: recorded as assigned to the bot by the system. */
export async function startSession({ tx, ws, fx }: TurnScope, c: s.ConversationRow, text: string | null) {
  if (c.assigneeMemberId || !c.whatsappAccountId) return null;
  const live = await v.liveBotOfAccount(tx, c.whatsappAccountId);
  if (!live || live.bot.workspaceId !== ws || !startsSession(live.version.rfInstance as BotRfInstance, text)) return null;
  const session = await insertAtStart(tx, ws, c, live);
  const updated = await conv.updateConversation(tx, ws, c.id, { assigneeBotId: live.bot.id });
  await conv.insertEvent(tx, ws, c.id, { type: 'CONVERSATION_ASSIGNED', assignedByType: 'system', assignedById: null, assigneeType: 'bot', assigneeBotId: live.bot.id, assigneeMemberId: null });
  if (updated) fx.events.push({ type: 'conversation.updated', payload: { conversation: conv.toConversation(updated) } });
  return session;
}
