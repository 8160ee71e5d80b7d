/** Invitations and WhatsApp account records. */
import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Role } from '../../shared/schemas/common';
import * as t from '../db/schema';
import { conflict, notFound } from '../errors';
import * as r from '../repositories/resources';
import type { WorkspaceContext } from '../http/types';
import type { ServiceDeps } from './context';

export function teamService(d: ServiceDeps) {
  const ex = () => d.db.db;
  return {
    /**
     * Invites an e-mail with a role. Inviting the same address again replaces the open invitation (new link,
     * new role); inviting someone who is already a member is refused.
     */
    async invite(ctx: WorkspaceContext, email: string, role: Role) {
      const normalized = email.trim().toLowerCase();
      const uid = await d.identity.findUidByEmail(normalized);
      if (uid) {
        const [already] = await ex()
          .select({ id: t.members.id })
          .from(t.members)
          .innerJoin(t.workspaceMembers, eq(t.workspaceMembers.memberId, t.members.id))
          .where(and(eq(t.members.uid, uid), eq(t.workspaceMembers.workspaceId, ctx.workspaceId)))
          .limit(1);
        if (already) throw conflict(`${normalized} is already a member of this workspace`);
      }
      const token = randomBytes(24).toString('base64url');
      const invitation = await d.db.transaction(async (tx) => {
        await tx
          .delete(t.invitees)
          .where(and(eq(t.invitees.workspaceId, ctx.workspaceId), eq(sql`lower(${t.invitees.email})`, normalized), eq(t.invitees.used, false)));
        return r.invitees.insert(tx, { workspaceId: ctx.workspaceId, email: normalized, role, token, memberId: ctx.caller.member.id });
      });
      const [w] = await ex().select({ name: t.workspaces.name }).from(t.workspaces).where(eq(t.workspaces.id, ctx.workspaceId));
      // The link carries the invitation's secret token (only the e-mail has it); ids are not credentials.
      const link = `${d.config.appUrl.replace(/\/$/, '')}/invite/${invitation.token}`;
      await d.mailer
        .send({
          to: normalized,
          subject: `You are invited to ${w.name} on Parley`,
          text: `You have been invited to join ${w.name} on Parley as ${role}.\n\nAccept the invitation: ${link}\n`,
        })
        .catch((err: unknown) => d.log.error({ err }, 'invitation e-mail could not be sent'));
      return { success: true as const };
    },

    /**
     * Public, by the token of the e-mailed link: only what the invitation page shows (workspace name, e-mail,
     * role, whether the invitee has an account and so signs in instead of up). Never the token, the inviting
     * member or the invitee's identity uid.
     */
    async validate(token: string) {
      const [inv] = await ex().select().from(t.invitees).where(eq(t.invitees.token, token)).limit(1);
      if (!inv) throw notFound('This invitation does not exist or was revoked');
      if (inv.used) throw conflict('This invitation has already been used');
      const [w] = await ex().select({ name: t.workspaces.name }).from(t.workspaces).where(eq(t.workspaces.id, inv.workspaceId));
      const uid = await d.identity.findUidByEmail(inv.email);
      return { email: inv.email, role: inv.role, workspaceName: w.name, hasAccount: uid !== null };
    },

    async revoke(ctx: WorkspaceContext, id: string) {
      if (!(await r.invitees.remove(ex(), ctx.workspaceId, id))) throw notFound('Invitation not found');
      return { success: true as const };
    },

    /**
     * Removes the account; bots lose their link to it, conversations keep their history. Its templates go too:
     * they live on that WhatsApp Business Account and can no longer be sent or synced (connecting the number
     * again and syncing brings them back).
     */
    async deleteWhatsappAccount(ctx: WorkspaceContext, id: string) {
      await d.db.transaction(async (tx) => {
        if (!(await r.whatsappAccounts.remove(tx, ctx.workspaceId, id))) throw notFound('WhatsApp account not found');
        await tx
          .update(t.bots)
          .set({ whatsappAccountId: null, isActive: false })
          .where(and(eq(t.bots.workspaceId, ctx.workspaceId), eq(t.bots.whatsappAccountId, id)));
        await tx
          .delete(t.whatsappTemplates)
          .where(and(eq(t.whatsappTemplates.workspaceId, ctx.workspaceId), eq(t.whatsappTemplates.whatsappAccountId, id)));
      });
      return { success: true as const };
    },
  };
}
