/**
 * Presence and collision: a member's "viewing / typing / left" in a conversation goes to every
 * stream of the workspace, in every server process (PostgreSQL NOTIFY on the event channel), and is never
 * stored. While an agent types, the customer sees WhatsApp's typing indicator (sent with the read receipt of
 * their last message), at most once per `typingIndicatorThrottleMs` per conversation and process, and only
 * inside the 24-hour window (outside it WhatsApp refuses it).
 */
import type { PresenceSignal, PresenceState } from '../../shared/schemas/presence';
import { typingIndicatorThrottleMs } from '../../shared/schemas/presence';
import { customerWindow } from '../../shared/customer-window';
import type { WorkspaceContext } from './caller';
import * as ch from '../repositories/channel';
import { notifyPresence } from '../repositories/presence';
import type { ServiceDeps } from './context';

interface TypingChannel {
  showTyping(input: { workspaceId: string; conversationId: string }): Promise<void>;
}

export function presenceService(d: ServiceDeps, channel: TypingChannel, now: () => number = Date.now) {
  const lastTyping = new Map<string, number>();

  /** Whether this process should tell WhatsApp again now (and remembers that it did). */
  const typingDue = (conversationId: string): boolean => {
    const t = now();
    if (t - (lastTyping.get(conversationId) ?? -Infinity) < typingIndicatorThrottleMs) return false;
    if (lastTyping.size > 10_000) for (const [id, at] of lastTyping) if (t - at >= typingIndicatorThrottleMs) lastTyping.delete(id);
    lastTyping.set(conversationId, t);
    return true;
  };

  async function customerTypingIndicator(workspaceId: string, conversationId: string) {
    const conversation = await ch.conversation(d.db.db, workspaceId, conversationId);
    if (!conversation || !customerWindow(conversation.lastInboundAt).open) return;
    try {
      await channel.showTyping({ workspaceId, conversationId });
    } catch (err) {
      // A typing indicator is a courtesy: a refusal is logged, never the agent's problem.
      d.log.warn({ err, conversationId }, 'WhatsApp typing indicator not shown');
    }
  }

  return {
    async signal(ctx: WorkspaceContext, conversationId: string, state: PresenceState) {
      const signal: PresenceSignal = { workspaceId: ctx.workspaceId, conversationId, memberId: ctx.caller.member.id, state, at: new Date(now()).toISOString() };
      await notifyPresence(d.db.db, ctx.workspaceId, JSON.stringify(signal));
      if (state === 'typing' && typingDue(conversationId)) void customerTypingIndicator(ctx.workspaceId, conversationId);
      return { success: true as const };
    },
  };
}
