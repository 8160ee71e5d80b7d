import type { MemberProfile, Workspace, WorkspaceDetail } from '../../shared';
import type { Role } from '../../shared/schemas/common';
import { notFound } from '../errors';
import * as ws from '../repositories/workspaces';
import { attributesOf } from '../repositories/attributes';
import { toAttribute } from '../repositories/resources';
import type { Page, PageRequest } from '../repositories/pagination';
import type { Caller } from './caller';
import type { ServiceDeps } from './context';

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
  };
}
