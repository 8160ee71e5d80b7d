/**
 * What the renderer does for the desktop app besides identity: follows main's connectivity (offline banner,
 * catch-up when the server is back), tells main the workspace, the conversation on screen and the unread count
 * (badge), keeps the last /auth/me for an offline start, and follows main's `navigate` (notification clicks,
 * parley:// links). Started once from main.tsx when `window.desktop` exists.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { DesktopApi, SyncStatus } from '@shared/ipc';
import type { ConversationCounts } from '@shared/schemas/entities';
import { useAuthStore, workspaceIdOf } from '../stores/auth-store';
import { setApiBaseUrl } from './config';
import { useConnectivity } from './connectivity';
import { desktopCall } from './desktop';
import { setUnreachableHandler } from './offline-data';
import { meQueryOptions } from './queries/session';

/** The badge figure: unread chats assigned to me plus unread chats nobody has (the kinds that notify). */
export function badgeCount(counts: Pick<ConversationCounts, 'unread'>): number {
  return counts.unread.me + Math.max(0, counts.unread.open - counts.unread.assigned);
}

/** `/live-chat/{id}` -> id (the conversation on screen), else null. */
export function conversationOnScreen(pathname: string): string | null {
  const m = /^\/live-chat\/([^/?#]+)/.exec(pathname);
  return m ? decodeURIComponent(m[1]) : null;
}

/** Queries that read the local cache while offline (lib/offline-data.ts users). */
function readsCacheOffline(key: readonly unknown[]): boolean {
  if (key[0] === 'live-chat') return ['conversations', 'counts', 'conversation', 'contact-conversations'].includes(key[1] as string);
  if (key[0] === 'workspace') return key[2] === 'attributes';
  return key[0] === 'me' || (key[0] === 'audience' && key[1] === 'contacts');
}

interface RouterLike {
  navigate(opts: { href: string }): Promise<void> | void;
  subscribe(event: 'onResolved', fn: (e: { toLocation: { pathname: string } }) => void): () => void;
  state: { location: { pathname: string } };
}

const ignore = () => undefined;

/** Points the API client at the remembered server address before anything asks the server. */
export async function loadServerAddress(): Promise<void> {
  const { url } = await desktopCall('server.getAddress');
  if (url) setApiBaseUrl(url);
}

export function startDesktopRuntime(desktop: DesktopApi, queryClient: QueryClient, router: RouterLike): () => void {
  const stops: (() => void)[] = [];

  // Connectivity: main's view, and ours when a request cannot get through.
  const applyStatus = (s: SyncStatus) => {
    const was = useConnectivity.getState().online;
    useConnectivity.getState().setOnline(s.online, s.lastSyncedAt);
    if (was === s.online) return;
    // What has two sources starts over from the other one (page cursors of the API and the cache differ);
    // back online, everything else on screen is read again too: the catch-up, without a reload.
    void queryClient.resetQueries({ predicate: (q) => readsCacheOffline(q.queryKey) });
    if (s.online) {
      void queryClient.invalidateQueries();
      // The member behind the signed-in screens is read by loaders only (no observer): fetch it again too.
      if (useAuthStore.getState().user) void queryClient.fetchQuery(meQueryOptions()).catch(ignore);
    }
  };
  stops.push(desktop.on('sync.status', applyStatus));
  void desktopCall('sync.getStatus').then(applyStatus, ignore);
  setUnreachableHandler(() => void desktopCall('sync.retry').then(applyStatus, ignore));

  // The workspace main caches and streams, and the member for an offline start.
  let workspaceId: string | null = null;
  const followMember = () => {
    const next = workspaceIdOf(useAuthStore.getState().member);
    if (next && next !== workspaceId) void desktopCall('sync.setWorkspace', { workspaceId: next }).then(applyStatus, ignore);
    workspaceId = next;
  };
  stops.push(useAuthStore.subscribe(followMember));
  followMember();

  // The conversation on screen (no notification for it while the window is focused).
  let onScreen: string | null | undefined;
  const followLocation = (pathname: string) => {
    const id = conversationOnScreen(pathname);
    if (id === onScreen) return;
    onScreen = id;
    void desktopCall('view.setCurrentConversation', { conversationId: id }).catch(ignore);
  };
  stops.push(router.subscribe('onResolved', (e) => followLocation(e.toLocation.pathname)));
  followLocation(router.state.location.pathname);

  // The badge follows the tab counts the screens already fetch.
  let lastBadge = -1;
  stops.push(
    queryClient.getQueryCache().subscribe((e) => {
      if (e.type !== 'updated' || e.query.queryKey[1] !== 'counts' || e.query.queryKey[0] !== 'live-chat') return;
      const data = e.query.state.data as ConversationCounts | undefined;
      if (!data?.unread) return;
      const count = badgeCount(data);
      if (count === lastBadge) return;
      lastBadge = count;
      void desktopCall('badge.setUnreadCount', { count }).catch(ignore);
    }),
  );

  // Notification clicks and parley:// links.
  // A conversation opens beside the open tab (what notifications are about), not the default closed tab.
  stops.push(desktop.on('navigate', ({ path }) => void router.navigate({ href: conversationOnScreen(path) ? `${path}?tab=open` : path })));

  return () => {
    for (const stop of stops) stop();
    setUnreachableHandler(ignore);
  };
}
