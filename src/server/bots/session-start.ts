/** How a session starts: at Start of the bot's published version, the conversation assigned to the bot. */
import { randomUUID } from 'node:crypto';
import type { BotRfInstance } from '../../shared';
import * as s from '../repositories/bot-sessions';
import * as conv from '../repositories/conversations';
import type { TurnScope } from './session-context';
import { idleMinutesOf, startState, startsSession } from './walker';

/** The number's live bot and the published version a session of it runs on. */
export interface LiveBot {
  botId: string;
  workspaceId: string;
  version: { id: string; rfInstance: unknown };
}

/**
 * A new session at Start of the bot's published version, not stored yet: its first turn inserts it with the state
 * that turn reached (one write of the session instead of an insert and an update).
 */
export function sessionAtStart(ws: string, c: s.ConversationRow, live: LiveBot, handledUntil: Date | null = null): s.BotSessionRow {
  const rf = live.version.rfInstance as BotRfInstance;
  const now = new Date();
  return {
    id: randomUUID(),
    workspaceId: ws,
    botId: live.botId,
    botVersionId: live.version.id,
    conversationId: c.id,
    status: 'active',
    currentNodeId: startState(rf).currentNodeId ?? 'start',
    variables: {},
    waitingFor: null,
    expiresAt: new Date(now.getTime() + idleMinutesOf(rf) * 60_000),
    endedAt: null,
    endReason: null,
    createdAt: now,
    updatedAt: now,
    step: 0,
    invalidAnswers: 0,
    noAnswerAt: null,
    handledUntil,
  };
}

/**
 * Starts a session of the number's live bot when this message starts one: recorded as assigned to the bot by the
 * system. Answers the session, not stored yet (its first turn stores it).
 */
export async function startSession({ tx, ws, fx }: TurnScope, c: s.ConversationRow, text: string | null, live: LiveBot | null) {
  if (c.assigneeMemberId || !c.whatsappAccountId) return null;
  if (!live || live.workspaceId !== ws || !startsSession(live.version.rfInstance as BotRfInstance, text)) return null;
  const session = sessionAtStart(ws, c, live);
  const updated = await conv.updateConversation(tx, ws, c.id, { assigneeBotId: live.botId });
  await conv.insertEvent(tx, ws, c.id, { type: 'CONVERSATION_ASSIGNED', assignedByType: 'system', assignedById: null, assigneeType: 'bot', assigneeBotId: live.botId, assigneeMemberId: null });
  if (updated) fx.events.push({ type: 'conversation.updated', payload: { conversation: conv.toConversation(updated) } });
  return session;
}
