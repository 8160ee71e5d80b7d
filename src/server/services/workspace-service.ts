import type { MemberProfile, Workspace, WorkspaceDetail } from '../../shared';
import type { Role } from '../../shared/schemas/common';
import { conflict, notFound } from '../errors';
import * as ws from '../repositories/workspaces';
import { toConversation, unassignOpenOf } from '../repositories/conversations';
import { appendEvents } from '../repositories/event-log';
import { isUuid } from '../repositories/pagination';
import { reportAccessLost } from '../realtime/access-lost';
import { attributesOf } from '../repositories/attributes';
import { toAttribute } from '../repositories/resources';
import type { Page, PageRequest } from '../repositories/pagination';
import type { Caller, WorkspaceContext } from './caller';
import type { ServiceDeps } from './context';

const memberNotFound = 'Member not found';
const lastAdminDemoted = 'The last admin of a workspace cannot be made an agent: make another member admin first';
const lastAdminRemoved = 'The last admin of a workspace cannot be removed: make another member admin first';

export function workspaceService(d: ServiceDeps) {
  /** Members joined with their identity profile (display name, photo, e-mail...). */
  async function profilesOf(rows: { member: ws.MemberRow; role: Role }[]): Promise<MemberProfile[]> {
    const profiles = await d.identity.profiles(rows.map((r) => r.member.uid));
    const wsIds = await ws.workspaceIdsOfMembers(d.db.db, rows.map((r) => r.member.id));
    return rows.map(({ member, role }) => {
      const p = profiles.get(member.uid);
      const workspaceIds = wsIds.get(member.id) ?? [];
      return {
        id: member.id,
        uid: member.uid,
        role,
        createdAt: member.createdAt.toISOString(),
        currentWorkspaceId: member.currentWorkspaceId ?? workspaceIds[0] ?? null,
        workspaceIds,
        email: p?.email ?? null,
        emailVerified: p?.emailVerified ?? false,
        displayName: p?.displayName ?? null,
        photoURL: p?.photoURL ?? null,
        phone: p?.phone ?? null,
        metadata: p?.metadata ?? { creationTime: null, lastSignInTime: null },
      };
    });
  }

  return {
    /** Any signed-in identity may create a workspace and becomes its admin; it becomes the current one. */
    async create(caller: Caller, name: string): Promise<Workspace> {
      const id = await d.db.transaction(async (tx) => {
        const member = caller.member ?? (await ws.createMember(tx, caller.uid, null));
        const w = await ws.createWorkspace(tx, name);
        await ws.addMembership(tx, w.id, member.id, 'admin');
        await ws.setCurrentWorkspace(tx, member.id, w.id);
        return w.id;
      });
      const [w] = await ws.workspacesByIds(d.db.db, [id]);
      return w;
    },

    async detail(workspaceId: string): Promise<WorkspaceDetail> {
      const [w] = await ws.workspacesByIds(d.db.db, [workspaceId]);
      if (!w) throw notFound('Workspace not found');
      const attrs = await attributesOf(d.db.db, workspaceId);
      const members = await ws.workspaceMembersOf(d.db.db, workspaceId);
      return { ...w, Attribute: attrs.map(toAttribute), Member: await profilesOf(members) };
    },

    async members(workspaceId: string, page: PageRequest): Promise<Page<MemberProfile>> {
      const p = await ws.membersPage(d.db.db, workspaceId, page);
      return { items: await profilesOf(p.items), nextCursor: p.nextCursor };
    },

    /**
     * An admin gives a member another role. The access check reads the role on every request, so it holds from
     * the member's next call. The last admin cannot step down: someone must be able to manage the workspace.
     */
    async changeRole(ctx: WorkspaceContext, memberId: string, role: Role): Promise<MemberProfile> {
      const changed = await d.db.transaction(async (tx) => {
        await ws.lockWorkspace(tx, ctx.workspaceId);
        const target = isUuid(memberId) ? await ws.workspaceMember(tx, ctx.workspaceId, memberId) : null;
        if (!target) throw notFound(memberNotFound);
        if (target.role === 'admin' && role !== 'admin' && (await ws.adminCount(tx, ctx.workspaceId)) <= 1) {
          throw conflict(lastAdminDemoted);
        }
        if (target.role !== role) await ws.setRole(tx, ctx.workspaceId, memberId, role);
        return { member: target.member, role };
      });
      const [profile] = await profilesOf([changed]);
      return profile;
    },

    /**
     * Removes a member from the workspace (not the person's account or other workspaces). Their open
     * conversations go back to the queue, each with the update an unassign emits; their routing settings go with
     * the membership. Once committed, their event streams of this workspace end and every request of theirs to it
     * is refused (403) by the access check.
     */
    async removeMember(ctx: WorkspaceContext, memberId: string) {
      await d.db.transaction(async (tx) => {
        await ws.lockWorkspace(tx, ctx.workspaceId);
        const target = isUuid(memberId) ? await ws.workspaceMember(tx, ctx.workspaceId, memberId) : null;
        if (!target) throw notFound(memberNotFound);
        if (target.role === 'admin' && (await ws.adminCount(tx, ctx.workspaceId)) <= 1) throw conflict(lastAdminRemoved);
        await ws.removeMembership(tx, ctx.workspaceId, memberId);
        await ws.forgetCurrentWorkspace(tx, memberId, ctx.workspaceId);
        const unassigned = await unassignOpenOf(tx, ctx.workspaceId, memberId);
        const updates = unassigned.map((row) => ({ type: 'conversation.updated' as const, payload: { conversation: toConversation(row) } }));
        await appendEvents(tx, ctx.workspaceId, updates);
      });
      reportAccessLost(d.db, { memberId, workspaceId: ctx.workspaceId });
      return { success: true as const };
    },
  };
}
