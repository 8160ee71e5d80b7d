// The desktop app's main-process core: identity, server address, cache and sync, notifications, badge,
// drafts and updater behind the IPC contract. Plain Node: Electron objects come in as small adapters, so
// the same core runs in the app (src/main/index.ts) and in tests / the desktop e2e suite.
import type { AuthMe } from '../shared';
import {
  type IpcEventName,
  type IpcEventPayload,
  type IpcResult,
  type SyncStatus,
  ipcEvents,
} from '../shared/ipc';
import { removeUserCache, userStoreFile, workspaceCacheFile } from './cache/location';
import { createServerApi } from './cache/server-api';
import { createSync, type Sync } from './cache/sync';
import { UserStore } from './cache/user-store';
import { WorkspaceCache } from './cache/workspace-cache';
import { createIdentity, type FirebaseSettings, type Identity } from './identity/identity';
import type { SecretStore } from './identity/keychain';
import { createIpcRouter, IpcError, type IpcHandlers, type IpcRouter, type IpcSender } from './ipc/router';
import { decideNotifications } from './notify/decide';
import { conversationPath, type NotificationAdapter } from './notify/notifier';
import { serverAddressStore, type ServerAddressStore } from './server-address';
import { noUpdater, type UpdaterPort } from './update/port';

export interface DesktopCoreOptions {
  /** app.getPath('userData') (tests: a temp folder) */
  userDataDir: string;
  /** the OS keychain (osKeychain('Parley')) */
  keychain: SecretStore;
  firebase: FirebaseSettings;
  /** Firebase app name: one keychain entry per name */
  firebaseAppName?: string;
  /** the server used until the user sets one (development: the local stack) */
  defaultServerUrl?: string | null;
  notifications: NotificationAdapter;
  /** the window: focus state (no notification for the conversation on screen) and focusing it on a click */
  window?: { isFocused(): boolean; focus(): void };
  openExternal(url: string): Promise<void> | void;
  /** dock / taskbar badge and tray tooltip */
  setBadge?(count: number): void;
  updater?: UpdaterPort;
  app: { version: string; platform: string; electron: string | null };
  /** which senders may call (appSenderCheck(appEntryUrl)); the e2e suite passes its page's check */
  isTrustedSender(sender: IpcSender): boolean;
  fetch?: typeof fetch;
  sync?: { retryDelayMs?: [number, number]; conversationsWithMessages?: number };
  log?: (line: string) => void;
}

export interface DesktopCore {
  readonly router: IpcRouter;
  readonly identity: Identity;
  readonly serverAddress: ServerAddressStore;
  /** what ipcMain.handle does for each channel */
  invoke(channel: string, arg: unknown, sender: IpcSender | null): Promise<IpcResult<unknown>>;
  /** events for the renderer (the Electron glue forwards them with webContents.send) */
  onEvent(listener: <E extends IpcEventName>(event: E, payload: IpcEventPayload<E>) => void): () => void;
  /** a deep link or a second launch asks to open a route */
  navigate(path: string): void;
  /** the open workspace cache (tests) */
  workspaceCache(): WorkspaceCache | null;
  syncStatus(): SyncStatus;
  dispose(): Promise<void>;
}

const signedOutStatus: SyncStatus = { state: 'signedOut', online: true, workspaceId: null, lastSeq: 0, lastSyncedAt: null, message: null };

export async function createDesktopCore(options: DesktopCoreOptions): Promise<DesktopCore> {
  const log = options.log ?? ((line: string) => console.warn(`[parley] ${line}`));
  const listeners = new Set<(event: IpcEventName, payload: unknown) => void>();
  const emit = <E extends IpcEventName>(event: E, payload: IpcEventPayload<E>) => {
    const checked = ipcEvents[event].parse(payload);
    for (const listener of listeners) listener(event, checked);
  };

  const serverAddress = serverAddressStore({ userDataDir: options.userDataDir, defaultUrl: options.defaultServerUrl, fetch: options.fetch });
  const updater = options.updater ?? noUpdater(options.app.version);
  updater.onStatus((status) => emit('updater.status', status));
  const identity = await createIdentity({ firebase: options.firebase, keychain: options.keychain, appName: options.firebaseAppName });

  // ---------- per-user state ----------
  let uid: string | null = null;
  let userStore: UserStore | null = null;
  let cache: WorkspaceCache | null = null;
  let sync: Sync | null = null;
  let status: SyncStatus = signedOutStatus;
  let viewing: string | null = null;
  let badge = 0;

  const setStatus = (next: SyncStatus) => {
    status = next;
    emit('sync.status', next);
  };
  const setBadge = (count: number) => {
    if (count === badge) return;
    badge = count;
    options.setBadge?.(count);
    emit('badge.unread', { count });
  };

  const requireUser = (): { uid: string; store: UserStore } => {
    if (!uid || !userStore) throw new IpcError(401, 'Not signed in', 'signed-out');
    return { uid, store: userStore };
  };

  async function stopWorkspace(): Promise<void> {
    const running = sync;
    sync = null;
    await running?.stop();
    cache?.close();
    cache = null;
  }

  async function closeUser(): Promise<void> {
    await stopWorkspace();
    userStore?.close();
    userStore = null;
    uid = null;
    viewing = null;
    setBadge(0);
    setStatus(signedOutStatus);
  }

  function openUser(profileUid: string): void {
    if (uid === profileUid) return;
    uid = profileUid;
    userStore = new UserStore(userStoreFile(options.userDataDir, profileUid));
  }

  const api = createServerApi({
    baseUrl: () => serverAddress.get(),
    idToken: async (force) => (await identity.getIdToken(force)).token,
    fetch: options.fetch,
  });

  async function startWorkspace(workspaceId: string): Promise<SyncStatus> {
    const { uid: user, store } = requireUser();
    if (sync && cache && status.workspaceId === workspaceId) return status;
    await stopWorkspace();
    const opened = new WorkspaceCache(workspaceCacheFile(options.userDataDir, user, workspaceId));
    cache = opened;
    status = { ...signedOutStatus, state: 'syncing', workspaceId, lastSeq: opened.lastSeq, lastSyncedAt: opened.lastSyncedAt };
    sync = createSync({
      api,
      cache: opened,
      workspaceId,
      viewing: () => viewing,
      retryDelayMs: options.sync?.retryDelayMs,
      conversationsWithMessages: options.sync?.conversationsWithMessages,
      log,
      onStatus: (next) => {
        if (cache === opened) setStatus(next);
      },
      onMe: (me) => store.setMe(me),
      onEvents: (events, before) => {
        const notices = decideNotifications(events, before, {
          memberId: before.memberId,
          settings: store.notificationSettings(),
          viewing: { conversationId: viewing, focused: options.window?.isFocused() ?? false },
        });
        for (const notice of notices) {
          options.notifications.show(notice, () => {
            options.window?.focus();
            emit('navigate', { path: conversationPath(notice.conversationId) });
          });
        }
      },
      onChange: (change) => {
        if (cache !== opened) return;
        emit('cache.changed', { conversationIds: change.conversationIds, contacts: change.contacts, full: change.full });
        setBadge(opened.badgeCount());
      },
    });
    sync.start();
    setStatus(sync.status());
    return status;
  }

  identity.onChange((profile) => {
    emit('identity.changed', profile);
    // sign-in opens the user in its handler; a session that ends by itself (revoked) closes it here
    if (!profile && uid) void closeUser();
  });

  // A restored session: open the user's cache and follow the workspace it last worked in (notifications
  // and the badge work before the renderer asks for anything).
  const restored = identity.current();
  if (restored) {
    openUser(restored.uid);
    const workspaceId = userStore!.me()?.currentWorkspaceId;
    if (workspaceId) await startWorkspace(workspaceId);
  }

  const empty = { items: [], nextCursor: null };
  const zeroCounts = { me: 0, assigned: 0, open: 0, closed: 0, unread: { me: 0, assigned: 0, open: 0, closed: 0 } };

  const handlers: IpcHandlers = {
    'identity.signIn': async ({ email, password }) => {
      const profile = await identity.signIn(email, password);
      await closeUser();
      openUser(profile.uid);
      return profile;
    },
    'identity.signOut': async () => {
      const leaving = uid;
      await closeUser();
      await identity.signOut();
      if (leaving) removeUserCache(options.userDataDir, leaving);
      return { ok: true as const };
    },
    'identity.currentUser': () => identity.current(),
    'identity.getIdToken': async (arg) => identity.getIdToken(arg?.forceRefresh ?? false),
    'identity.sendEmailVerification': async () => {
      await identity.sendEmailVerification();
      return { ok: true as const };
    },
    'identity.reloadUser': () => identity.reloadUser(),
    'identity.sendPasswordReset': async ({ email }) => {
      await identity.sendPasswordReset(email);
      return { ok: true as const };
    },
    'identity.updateProfile': (changes) => identity.updateProfile(changes),

    'server.getAddress': () => ({ url: serverAddress.get(), connectSrc: serverAddress.connectSrc() }),
    'server.setAddress': async ({ url }) => {
      await serverAddress.set(url);
      sync?.retry();
      return { url: serverAddress.get(), connectSrc: serverAddress.connectSrc() };
    },

    'cache.listConversations': ({ tab, search, limit, cursor }) => cache?.listConversations(tab, { search, limit, cursor }) ?? empty,
    'cache.conversationCounts': () => cache?.counts() ?? zeroCounts,
    'cache.getMe': () => (userStore ? userStore.me() : null),
    'cache.putMe': ({ me }: { me: AuthMe }) => {
      requireUser().store.setMe(me);
      return { ok: true as const };
    },
    'cache.getConversation': ({ conversationId }) => cache?.conversationDetail(conversationId) ?? null,
    'cache.searchContacts': ({ search, limit, cursor }) => cache?.searchContacts({ search, limit, cursor }) ?? empty,
    'cache.searchMessages': ({ search, limit }) => ({ items: cache?.searchMessages(search, limit) ?? [] }),

    'sync.getStatus': () => status,
    'sync.setWorkspace': ({ workspaceId }) => startWorkspace(workspaceId),
    'sync.retry': () => {
      sync?.retry();
      return status;
    },

    'notifications.getSettings': () => requireUser().store.notificationSettings(),
    'notifications.setSettings': (changes) => requireUser().store.setNotificationSettings(changes),
    'view.setCurrentConversation': ({ conversationId }) => {
      viewing = conversationId;
      if (conversationId && cache?.setUnread(conversationId, false)) setBadge(cache.badgeCount());
      return { ok: true as const };
    },
    'badge.setUnreadCount': ({ count }) => {
      setBadge(count);
      return { ok: true as const };
    },

    'updater.getStatus': () => updater.status(),
    'updater.check': () => updater.check(),
    'updater.restart': () => {
      if (!updater.restart()) throw new IpcError(409, 'No update has been downloaded yet', 'no-update');
      return { ok: true as const };
    },

    'shell.openExternal': async ({ url }) => {
      await options.openExternal(url);
      return { ok: true as const };
    },

    'drafts.get': ({ conversationId }) => ({ text: requireUser().store.draft(conversationId) }),
    'drafts.set': ({ conversationId, text }) => {
      requireUser().store.setDraft(conversationId, text);
      return { ok: true as const };
    },

    'app.info': () => options.app,
  };

  const router = createIpcRouter(handlers, options.isTrustedSender);

  return {
    router,
    identity,
    serverAddress,
    invoke: (channel, arg, sender) => router.handle(channel, sender, arg),
    onEvent(listener) {
      const l = listener as (event: IpcEventName, payload: unknown) => void;
      listeners.add(l);
      return () => listeners.delete(l);
    },
    navigate(path) {
      options.window?.focus();
      emit('navigate', { path });
    },
    workspaceCache: () => cache,
    syncStatus: () => status,
    async dispose() {
      await stopWorkspace();
      userStore?.close();
      userStore = null;
      listeners.clear();
      await identity.dispose();
    },
  };
}
