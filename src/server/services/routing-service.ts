/**
 * Fair auto-assignment (issue 19 item 8). When customers write in unassigned open conversations, each goes to
 * the next available member under their capacity, round-robin (repositories/routing.ts). A number with an
 * active bot keeps its unassigned conversations for the bot: they are skipped here (the bot runtime, built
 * elsewhere, takes them). Assignments are recorded like a member's, by the system actor.
 */
import type { Executor } from '../db/client';
import { forbidden, notFound } from '../errors';
import type { WorkspaceContext } from './caller';
import * as routing from '../repositories/routing';
import { isUuid } from '../repositories/pagination';
import type { ServiceDeps } from './context';

export interface AssignConversation {
  (workspaceId: string, conversationId: string, memberId: string): Promise<unknown>;
}

export function routingService(d: ServiceDeps, assign: AssignConversation) {
  const ex = (): Executor => d.db.db;
  return {
    list: (ctx: WorkspaceContext) => routing.routingOf(ex(), ctx.workspaceId),
    /** A member changes their own availability; an admin anyone's. */
    async patch(ctx: WorkspaceContext, memberId: string, body: { available?: boolean; chatCapacity?: number }) {
      // Any text is a well-formed request; one that is not a member id names no member (404, not a database error).
      if (!isUuid(memberId)) throw notFound('Member not found');
      if (memberId !== ctx.caller.member.id && ctx.role !== 'admin') {
        // Someone outside the workspace is unknown (404) before being someone else's to change (403).
        const members = await routing.routingOf(ex(), ctx.workspaceId);
        if (!members.some((m) => m.memberId === memberId)) throw notFound('Member not found');
        throw forbidden('Only an admin can change the availability of another member');
      }
      const row = await routing.setAvailability(ex(), ctx.workspaceId, memberId, body);
      if (!row) throw notFound('Member not found');
      return row;
    },
    /** Auto-assigns the unassigned conversations the stored inbound messages (wamids) landed in. */
    async afterInbound(workspaceId: string, wamids: string[]): Promise<{ assigned: number; leftToBot: number; noAgent: number }> {
      const out = { assigned: 0, leftToBot: 0, noAgent: 0 };
      const waiting = await routing.unassignedByWamids(ex(), workspaceId, wamids);
      for (const c of waiting) {
        if (c.whatsappAccountId && (await routing.numberHasActiveBot(ex(), workspaceId, c.whatsappAccountId))) {
          out.leftToBot++;
          continue;
        }
        const memberId = await d.db.transaction((tx) => routing.takeNextAgent(tx, workspaceId, new Date()));
        if (!memberId) {
          out.noAgent++;
          continue;
        }
        await assign(workspaceId, c.id, memberId);
        out.assigned++;
      }
      return out;
    },
  };
}
