/** Invitations and WhatsApp account records. */
import { randomBytes } from 'node:crypto';
import type { Role } from '../../shared/schemas/common';
import { conflict, notFound } from '../errors';
import * as r from '../repositories/resources';
import * as invitations from '../repositories/invitees';
import * as ws from '../repositories/workspaces';
import { unlinkBotsFromAccount } from '../repositories/bots';
import { removeTemplatesOfAccount } from '../repositories/whatsapp-templates';
import type { WorkspaceContext } from './caller';
import type { ServiceDeps } from './context';
import { type PageRequest, mapPage } from '../repositories/pagination';

export function teamService(d: ServiceDeps) {
  const ex = () => d.db.db;
  return {
    /** Invitations not used yet. */
    listInvitees: async (ctx: WorkspaceContext, query: PageRequest) =>
      mapPage(await invitations.openInvitationsPage(ex(), ctx.workspaceId, query), r.toInvitee),
    /**
     * Invites an e-mail with a role. Inviting the same address again replaces the open invitation (new link,
     * new role); inviting someone who is already a member is refused.
     */
    async invite(ctx: WorkspaceContext, email: string, role: Role) {
      const normalized = email.trim().toLowerCase();
      const uid = await d.identity.findUidByEmail(normalized);
      if (uid && (await ws.isMemberByUid(ex(), ctx.workspaceId, uid))) {
        throw conflict(`${normalized} is already a member of this workspace`);
      }
      const token = randomBytes(24).toString('base64url');
      const invitation = await d.db.transaction(async (tx) => {
        await invitations.removeOpenInvitations(tx, ctx.workspaceId, normalized);
        return r.invitees.insert(tx, { workspaceId: ctx.workspaceId, email: normalized, role, token, memberId: ctx.caller.member.id });
      });
      const workspaceName = await ws.workspaceName(ex(), ctx.workspaceId);
      // The link carries the invitation's secret token (only the e-mail has it); ids are not credentials.
      const link = `${d.config.appUrl.replace(/\/$/, '')}/invite/${invitation.token}`;
      await d.mailer
        .send({
          to: normalized,
          subject: `You are invited to ${workspaceName} on Parley`,
          text: `You have been invited to join ${workspaceName} on Parley as ${role}.\n\nAccept the invitation: ${link}\n`,
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
      const inv = await invitations.invitationByToken(ex(), token);
      if (!inv) throw notFound('This invitation does not exist or was revoked');
      if (inv.used) throw conflict('This invitation has already been used');
      const workspaceName = await ws.workspaceName(ex(), inv.workspaceId);
      const uid = await d.identity.findUidByEmail(inv.email);
      return { email: inv.email, role: inv.role, workspaceName, hasAccount: uid !== null };
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
        await unlinkBotsFromAccount(tx, ctx.workspaceId, id);
        await removeTemplatesOfAccount(tx, ctx.workspaceId, id);
      });
      return { success: true as const };
    },
  };
}
