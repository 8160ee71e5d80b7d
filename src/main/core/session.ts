// The signed-in user on this computer (one at a time): their store, the open workspace's cache and its sync,
// the sync status, the conversation on screen and the unread badge. The IPC handlers and the identity's
// changes drive it; it tells the renderer through the event hub.
import type { WorkspaceEvent } from '../../shared';
import type { SyncStatus } from '../../shared/ipc';
import { removeUserCache, removeWorkspaceCache, userStoreFile, workspaceCacheExpired, workspaceCacheFile } from '../cache/location';
import type { ServerApi } from '../cache/server-api';
import { isSafeFileId } from '../cache/sqlite';
import { createSync, type Sync } from '../cache/sync';
import { UserStore } from '../cache/user-store';
import { WorkspaceCache } from '../cache/workspace-cache';
import type { Identity } from '../identity/identity';
import { IpcError } from '../ipc/router';
import { decideNotifications } from '../notify/decide';
import { type NotificationAdapter, noticeClickPath } from '../notify/notifier';
import type { Emit } from './events';

const signedOutStatus: SyncStatus = { state: 'signedOut', online: true, workspaceId: null, lastSeq: 0, lastSyncedAt: null, message: null };

interface SessionDeps {
  userDataDir: string;
  api: ServerApi;
  identity: Pick<Identity, 'signOut'>;
  emit: Emit;
  log: (line: string) => void;
  notifications: NotificationAdapter;
  window?: { isFocused(): boolean; focus(): void };
  setBadge?(count: number): void;
  sync?: { retryDelayMs?: [number, number]; conversationsWithMessages?: number };
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The workspace's cache file opened; too large, or not synced for too long: removed and started afresh. */
function openWorkspaceCache(file: string): WorkspaceCache {
  const opened = new WorkspaceCache(file);
  if (!workspaceCacheExpired(file, opened.lastSyncedAt)) return opened;
  opened.close();
  removeWorkspaceCache(file);
  return new WorkspaceCache(file);
}

export class DesktopSession {
  private uid: string | null = null;
  private store: UserStore | null = null;
  private openCache: WorkspaceCache | null = null;
  private sync: Sync | null = null;
  private syncStatus: SyncStatus = signedOutStatus;
  private viewing: string | null = null;
  private badge = 0;
  /** the last workspace switch (startWorkspace), settled */
  private switching: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: SessionDeps) {}

  userId(): string | null {
    return this.uid;
  }

  userStore(): UserStore | null {
    return this.store;
  }

  cache(): WorkspaceCache | null {
    return this.openCache;
  }

  status(): SyncStatus {
    return this.syncStatus;
  }

  requireUser(): { uid: string; store: UserStore } {
    if (!this.uid || !this.store) throw new IpcError(401, 'Not signed in', 'signed-out');
    return { uid: this.uid, store: this.store };
  }

  setBadge(count: number): void {
    if (count === this.badge) return;
    this.badge = count;
    this.deps.setBadge?.(count);
    this.deps.emit('badge.unread', { count });
  }

  /** The conversation on screen: it is read, and a message in it is no notice. */
  setViewing(conversationId: string | null): void {
    this.viewing = conversationId;
    if (conversationId && this.openCache?.setUnread(conversationId, false)) this.setBadge(this.openCache.badgeCount());
  }

  retrySync(): SyncStatus {
    this.sync?.retry();
    return this.syncStatus;
  }

  openUser(profileUid: string): void {
    if (this.uid === profileUid) return;
    this.uid = profileUid;
    this.store = new UserStore(userStoreFile(this.deps.userDataDir, profileUid));
  }

  async closeUser(): Promise<void> {
    await this.stopWorkspace();
    this.store?.close();
    this.store = null;
    this.uid = null;
    this.viewing = null;
    this.setBadge(0);
    this.setStatus(signedOutStatus);
  }

  /** Closes the user and removes everything cached for it, whatever fails on the way. */
  async wipeUser(leaving: string | null): Promise<void> {
    try {
      await this.closeUser();
    } finally {
      if (leaving) removeUserCache(this.deps.userDataDir, leaving);
    }
  }

  /** Opens a signed-in user's cache and follows the workspace it last worked in; a bad stored value never stops it. */
  async reopenUser(profileUid: string): Promise<void> {
    this.openUser(profileUid);
    const workspaceId = this.store?.me()?.currentWorkspaceId;
    if (!workspaceId) return;
    try {
      await this.startWorkspace(workspaceId);
    } catch (error) {
      this.deps.log(`could not reopen workspace ${JSON.stringify(workspaceId)}: ${errorText(error)}`);
      await this.stopWorkspace();
      this.setStatus(signedOutStatus);
    }
  }

  /**
   * Follows `workspaceId`: the open workspace's sync stops, its file closes, and this workspace's own file opens
   * and syncs (incrementally from its last sequence when it was synced before). Switches run one after another:
   * a quick switch there and back never leaves two caches open or the wrong one followed.
   */
  startWorkspace(workspaceId: string): Promise<SyncStatus> {
    const run = this.switching.then(() => this.switchWorkspace(workspaceId));
    this.switching = run.catch(() => undefined);
    return run;
  }

  private async switchWorkspace(workspaceId: string): Promise<SyncStatus> {
    const { uid, store } = this.requireUser();
    if (this.sync && this.openCache && this.syncStatus.workspaceId === workspaceId) return this.syncStatus;
    if (!isSafeFileId(workspaceId)) throw new IpcError(400, 'Not a workspace id', 'invalid-workspace');
    await this.stopWorkspace();
    const file = workspaceCacheFile(this.deps.userDataDir, uid, workspaceId);
    const opened = openWorkspaceCache(file);
    this.openCache = opened;
    this.viewing = null;
    // the badge and a restart follow the workspace now open (before its sync says anything)
    this.setBadge(opened.badgeCount());
    this.rememberWorkspace(store, workspaceId);
    this.syncStatus = { ...signedOutStatus, state: 'syncing', workspaceId, lastSeq: opened.lastSeq, lastSyncedAt: opened.lastSyncedAt };
    this.sync = this.createSync({ uid, store, workspaceId, file, opened });
    this.sync.start();
    this.setStatus(this.sync.status());
    return this.syncStatus;
  }

  /** The stored member record names the workspace followed, so the next start (even offline) reopens it. */
  private rememberWorkspace(store: UserStore, workspaceId: string): void {
    const me = store.me();
    if (me && me.currentWorkspaceId !== workspaceId && me.workspaceIds.includes(workspaceId)) store.setMe({ ...me, currentWorkspaceId: workspaceId });
  }

  async stopWorkspace(): Promise<void> {
    const running = this.sync;
    this.sync = null;
    await running?.stop();
    this.openCache?.close();
    this.openCache = null;
  }

  async dispose(): Promise<void> {
    await this.stopWorkspace();
    this.store?.close();
    this.store = null;
  }

  private setStatus(next: SyncStatus): void {
    this.syncStatus = next;
    this.deps.emit('sync.status', next);
  }

  /** The sync of the workspace just opened; what it reports counts only while its cache is still the open one. */
  private createSync(run: { uid: string; store: UserStore; workspaceId: string; file: string; opened: WorkspaceCache }): Sync {
    const { uid, store, workspaceId, file, opened } = run;
    const current = () => this.openCache === opened;
    return createSync({
      api: this.deps.api,
      cache: opened,
      workspaceId,
      viewing: () => this.viewing,
      retryDelayMs: this.deps.sync?.retryDelayMs,
      conversationsWithMessages: this.deps.sync?.conversationsWithMessages,
      log: this.deps.log,
      onStatus: (next) => {
        if (current()) this.setStatus(next);
      },
      // a workspace id that cannot name a cache file is not remembered (it would stop every later start)
      onMe: (me) => store.setMe(isSafeFileId(me.currentWorkspaceId) ? me : { ...me, currentWorkspaceId: null }),
      onAccessDenied: (code) => {
        if (current()) this.accessDenied(code, uid, workspaceId, file);
      },
      onEvents: (events, before) => this.notify(events, before, store),
      onChange: (change) => {
        if (!current()) return;
        this.deps.emit('cache.changed', { conversationIds: change.conversationIds, contacts: change.contacts, full: change.full });
        this.setBadge(opened.badgeCount());
      },
    });
  }

  /** 403: this user may no longer read this workspace; 401 even with a fresh token: the session is dead. */
  private accessDenied(code: 401 | 403, uid: string, workspaceId: string, file: string): void {
    if (code === 401) {
      void this.endSession(uid, 'the server refused the session');
      return;
    }
    void this.stopWorkspace().then(() => {
      removeWorkspaceCache(file);
      this.setStatus({ ...signedOutStatus, state: 'error', workspaceId, message: 'You no longer have access to this workspace' });
    });
  }

  /** A session that ended without the user signing out (revoked, disabled, refused): sign out, wipe the cache. */
  private async endSession(leaving: string, why: string): Promise<void> {
    if (this.uid !== leaving) return;
    this.deps.log(`session ended: ${why}; the cache of this user is removed`);
    try {
      await this.deps.identity.signOut().catch(() => undefined);
    } finally {
      await this.wipeUser(leaving);
    }
  }

  /** Native notifications for stream events about to be applied (the cache still holds the state before them). */
  private notify(events: readonly WorkspaceEvent[], before: WorkspaceCache, store: UserStore): void {
    const notices = decideNotifications(events, before, {
      memberId: before.memberId,
      settings: store.notificationSettings(),
      viewing: { conversationId: this.viewing, focused: this.deps.window?.isFocused() ?? false },
    });
    for (const notice of notices) {
      this.deps.notifications.show(notice, () => {
        // whatever the server sent as an id, a click never throws in main: an odd id opens the inbox
        try {
          this.deps.window?.focus();
          this.deps.emit('navigate', { path: noticeClickPath(notice.conversationId) });
        } catch (error) {
          this.deps.log(`notification click: ${errorText(error)}`);
        }
      });
    }
  }
}
