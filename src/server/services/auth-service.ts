import type { AuthMe, InviteSignUpBody, Member, SignUpBody } from '../../shared';
import { productMessages } from '../../shared/messages';
import type { Executor } from '../db/client';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import * as ws from '../repositories/workspaces';
import * as invitations from '../repositories/invitees';
import { isUuid } from '../repositories/pagination';
import type { Caller } from './caller';
import type { ServiceDeps } from './context';

const inviteGone = 'This invitation does not exist or was revoked';
const inviteUsed = 'This invitation has already been used';
const inviteOtherEmail = 'This invitation was sent to another email address';

export function authService(d: ServiceDeps) {
  async function memberView(ex: Executor, member: ws.MemberRow): Promise<Member> {
    return ws.toMember(member, await ws.membershipsOf(ex, member.id));
  }

  async function meView(ex: Executor, member: ws.MemberRow): Promise<AuthMe> {
    const ms = await ws.membershipsOf(ex, member.id);
    const m = ws.toMember(member, ms);
    return { ...m, Workspaces: await ws.workspacesByIds(ex, m.workspaceIds) };
  }

  /**
   * Creates the identity first, then member and workspace in one transaction; if the transaction fails the
   * identity is deleted again, so a failed sign-up leaves nothing behind.
   */
  async function withNewIdentity<T>(email: string, password: string, name: string | undefined, fn: (uid: string) => Promise<T>) {
    const uid = await d.identity.createUser({ email, password, displayName: name });
    try {
      return await fn(uid);
    } catch (err) {
      await d.identity.deleteUser(uid).catch((e: unknown) => d.log.error({ err: e }, 'could not remove identity of a failed sign-up'));
      throw err;
    }
  }

  async function openInvitation(ex: Executor, token: string) {
    const inv = await invitations.invitationByToken(ex, token);
    if (!inv) throw notFound(inviteGone);
    if (inv.used) throw conflict(inviteUsed);
    return inv;
  }

  /** Marks the invitation used exactly once, even when two requests race for it. */
  async function claimInvitation(tx: Executor, id: string, memberId: string) {
    if (!(await invitations.claimInvitation(tx, id, memberId))) throw conflict(inviteUsed);
  }

  return {
    async signUp(body: SignUpBody): Promise<Member> {
      return withNewIdentity(body.email, body.password, body.name, (uid) =>
        d.db.transaction(async (tx) => {
          const w = await ws.createWorkspace(tx, body.organizationName);
          const member = await ws.createMember(tx, uid, w.id);
          await ws.addMembership(tx, w.id, member.id, 'admin');
          return memberView(tx, member);
        }),
      );
    },

    async signUpWithInvite(token: string, body: InviteSignUpBody): Promise<Member> {
      const inv = await openInvitation(d.db.db, token);
      if (inv.email.toLowerCase() !== body.email.toLowerCase()) throw badRequest(inviteOtherEmail);
      return withNewIdentity(body.email, body.password, undefined, (uid) =>
        d.db.transaction(async (tx) => {
          const member = await ws.createMember(tx, uid, inv.workspaceId);
          await claimInvitation(tx, inv.id, member.id);
          await ws.addMembership(tx, inv.workspaceId, member.id, inv.role);
          return memberView(tx, member);
        }),
      );
    },

    /** An existing user joins the invitation's workspace (addition: the spec's flow for invitees who have an account). */
    async acceptInvite(caller: Caller, token: string): Promise<AuthMe> {
      const inv = await openInvitation(d.db.db, token);
      if (!caller.email || caller.email.toLowerCase() !== inv.email.toLowerCase()) throw forbidden(inviteOtherEmail);
      return d.db.transaction(async (tx) => {
        const member = caller.member ?? (await ws.createMember(tx, caller.uid, inv.workspaceId));
        await claimInvitation(tx, inv.id, member.id);
        if (await ws.membership(tx, inv.workspaceId, member.id)) throw conflict('You are already a member of this workspace');
        await ws.addMembership(tx, inv.workspaceId, member.id, inv.role);
        await ws.setCurrentWorkspace(tx, member.id, inv.workspaceId);
        return meView(tx, { ...member, currentWorkspaceId: inv.workspaceId });
      });
    },

    async me(caller: Caller): Promise<AuthMe> {
      if (!caller.member) throw notFound('No Parley account exists for this identity; sign up first');
      return meView(d.db.db, caller.member);
    },

    async switchWorkspace(caller: Caller, workspaceId: string): Promise<AuthMe> {
      if (!caller.member) throw notFound('No Parley account exists for this identity; sign up first');
      if (!isUuid(workspaceId) || !(await ws.membership(d.db.db, workspaceId, caller.member.id))) {
        throw forbidden(productMessages.notMember);
      }
      await ws.setCurrentWorkspace(d.db.db, caller.member.id, workspaceId);
      return meView(d.db.db, { ...caller.member, currentWorkspaceId: workspaceId });
    },

    meView,
  };
}
