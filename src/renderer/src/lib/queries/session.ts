/**
 * Queries every area needs: the signed-in member (GET /auth/me) and the current workspace with its attributes
 * and members (GET /workspace/{id}). Query keys: ['me'], ['workspace', id, ...] (everything of a workspace sits
 * under ['workspace', id], so switching or invalidating a workspace is one prefix).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '../api-client';
import { desktopCall, getDesktop } from '../desktop';
import { fromCache, notCached, onlineOrCache } from '../offline-data';
import { useAuthStore, workspaceIdOf } from '../../stores/auth-store';

export const meQueryOptions = () =>
  queryOptions({
    queryKey: ['me'] as const,
    queryFn: async () => {
      const me = await onlineOrCache(
        async () => {
          const fresh = await api('getMe');
          // The desktop app keeps it for an offline start.
          if (getDesktop()) void desktopCall('cache.putMe', { me: fresh }).catch(() => undefined);
          return fresh;
        },
        fromCache('cache.getMe', undefined, (cached) => {
          if (!cached) throw notCached('Your account');
          return cached;
        }),
      );
      useAuthStore.getState().setMember(me);
      return me;
    },
    staleTime: 60_000,
  });

export const workspaceKeys = {
  all: (workspaceId: string) => ['workspace', workspaceId] as const,
  detail: (workspaceId: string) => ['workspace', workspaceId, 'detail'] as const,
  list: (workspaceId: string, what: string, extra?: unknown) =>
    (extra === undefined ? ['workspace', workspaceId, what] : ['workspace', workspaceId, what, extra]) as readonly unknown[],
};

export const workspaceQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: workspaceKeys.detail(workspaceId),
    queryFn: ({ signal }) => api('getWorkspace', { params: { workspaceId }, signal }),
  });

/** The signed-in member (from the store; the signed-in layout guarantees it is loaded). */
export function useMember() {
  const member = useAuthStore((s) => s.member);
  if (!member) throw new Error('useMember outside the signed-in area');
  return member;
}

/** The current workspace id (currentWorkspaceId, else the first joined). */
export function useWorkspaceId(): string {
  const id = useAuthStore((s) => workspaceIdOf(s.member));
  if (!id) throw new Error('useWorkspaceId outside the signed-in area');
  return id;
}

/** The current member's role in the current workspace. */
export function useRole() {
  return useMember().role;
}

export function useIsAdmin(): boolean {
  return useRole() === 'admin';
}

export function useWorkspace() {
  return useQuery(workspaceQueryOptions(useWorkspaceId()));
}

/** Members of the current workspace keyed by uid (and by member id), from the workspace record. */
export function useMemberDirectory() {
  const { data } = useWorkspace();
  return useMemo(() => {
    const byUid = new Map<string, NonNullable<typeof data>['Member'][number]>();
    const byId = new Map<string, NonNullable<typeof data>['Member'][number]>();
    for (const m of data?.Member ?? []) {
      byUid.set(m.uid, m);
      byId.set(m.id, m);
    }
    return { byUid, byId, attributes: data?.Attribute ?? [] };
  }, [data]);
}
