// The desktop app's main-process core: identity, server address, cache and sync, notifications, badge,
// drafts and updater behind the IPC contract. Plain Node: Electron objects come in as small adapters, so
// the same core runs in the app (src/main/index.ts) and in tests / the desktop e2e suite. The steps live in
// core/: the event hub, the signed-in user's session, and the IPC handlers.
import type { IpcEventName, IpcEventPayload, IpcResult, SyncStatus } from '../shared/ipc';
import { removeStaleCaches } from './cache/location';
import { createServerApi } from './cache/server-api';
import type { WorkspaceCache } from './cache/workspace-cache';
import { createEventHub, type Emit } from './core/events';
import { ipcHandlers } from './core/ipc-handlers';
import { DesktopSession } from './core/session';
import { createIdentity, type FirebaseSettings, type Identity } from './identity/identity';
import type { SecretStore } from './identity/keychain';
import { createIpcRouter, type IpcRouter, type IpcSender } from './ipc/router';
import type { NotificationAdapter } from './notify/notifier';
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

/** The server address store, after removing caches nobody used for a long time. */
function openServerAddress(options: DesktopCoreOptions, log: (line: string) => void): ServerAddressStore {
  const serverAddress = serverAddressStore({
    userDataDir: options.userDataDir,
    projectId: options.firebase.projectId,
    defaultUrl: options.defaultServerUrl,
    fetch: options.fetch,
  });
  for (const uid of removeStaleCaches(options.userDataDir)) log(`removed the cache of ${uid}: not used for a long time`);
  return serverAddress;
}

/** The session of whoever is signed in, following the identity: a session that ends by itself is wiped. */
function openSession(options: DesktopCoreOptions, identity: Identity, serverAddress: ServerAddressStore, emit: Emit, log: (line: string) => void) {
  // Tokens go only to the server the session was signed in on: the address cannot change while signed in
  // ('server.setAddress'), and this is the one place the sync reads it from.
  const api = createServerApi({
    baseUrl: () => serverAddress.get(),
    idToken: async (force) => (await identity.getIdToken(force)).token,
    fetch: options.fetch,
  });
  const session = new DesktopSession({
    userDataDir: options.userDataDir,
    api,
    identity,
    emit,
    log,
    notifications: options.notifications,
    window: options.window,
    setBadge: options.setBadge,
    sync: options.sync,
  });
  identity.onChange((profile) => {
    emit('identity.changed', profile);
    // sign-in opens the user in its handler; a session that ends by itself (revoked) closes and wipes it here
    const uid = session.userId();
    if (!profile && uid) void session.wipeUser(uid);
  });
  return session;
}

export async function createDesktopCore(options: DesktopCoreOptions): Promise<DesktopCore> {
  const log = options.log ?? ((line: string) => console.warn(`[parley] ${line}`));
  const events = createEventHub();
  const serverAddress = openServerAddress(options, log);
  const updater = options.updater ?? noUpdater(options.app.version);
  updater.onStatus((status) => events.emit('updater.status', status));
  const identity = await createIdentity({ firebase: options.firebase, keychain: options.keychain, appName: options.firebaseAppName });
  const session = openSession(options, identity, serverAddress, events.emit, log);

  // A restored session: open the user's cache and follow the workspace it last worked in (notifications
  // and the badge work before the renderer asks for anything). Whatever is wrong with what was stored, the
  // app starts: a workspace that cannot be opened is forgotten, never retried on every launch.
  const restored = identity.current();
  if (restored) await session.reopenUser(restored.uid);

  const router = createIpcRouter(
    ipcHandlers({
      session,
      identity,
      serverAddress,
      updater,
      userDataDir: options.userDataDir,
      app: options.app,
      openExternal: options.openExternal,
      confirmServerChange: options.confirmServerChange,
      onServerChanged: options.onServerChanged,
    }),
    options.isTrustedSender,
  );

  return {
    router,
    identity,
    serverAddress,
    invoke: (channel, arg, sender) => router.handle(channel, sender, arg),
    onEvent: events.onEvent,
    navigate(path) {
      options.window?.focus();
      events.emit('navigate', { path });
    },
    workspaceCache: () => session.cache(),
    syncStatus: () => session.status(),
    async dispose() {
      await session.dispose();
      events.clear();
      await identity.dispose();
    },
  };
}
