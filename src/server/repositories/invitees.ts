/**
 * SQL of `invitees` beyond the shared CRUD (resources.ts `invitees`): open invitations, look-up by the e-mailed
 * token, and claiming one. The token look-up is not scoped by workspace_id: the secret token is what resolves the
 * invitation's workspace, as a webhook's phone number id does for the channel.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';
import type { PageRequest } from './pagination';
import { invitees } from './resources';

export type InviteeRow = typeof t.invitees.$inferSelect;

/** The invitation the e-mailed link names (used or not), or null. */
export async function invitationByToken(ex: Executor, token: string): Promise<InviteeRow | null> {
  const [row] = await ex.select().from(t.invitees).where(eq(t.invitees.token, token)).limit(1);
  return row ?? null;
}

/** Marks the invitation used by this member; false when it was used already (two requests racing for it). */
export async function claimInvitation(ex: Executor, id: string, memberId: string): Promise<boolean> {
  const rows = await ex
    .update(t.invitees)
    .set({ used: true, usedByMemberId: memberId })
    .where(and(eq(t.invitees.id, id), eq(t.invitees.used, false)))
    .returning({ id: t.invitees.id });
  return rows.length > 0;
}

/** Removes the workspace's open invitations of an e-mail address (given lower-cased), before it is invited again. */
export async function removeOpenInvitations(ex: Executor, workspaceId: string, normalizedEmail: string): Promise<void> {
  await ex
    .delete(t.invitees)
    .where(and(eq(t.invitees.workspaceId, workspaceId), eq(sql`lower(${t.invitees.email})`, normalizedEmail), eq(t.invitees.used, false)));
}

/** The workspace's invitations not used yet, newest first, paged. */
export function openInvitationsPage(ex: Executor, workspaceId: string, page: PageRequest) {
  return invitees.page(ex, workspaceId, page, eq(t.invitees.used, false));
}
