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
import {
  removeOtherUsersCaches,
  removeStaleCaches,
  removeUserCache,
  removeWorkspaceCache,
  userStoreFile,
  workspaceCacheExpired,
  workspaceCacheFile,
} from './cache/location';
import { createServerApi } from './cache/server-api';
import { isSafeFileId } from './cache/sqlite';
import { createSync, type Sync } from './cache/sync';
import { UserStore } from './cache/user-store';
import { WorkspaceCache } from './cache/workspace-cache';
import { createIdentity, type FirebaseSettings, type Identity } from './identity/identity';
import type { SecretStore } from './identity/keychain';
import { createIpcRouter, IpcError, type IpcHandlers, type IpcRouter, type IpcSender } from './ipc/router';
import { decideNotifications } from './notify/decide';
import { type NotificationAdapter, noticeClickPath } from './notify/notifier';
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
  app: { version: string; platform: string; electron: string | null; sessionNotice?: string | null };
  /** which senders may call (appSenderCheck(appEntryUrl)); the e2e suite passes its page's check */
  isTrustedSender(sender: IpcSender): boolean;
  /**
   * asks the user (a native dialog from main) before a new server address is saved; false keeps the old one.
   * Without it (tests) the change is taken as confirmed.
   */
  confirmServerChange?(origin: string): Promise<boolean>;
  /** a new server address was saved: the app reloads its page so the CSP header names the new server */
  onServerChanged?(origin: string): void;
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

  const serverAddress = serverAddressStore({
    userDataDir: options.userDataDir,
    projectId: options.firebase.projectId,
    defaultUrl: options.defaultServerUrl,
    fetch: options.fetch,
  });
  for (const uid of removeStaleCaches(options.userDataDir)) log(`removed the cache of ${uid}: not used for a long time`);
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

  /** Closes the user and removes everything cached for it, whatever fails on the way. */
  async function wipeUser(leaving: string | null): Promise<void> {
    try {
      await closeUser();
    } finally {
      if (leaving) removeUserCache(options.userDataDir, leaving);
    }
  }

  // Tokens go only to the server the session was signed in on: the address cannot change while signed in
  // ('server.setAddress'), and this is the one place the sync reads it from.
  const api = createServerApi({
    baseUrl: () => serverAddress.get(),
    idToken: async (force) => (await identity.getIdToken(force)).token,
    fetch: options.fetch,
  });

  async function startWorkspace(workspaceId: string): Promise<SyncStatus> {
    const { uid: user, store } = requireUser();
    if (sync && cache && status.workspaceId === workspaceId) return status;
    if (!isSafeFileId(workspaceId)) throw new IpcError(400, 'Not a workspace id', 'invalid-workspace');
    await stopWorkspace();
    const file = workspaceCacheFile(options.userDataDir, user, workspaceId);
    let opened = new WorkspaceCache(file);
    if (workspaceCacheExpired(file, opened.lastSyncedAt)) {
      // too large, or not synced for too long: start over with a fresh full sync
      opened.close();
      removeWorkspaceCache(file);
      opened = new WorkspaceCache(file);
    }
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
      // a workspace id that cannot name a cache file is not remembered (it would stop every later start)
      onMe: (me) => store.setMe(isSafeFileId(me.currentWorkspaceId) ? me : { ...me, currentWorkspaceId: null }),
      onAccessDenied: (code) => {
        if (cache !== opened) return;
        // 403: this user may no longer read this workspace; 401 even with a fresh token: the session is dead.
        if (code === 401) {
          void endSession(user, 'the server refused the session');
          return;
        }
        void stopWorkspace().then(() => {
          removeWorkspaceCache(file);
          setStatus({ ...signedOutStatus, state: 'error', workspaceId, message: 'You no longer have access to this workspace' });
        });
      },
      onEvents: (events, before) => {
        const notices = decideNotifications(events, before, {
          memberId: before.memberId,
          settings: store.notificationSettings(),
          viewing: { conversationId: viewing, focused: options.window?.isFocused() ?? false },
        });
        for (const notice of notices) {
          options.notifications.show(notice, () => {
            // whatever the server sent as an id, a click never throws in main: an odd id opens the inbox
            try {
              options.window?.focus();
              emit('navigate', { path: noticeClickPath(notice.conversationId) });
            } catch (error) {
              log(`notification click: ${error instanceof Error ? error.message : String(error)}`);
            }
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

  /** Opens a signed-in user's cache and follows the workspace it last worked in; a bad stored value never stops it. */
  async function reopenUser(profileUid: string): Promise<void> {
    openUser(profileUid);
    const workspaceId = userStore?.me()?.currentWorkspaceId;
    if (!workspaceId) return;
    try {
      await startWorkspace(workspaceId);
    } catch (error) {
      log(`could not reopen workspace ${JSON.stringify(workspaceId)}: ${error instanceof Error ? error.message : String(error)}`);
      await stopWorkspace();
      setStatus(signedOutStatus);
    }
  }

  /** A session that ended without the user signing out (revoked, disabled, refused): sign out, wipe the cache. */
  async function endSession(leaving: string, why: string): Promise<void> {
    if (uid !== leaving) return;
    log(`session ended: ${why}; the cache of this user is removed`);
    try {
      await identity.signOut().catch(() => undefined);
    } finally {
      await wipeUser(leaving);
    }
  }

  identity.onChange((profile) => {
    emit('identity.changed', profile);
    // sign-in opens the user in its handler; a session that ends by itself (revoked) closes and wipes it here
    if (!profile && uid) void wipeUser(uid);
  });

  // A restored session: open the user's cache and follow the workspace it last worked in (notifications
  // and the badge work before the renderer asks for anything). Whatever is wrong with what was stored, the
  // app starts: a workspace that cannot be opened is forgotten, never retried on every launch.
  const restored = identity.current();
  if (restored) await reopenUser(restored.uid);

  const empty = { items: [], nextCursor: null };
  const zeroCounts = { me: 0, assigned: 0, open: 0, closed: 0, unread: { me: 0, assigned: 0, open: 0, closed: 0 } };

  const handlers: IpcHandlers = {
    'identity.signIn': async ({ email, password }) => {
      // the running sync stops first: nothing of the previous session runs under the new one
      await closeUser();
      let profile: Awaited<ReturnType<Identity['signIn']>>;
      try {
        profile = await identity.signIn(email, password);
      } catch (error) {
        // a failed attempt leaves the previous session as it was: reopen it
        const still = identity.current();
        if (still) await reopenUser(still.uid);
        throw error;
      }
      // one user's cache on this computer at a time: another user signing in removes the previous one's
      removeOtherUsersCaches(options.userDataDir, profile.uid);
      openUser(profile.uid);
      return profile;
    },
    'identity.signOut': async () => {
      const leaving = uid ?? identity.current()?.uid ?? null;
      try {
        await identity.signOut();
      } finally {
        await wipeUser(leaving);
      }
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
      // The session is bound to the server it was signed in on: its tokens never go to another one.
      if (identity.current()) throw new IpcError(409, 'Sign out before you change the server address', 'signed-in');
      const origin = await serverAddress.check(url);
      if (origin !== serverAddress.get()) {
        const confirmed = options.confirmServerChange ? await options.confirmServerChange(origin) : true;
        if (!confirmed) throw new IpcError(409, 'The server address was not changed', 'cancelled');
        serverAddress.save(origin);
        options.onServerChanged?.(origin);
      }
      return { url: serverAddress.get(), connectSrc: serverAddress.connectSrc() };
    },

    'cache.listConversations': ({ tab, search, limit, cursor }) => cache?.listConversations(tab, { search, limit, cursor }) ?? empty,
    'cache.conversationCounts': () => cache?.counts() ?? zeroCounts,
    'cache.getMe': () => (userStore ? userStore.me() : null),
    'cache.putMe': ({ me }: { me: AuthMe }) => {
      const { store } = requireUser();
      if (me.currentWorkspaceId !== null && !isSafeFileId(me.currentWorkspaceId)) throw new IpcError(400, 'Not a workspace id', 'invalid-workspace');
      store.setMe(me);
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
