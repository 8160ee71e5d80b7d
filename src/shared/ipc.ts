/**
 * The desktop app's IPC contract: every channel the renderer may invoke in the main process, with zod
 * schemas for its one argument and its answer, and every event main sends to the renderer.
 *
 * - main (src/main/ipc) validates every argument with `ipcChannels[name].args` and refuses senders that are
 *   not the app's own main frame;
 * - the preload (src/preload) derives `window.desktop` from this table and nothing else:
 *   `window.desktop.<group>.<method>(arg)` for the channel `<group>.<method>`, and
 *   `window.desktop.on(event, listener)` (returns an unsubscribe function) for the events below;
 * - every call resolves to an `IpcResult` (never rejects for an expected failure), because Electron keeps only
 *   the message of an Error thrown across contextBridge; `unwrapIpcResult` turns it back into a value or a
 *   thrown `DesktopIpcError` carrying `statusCode`, `error` and `code`.
 */
import { z } from 'zod';
import { liveChatTabs } from './limits';
import { Email, Password } from './schemas/auth';
import { Id, Timestamp, pageOf } from './schemas/common';
import { AuthMe, Contact, ConversationCounts, ConversationDetail, ConversationListEntry, Message } from './schemas/entities';

// ---------- shared shapes ----------

/** No argument: the renderer calls `window.desktop.x.y()`. */
const NoArgs = z.undefined();
const Ok = z.object({ ok: z.literal(true) });

/** The signed-in user as the renderer may see it (no tokens). */
export const DesktopProfile = z.object({
  uid: z.string(),
  email: z.string().nullable(),
  emailVerified: z.boolean(),
  displayName: z.string().nullable(),
  photoURL: z.string().nullable(),
});
export type DesktopProfile = z.infer<typeof DesktopProfile>;

/**
 * The profile of a signed-in Firebase user (main's session and the web page's alike): only these fields, never
 * the User object itself, which carries its tokens. Typed by shape, so shared needs no firebase import.
 */
export function toProfile(user: Readonly<DesktopProfile> | null): DesktopProfile | null {
  if (!user) return null;
  return { uid: user.uid, email: user.email, emailVerified: user.emailVerified, displayName: user.displayName, photoURL: user.photoURL };
}

/** A short-lived Firebase ID token (about an hour); the refresh token never leaves main. */
export const IdTokenAnswer = z.object({ token: z.string(), expiresAt: Timestamp });

/** The server the desktop app talks to: an http(s) origin (path, query and credentials are refused). */
export const ServerAddress = z
  .string()
  .trim()
  .max(2048)
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && !url.search && !url.hash;
      } catch {
        return false;
      }
    },
    { error: 'Enter the server address as http(s)://host[:port]' },
  );

export const ServerAddressAnswer = z.object({
  /** null until the user sets one and no build-time default exists */
  url: z.string().nullable(),
  /** the CSP connect-src origins derived from `url` (the renderer's CSP is rebuilt from them) */
  connectSrc: z.array(z.string()),
});

export const LiveChatTab = z.enum(liveChatTabs);


export const SyncState = z.enum(['signedOut', 'syncing', 'live', 'offline', 'error']);
export const SyncStatus = z.object({
  state: SyncState,
  /** whether the server answered last time main tried (false: the renderer browses the cache read-only) */
  online: z.boolean(),
  workspaceId: Id.nullable(),
  /** last workspace event sequence applied to the cache */
  lastSeq: z.number().int().min(0),
  /** when the cache last finished a full sync */
  lastSyncedAt: Timestamp.nullable(),
  /** human-readable reason for `error` / `offline` */
  message: z.string().nullable(),
});
export type SyncStatus = z.infer<typeof SyncStatus>;

export const NotificationKind = z.enum(['newConversation', 'inboundMessage', 'assignedToMe']);
export type NotificationKind = z.infer<typeof NotificationKind>;
export const NotificationSettings = z.object({
  newConversation: z.boolean(),
  inboundMessage: z.boolean(),
  assignedToMe: z.boolean(),
});
export type NotificationSettings = z.infer<typeof NotificationSettings>;

export const UpdateState = z.enum(['idle', 'checking', 'upToDate', 'available', 'downloading', 'downloaded', 'error', 'unsupported']);
export const UpdateStatus = z.object({
  state: UpdateState,
  currentVersion: z.string(),
  /** the version offered (available / downloading / downloaded) */
  version: z.string().nullable(),
  /** 0..100 while downloading */
  percent: z.number().min(0).max(100).nullable(),
  releaseNotes: z.string().nullable(),
  /** what the UI shows for `error` / `unsupported` */
  message: z.string().nullable(),
  checkedAt: Timestamp.nullable(),
});
export type UpdateStatus = z.infer<typeof UpdateStatus>;

const SearchText = z.string().trim().max(200);
const CacheLimit = z.number().int().min(1).max(200);
/** Offset cursor of cache lists (a decimal string, as REST cursors are strings). */
const CacheCursor = z.string().regex(/^\d{1,9}$/);
export const DraftText = z.string().max(4096);

// ---------- channels (renderer -> main, invoke) ----------

function channel<A extends z.ZodType, R extends z.ZodType>(args: A, result: R) {
  return { args, result };
}

export const ipcChannels = {
  // identity: the firebase session lives in main; sign-up stays a REST call, after which the renderer signs in here
  'identity.signIn': channel(z.strictObject({ email: Email, password: Password }), DesktopProfile),
  'identity.signOut': channel(NoArgs, Ok),
  'identity.currentUser': channel(NoArgs, DesktopProfile.nullable()),
  'identity.getIdToken': channel(z.strictObject({ forceRefresh: z.boolean().optional() }).optional(), IdTokenAnswer),
  'identity.sendEmailVerification': channel(NoArgs, Ok),
  /** reloads the profile from Firebase (e.g. after the user clicked the verification link) */
  'identity.reloadUser': channel(NoArgs, DesktopProfile.nullable()),
  'identity.sendPasswordReset': channel(z.strictObject({ email: Email }), Ok),
  /** display name and photo (Settings > Profile); emits `identity.changed` */
  'identity.updateProfile': channel(
    z.strictObject({
      displayName: z.string().trim().max(120).nullable().optional(),
      photoURL: z.url({ protocol: /^https?$/ }).max(2048).nullable().optional(),
    }),
    DesktopProfile,
  ),

  // server address (desktop only: web mode is served by its server)
  'server.getAddress': channel(NoArgs, ServerAddressAnswer),
  /** checks `${url}/healthz` before remembering it; answers 400 (bad address) or 503 (no Parley server there) */
  'server.setAddress': channel(z.strictObject({ url: ServerAddress }), ServerAddressAnswer),

  // the local cache, for offline browsing (read-only)
  'cache.listConversations': channel(
    z.strictObject({ tab: LiveChatTab, search: SearchText.optional(), limit: CacheLimit.optional(), cursor: CacheCursor.optional() }),
    pageOf(ConversationListEntry),
  ),
  /** the same shape as GET /workspace/{id}/conversations/counts, computed from the cache */
  'cache.conversationCounts': channel(NoArgs, ConversationCounts),
  /** the signed-in member as last seen online (GET /auth/me), so an offline start passes the signed-in guard */
  'cache.getMe': channel(NoArgs, AuthMe.nullable()),
  /** the renderer hands main every fresh GET /auth/me answer; kept in the user's cache (wiped at sign-out) */
  'cache.putMe': channel(z.strictObject({ me: AuthMe }), Ok),
  /** null when the conversation is not in the cache; `ConversationEvent` is empty (events are not cached) */
  'cache.getConversation': channel(z.strictObject({ conversationId: Id }), ConversationDetail.nullable()),
  /** full-text (FTS5): every word of `search` must match the start of a word of name, phone, e-mail, city, tags */
  'cache.searchContacts': channel(
    z.strictObject({ search: SearchText.optional(), limit: CacheLimit.optional(), cursor: CacheCursor.optional() }),
    pageOf(Contact),
  ),
  'cache.searchMessages': channel(z.strictObject({ search: SearchText.min(1), limit: CacheLimit.optional() }), z.object({ items: z.array(Message) })),

  // sync and connectivity
  'sync.getStatus': channel(NoArgs, SyncStatus),
  /** the workspace the renderer works in (main caches and streams that one); call it after a workspace switch */
  'sync.setWorkspace': channel(z.strictObject({ workspaceId: Id }), SyncStatus),
  /** try the server now (the offline banner's "Retry") */
  'sync.retry': channel(NoArgs, SyncStatus),

  // notifications
  'notifications.getSettings': channel(NoArgs, NotificationSettings),
  'notifications.setSettings': channel(NotificationSettings.partial().strict(), NotificationSettings),
  /** the conversation open in the window (null: none); no notification is shown for it while the window is focused */
  'view.setCurrentConversation': channel(z.strictObject({ conversationId: Id.nullable() }), Ok),

  /** the renderer's unread count (it knows first when the agent opens a conversation); drives badge and tray */
  'badge.setUnreadCount': channel(z.strictObject({ count: z.number().int().min(0).max(1_000_000) }), Ok),

  // auto-update
  'updater.getStatus': channel(NoArgs, UpdateStatus),
  'updater.check': channel(NoArgs, UpdateStatus),
  /** quits and installs a downloaded update ("Restart to update"); 409 when none is downloaded */
  'updater.restart': channel(NoArgs, Ok),

  /** http(s) links only; anything else is refused with 400 */
  'shell.openExternal': channel(z.strictObject({ url: z.url({ protocol: /^https?$/ }).max(2048) }), Ok),

  // drafts: what the agent typed in a conversation's composer, kept across restarts and offline
  'drafts.get': channel(z.strictObject({ conversationId: Id }), z.object({ text: z.string() })),
  'drafts.set': channel(z.strictObject({ conversationId: Id, text: DraftText }), Ok),

  'app.info': channel(
    NoArgs,
    z.object({
      version: z.string(),
      platform: z.string(),
      electron: z.string().nullable(),
      /** set when no OS keychain answered: the session lasts for this run only (the account menu says so) */
      sessionNotice: z.string().max(200).nullable().optional(),
    }),
  ),
} as const;

export type IpcChannels = typeof ipcChannels;
export type IpcChannelName = keyof IpcChannels;
export const ipcChannelNames = Object.keys(ipcChannels) as IpcChannelName[];
export type IpcArgs<C extends IpcChannelName> = z.input<IpcChannels[C]['args']>;
export type IpcParsedArgs<C extends IpcChannelName> = z.output<IpcChannels[C]['args']>;
export type IpcAnswer<C extends IpcChannelName> = z.output<IpcChannels[C]['result']>;

// ---------- events (main -> renderer) ----------

export const ipcEvents = {
  /** sign-in, sign-out, session restored at start, e-mail verified */
  'identity.changed': DesktopProfile.nullable(),
  /** cache and connectivity state; `online: false` shows the offline banner */
  'sync.status': SyncStatus,
  /** the cache changed (stream event applied, sync finished): the renderer refetches what it shows */
  'cache.changed': z.object({
    conversationIds: z.array(Id),
    contacts: z.boolean(),
    /** true after a full (re)sync: everything may have changed */
    full: z.boolean(),
  }),
  /** open a route: notification click, parley:// deep link (always `/live-chat/{id}` or `/`) */
  'navigate': z.object({ path: z.string().regex(/^\/[A-Za-z0-9/_-]*$/).max(256) }),
  'updater.status': UpdateStatus,
  'badge.unread': z.object({ count: z.number().int().min(0) }),
} as const;

export type IpcEvents = typeof ipcEvents;
export type IpcEventName = keyof IpcEvents;
export const ipcEventNames = Object.keys(ipcEvents) as IpcEventName[];
export type IpcEventPayload<E extends IpcEventName> = z.output<IpcEvents[E]>;

/** Electron channel names: prefixed so nothing else on ipcMain/ipcRenderer collides with the contract. */
export const ipcInvokePrefix = 'parley:invoke:';
export const ipcEventPrefix = 'parley:event:';

// ---------- answers ----------

export const IpcFailure = z.object({
  statusCode: z.number().int(),
  /** human-readable, shown as is */
  message: z.string(),
  /** HTTP reason phrase for statusCode ("Bad Request", "Unauthorized", ...) */
  error: z.string(),
  /** machine-readable reason when there is one (e.g. `auth/invalid-credential`, `offline`) */
  code: z.string().nullable(),
});
export type IpcFailure = z.infer<typeof IpcFailure>;

export type IpcResult<T> = { ok: true; value: T } | { ok: false; failure: IpcFailure };

export class DesktopIpcError extends Error {
  readonly statusCode: number;
  readonly error: string;
  readonly code: string | null;
  constructor(failure: IpcFailure) {
    super(failure.message);
    this.name = 'DesktopIpcError';
    this.statusCode = failure.statusCode;
    this.error = failure.error;
    this.code = failure.code;
  }
}

/** The value of a successful call, or throws a DesktopIpcError. */
export function unwrapIpcResult<T>(result: IpcResult<T>): T {
  if (result.ok) return result.value;
  throw new DesktopIpcError(result.failure);
}

// ---------- window.desktop, as the preload exposes it ----------

type Group<N> = N extends `${infer G}.${string}` ? G : never;
type Method<N, G extends string> = N extends `${G}.${infer M}` ? M : never;
type Call<C extends IpcChannelName> = undefined extends IpcArgs<C>
  ? (arg?: IpcArgs<C>) => Promise<IpcResult<IpcAnswer<C>>>
  : (arg: IpcArgs<C>) => Promise<IpcResult<IpcAnswer<C>>>;

export type DesktopApi = {
  [G in Group<IpcChannelName>]: { [M in Method<IpcChannelName, G>]: Call<Extract<`${G}.${M}`, IpcChannelName>> };
} & {
  /** subscribes to a main-process event; returns the unsubscribe function */
  on<E extends IpcEventName>(event: E, listener: (payload: IpcEventPayload<E>) => void): () => void;
};

/** `group.method` -> ['group', 'method'] (the preload's nesting). */
export function splitChannelName(name: IpcChannelName): [string, string] {
  const dot = name.indexOf('.');
  return [name.slice(0, dot), name.slice(dot + 1)];
}
