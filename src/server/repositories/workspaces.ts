import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { members, workspaceMembers, workspaces } from '../db/schema';
import type { Role } from '../../shared/schemas/common';
import type { Member, Workspace } from '../../shared';
import { afterCursor, iso, pageLimit, toPage, type PageRequest } from './pagination';

export type MemberRow = typeof members.$inferSelect;
export interface Membership {
  workspaceId: string;
  role: Role;
}

export async function createWorkspace(ex: Executor, name: string): Promise<typeof workspaces.$inferSelect> {
  const [w] = await ex.insert(workspaces).values({ name }).returning();
  return w;
}

export async function createMember(ex: Executor, uid: string, currentWorkspaceId: string | null): Promise<MemberRow> {
  const [m] = await ex.insert(members).values({ uid, currentWorkspaceId }).returning();
  return m;
}

export async function addMembership(ex: Executor, workspaceId: string, memberId: string, role: Role): Promise<void> {
  await ex.insert(workspaceMembers).values({ workspaceId, memberId, role }).onConflictDoNothing();
}

export async function findMemberByUid(ex: Executor, uid: string): Promise<MemberRow | null> {
  const [m] = await ex.select().from(members).where(eq(members.uid, uid)).limit(1);
  return m ?? null;
}

export async function setCurrentWorkspace(ex: Executor, memberId: string, workspaceId: string): Promise<void> {
  await ex.update(members).set({ currentWorkspaceId: workspaceId }).where(eq(members.id, memberId));
}

/** The member's workspaces in the order joined (the first is the default current workspace). */
export async function membershipsOf(ex: Executor, memberId: string): Promise<Membership[]> {
  return ex
    .select({ workspaceId: workspaceMembers.workspaceId, role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.memberId, memberId))
    .orderBy(asc(workspaceMembers.createdAt), asc(workspaceMembers.workspaceId));
}

export async function membership(ex: Executor, workspaceId: string, memberId: string): Promise<Membership | null> {
  const [m] = await ex
    .select({ workspaceId: workspaceMembers.workspaceId, role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.memberId, memberId)))
    .limit(1);
  return m ?? null;
}

/** The member as the API shows it: role and current workspace follow spec section 1. */
export function toMember(row: MemberRow, ms: Membership[]): Member {
  const current = ms.find((m) => m.workspaceId === row.currentWorkspaceId) ?? ms[0];
  return {
    id: row.id,
    uid: row.uid,
    role: current?.role ?? 'agent',
    createdAt: iso(row.createdAt),
    currentWorkspaceId: current?.workspaceId ?? null,
    workspaceIds: ms.map((m) => m.workspaceId),
  };
}

export async function workspacesByIds(ex: Executor, ids: string[]): Promise<Workspace[]> {
  if (ids.length === 0) return [];
  const rows = await ex
    .select({
      id: workspaces.id,
      name: workspaces.name,
      createdAt: workspaces.createdAt,
      memberIds: sql<string[]>`coalesce((select array_agg(wm.member_id::text order by wm.created_at) from ${workspaceMembers} wm where wm.workspace_id = ${workspaces.id}), '{}')`,
    })
    .from(workspaces)
    .where(inArray(workspaces.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids
    .map((id) => byId.get(id))
    .filter((r): r is (typeof rows)[number] => !!r)
    .map((r) => ({ id: r.id, name: r.name, createdAt: iso(r.createdAt), memberIds: r.memberIds }));
}

/** Members of one workspace, newest first, paged. */
export async function membersPage(ex: Executor, workspaceId: string, page: PageRequest) {
  const limit = pageLimit(page);
  const rows = await ex
    .select({ member: members, role: workspaceMembers.role, joinedAt: workspaceMembers.createdAt })
    .from(workspaceMembers)
    .innerJoin(members, eq(members.id, workspaceMembers.memberId))
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), afterCursor(workspaceMembers.createdAt, members.id, page.cursor)))
    .orderBy(desc(workspaceMembers.createdAt), desc(members.id))
    .limit(limit + 1);
  return toPage(rows, limit, (r) => ({ at: r.joinedAt, id: r.member.id }), (r) => r);
}

/** Every member of a workspace with the workspaces each belongs to (for member listings). */
export async function workspaceIdsOfMembers(ex: Executor, memberIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (memberIds.length === 0) return out;
  const rows = await ex
    .select({ memberId: workspaceMembers.memberId, workspaceId: workspaceMembers.workspaceId })
    .from(workspaceMembers)
    .where(inArray(workspaceMembers.memberId, memberIds))
    .orderBy(asc(workspaceMembers.createdAt));
  for (const r of rows) out.set(r.memberId, [...(out.get(r.memberId) ?? []), r.workspaceId]);
  return out;
}

/** The workspace's name (the workspace exists: callers hold a resolved workspace id). */
export async function workspaceName(ex: Executor, id: string): Promise<string> {
  const [w] = await ex.select({ name: workspaces.name }).from(workspaces).where(eq(workspaces.id, id));
  return w.name;
}

/** The country a workspace reads national phone numbers in (contact search), US when none is set. */
export async function defaultCountryOf(ex: Executor, id: string): Promise<string> {
  const [w] = await ex.select({ country: workspaces.defaultCountry }).from(workspaces).where(eq(workspaces.id, id));
  return w?.country ?? 'US';
}

/** Whether the identity `uid` is a member of the workspace. */
export async function isMemberByUid(ex: Executor, workspaceId: string, uid: string): Promise<boolean> {
  const [m] = await ex
    .select({ id: members.id })
    .from(members)
    .innerJoin(workspaceMembers, eq(workspaceMembers.memberId, members.id))
    .where(and(eq(members.uid, uid), eq(workspaceMembers.workspaceId, workspaceId)))
    .limit(1);
  return !!m;
}

/** Every member of the workspace with its role there, in the order they joined (the workspace detail). */
export async function workspaceMembersOf(ex: Executor, workspaceId: string): Promise<{ member: MemberRow; role: Role }[]> {
  return ex
    .select({ member: members, role: workspaceMembers.role })
    .from(workspaceMembers)
    .innerJoin(members, eq(members.id, workspaceMembers.memberId))
    .where(eq(workspaceMembers.workspaceId, workspaceId))
    .orderBy(asc(workspaceMembers.createdAt));
}

/**
 * Locks the workspace row until the transaction ends: role changes and removals in one workspace run one after the
 * other, so two admins demoting each other at once cannot leave it without an admin.
 */
export async function lockWorkspace(ex: Executor, workspaceId: string): Promise<void> {
  await ex.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId)).for('update');
}

export async function adminCount(ex: Executor, workspaceId: string): Promise<number> {
  const [r] = await ex
    .select({ n: sql<number>`count(*)::int` })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.role, 'admin')));
  return Number(r?.n ?? 0);
}

export async function setRole(ex: Executor, workspaceId: string, memberId: string, role: Role): Promise<void> {
  await ex
    .update(workspaceMembers)
    .set({ role })
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.memberId, memberId)));
}

/** Ends a membership, its routing settings with it (they live on the membership row). */
export async function removeMembership(ex: Executor, workspaceId: string, memberId: string): Promise<void> {
  await ex.delete(workspaceMembers).where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.memberId, memberId)));
}

/** A member whose current workspace was `workspaceId` falls back to their first remaining workspace. */
export async function forgetCurrentWorkspace(ex: Executor, memberId: string, workspaceId: string): Promise<void> {
  await ex
    .update(members)
    .set({ currentWorkspaceId: null })
    .where(and(eq(members.id, memberId), eq(members.currentWorkspaceId, workspaceId)));
}

/** One member of the workspace with their role there; null when they are not a member of it. */
export async function workspaceMember(ex: Executor, workspaceId: string, memberId: string): Promise<{ member: MemberRow; role: Role } | null> {
  const [r] = await ex
    .select({ member: members, role: workspaceMembers.role })
    .from(workspaceMembers)
    .innerJoin(members, eq(members.id, workspaceMembers.memberId))
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.memberId, memberId)))
    .limit(1);
  return r ?? null;
}
