/**
 * Fair auto-assignment. When customers write in unassigned open conversations, each goes to
 * the next available member under their capacity, round-robin (repositories/inbound-routing.ts). A number with an
 * active bot keeps its unassigned conversations for the bot: they are skipped here (the bot runtime, built
 * elsewhere, takes them). Assignments are recorded like a member's, by the system actor.
 */
import type { Executor } from '../db/client';
import { forbidden, notFound } from '../errors';
import type { WorkspaceContext } from './caller';
import * as routing from '../repositories/routing';
import * as inbound from '../repositories/inbound-routing';
import { isUuid } from '../repositories/pagination';
import type { ServiceDeps } from './context';

export interface AssignConversation {
  (workspaceId: string, conversationId: string, memberId: string): Promise<unknown>;
}

/**
 * The owners of `count` waiting conversations, in order, as many as there are free seats: each goes to the
 * member next in the round-robin, who then moves to its end (as if each had been taken one at a time). Each
 * pick is recorded 1 ms after the one before, so the next batch continues the same order.
 */
async function dealToAgents(tx: Executor, workspaceId: string, count: number, at: Date): Promise<string[]> {
  const queue = await inbound.lockAgentSeats(tx, workspaceId);
  const owners: string[] = [];
  const last = new Map<string, Date>();
  while (owners.length < count && queue.length > 0) {
    const seat = queue.shift()!;
    last.set(seat.memberId, new Date(at.getTime() + owners.length));
    owners.push(seat.memberId);
    seat.open++;
    if (seat.open < seat.chatCapacity) queue.push(seat);
  }
  await inbound.markAutoAssigned(tx, workspaceId, [...last].map(([memberId, when]) => ({ memberId, at: when })));
  return owners;
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
    /**
     * Auto-assigns the unassigned conversations the stored inbound messages (wamids) landed in: one statement
     * per batch finds them (and whether anyone is available); when someone is, one transaction deals them all
     * round-robin, then each is assigned as a member's assignment is (its own transaction and events).
     */
    async afterInbound(workspaceId: string, wamids: string[]): Promise<{ assigned: number; leftToBot: number; noAgent: number }> {
      const { waiting, anyoneAvailable } = await inbound.waitingForAgent(ex(), workspaceId, wamids);
      const forAgents = waiting.filter((c) => !c.botNumber);
      const out = { assigned: 0, leftToBot: waiting.length - forAgents.length, noAgent: 0 };
      const owners = anyoneAvailable && forAgents.length > 0 ? await d.db.transaction((tx) => dealToAgents(tx, workspaceId, forAgents.length, new Date())) : [];
      out.noAgent = forAgents.length - owners.length;
      for (const [i, memberId] of owners.entries()) {
        await assign(workspaceId, forAgents[i].id, memberId);
        out.assigned++;
      }
      return out;
    },
  };
}
