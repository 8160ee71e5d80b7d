// What main does for each IPC channel, one small group per area; the router validates every argument and
// answer against the contract before and after these run.
import type { AuthMe } from '../../shared';
import type { IpcChannelName } from '../../shared/ipc';
import { removeOtherUsersCaches } from '../cache/location';
import { isSafeFileId } from '../cache/sqlite';
import type { Identity } from '../identity/identity';
import { IpcError, type IpcHandlers } from '../ipc/router';
import type { ServerAddressStore } from '../server-address';
import type { UpdaterPort } from '../update/port';
import type { DesktopSession } from './session';

interface HandlerContext {
  session: DesktopSession;
  identity: Identity;
  serverAddress: ServerAddressStore;
  updater: UpdaterPort;
  userDataDir: string;
  app: { version: string; platform: string; electron: string | null; sessionNotice?: string | null };
  openExternal(url: string): Promise<void> | void;
  confirmServerChange?(origin: string): Promise<boolean>;
  onServerChanged?(origin: string): void;
}

/** The handlers of the channels named `<area>.*`. */
type HandlersOf<Area extends string> = Pick<IpcHandlers, Extract<IpcChannelName, `${Area}.${string}`>>;

const ok = { ok: true as const };

function identityHandlers({ session, identity, userDataDir }: HandlerContext): HandlersOf<'identity'> {
  return {
    'identity.signIn': async ({ email, password }) => {
      // the running sync stops first: nothing of the previous session runs under the new one
      await session.closeUser();
      let profile: Awaited<ReturnType<Identity['signIn']>>;
      try {
        profile = await identity.signIn(email, password);
      } catch (error) {
        // a failed attempt leaves the previous session as it was: reopen it
        const still = identity.current();
        if (still) await session.reopenUser(still.uid);
        throw error;
      }
      // one user's cache on this computer at a time: another user signing in removes the previous one's
      removeOtherUsersCaches(userDataDir, profile.uid);
      session.openUser(profile.uid);
      return profile;
    },
    'identity.signOut': async () => {
      const leaving = session.userId() ?? identity.current()?.uid ?? null;
      try {
        await identity.signOut();
      } finally {
        await session.wipeUser(leaving);
      }
      return ok;
    },
    'identity.currentUser': () => identity.current(),
    'identity.getIdToken': async (arg) => identity.getIdToken(arg?.forceRefresh ?? false),
    'identity.sendEmailVerification': async () => {
      await identity.sendEmailVerification();
      return ok;
    },
    'identity.reloadUser': () => identity.reloadUser(),
    'identity.sendPasswordReset': async ({ email }) => {
      await identity.sendPasswordReset(email);
      return ok;
    },
    'identity.updateProfile': (changes) => identity.updateProfile(changes),
  };
}

function serverHandlers({ identity, serverAddress, confirmServerChange, onServerChanged }: HandlerContext): HandlersOf<'server'> {
  const answer = () => ({ url: serverAddress.get(), connectSrc: serverAddress.connectSrc() });
  return {
    'server.getAddress': answer,
    'server.setAddress': async ({ url }) => {
      // The session is bound to the server it was signed in on: its tokens never go to another one.
      if (identity.current()) throw new IpcError(409, 'Sign out before you change the server address', 'signed-in');
      const origin = await serverAddress.check(url);
      if (origin !== serverAddress.get()) {
        const confirmed = confirmServerChange ? await confirmServerChange(origin) : true;
        if (!confirmed) throw new IpcError(409, 'The server address was not changed', 'cancelled');
        serverAddress.save(origin);
        onServerChanged?.(origin);
      }
      return answer();
    },
  };
}

const empty = { items: [], nextCursor: null };
const zeroCounts = { me: 0, assigned: 0, open: 0, closed: 0, unread: { me: 0, assigned: 0, open: 0, closed: 0 } };

/** Offline browsing: what the open workspace's cache holds (nothing while none is open). */
function cacheHandlers({ session }: HandlerContext): HandlersOf<'cache'> {
  return {
    'cache.listConversations': ({ tab, search, limit, cursor }) => session.cache()?.listConversations(tab, { search, limit, cursor }) ?? empty,
    'cache.conversationCounts': () => session.cache()?.counts() ?? zeroCounts,
    'cache.getMe': () => session.userStore()?.me() ?? null,
    'cache.putMe': ({ me }: { me: AuthMe }) => {
      const { store } = session.requireUser();
      if (me.currentWorkspaceId !== null && !isSafeFileId(me.currentWorkspaceId)) throw new IpcError(400, 'Not a workspace id', 'invalid-workspace');
      store.setMe(me);
      return ok;
    },
    'cache.getConversation': ({ conversationId }) => session.cache()?.conversationDetail(conversationId) ?? null,
    'cache.searchContacts': ({ search, limit, cursor }) => session.cache()?.searchContacts({ search, limit, cursor }) ?? empty,
    'cache.searchMessages': ({ search, limit }) => ({ items: session.cache()?.searchMessages(search, limit) ?? [] }),
  };
}

function syncHandlers({ session }: HandlerContext): HandlersOf<'sync'> {
  return {
    'sync.getStatus': () => session.status(),
    'sync.setWorkspace': ({ workspaceId }) => session.startWorkspace(workspaceId),
    'sync.retry': () => session.retrySync(),
  };
}

/** What gets the user's attention: notification settings, the conversation on screen, the badge. */
function attentionHandlers({ session }: HandlerContext): HandlersOf<'notifications' | 'view' | 'badge'> {
  return {
    'notifications.getSettings': () => session.requireUser().store.notificationSettings(),
    'notifications.setSettings': (changes) => session.requireUser().store.setNotificationSettings(changes),
    'view.setCurrentConversation': ({ conversationId }) => {
      session.setViewing(conversationId);
      return ok;
    },
    'badge.setUnreadCount': ({ count }) => {
      session.setBadge(count);
      return ok;
    },
  };
}

function appHandlers({ session, updater, openExternal, app }: HandlerContext): HandlersOf<'updater' | 'shell' | 'drafts' | 'app'> {
  return {
    'updater.getStatus': () => updater.status(),
    'updater.check': () => updater.check(),
    'updater.restart': () => {
      if (!updater.restart()) throw new IpcError(409, 'No update has been downloaded yet', 'no-update');
      return ok;
    },
    'shell.openExternal': async ({ url }) => {
      await openExternal(url);
      return ok;
    },
    'drafts.get': ({ conversationId }) => ({ text: session.requireUser().store.draft(conversationId) }),
    'drafts.set': ({ conversationId, text }) => {
      session.requireUser().store.setDraft(conversationId, text);
      return ok;
    },
    'app.info': () => app,
  };
}

export function ipcHandlers(context: HandlerContext): IpcHandlers {
  return {
    ...identityHandlers(context),
    ...serverHandlers(context),
    ...cacheHandlers(context),
    ...syncHandlers(context),
    ...attentionHandlers(context),
    ...appHandlers(context),
  };
}
