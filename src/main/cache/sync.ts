// Keeps one workspace's cache current: a full sync through the REST lists (first start, and whenever the
// stream says `reset`), then the workspace event stream, resuming after the last sequence applied. When the
// server cannot be reached it reports offline and retries with a backoff (or at once on retry()).
import type { AuthMe, WorkspaceEvent as WorkspaceEventT } from '../../shared';
import type { SyncStatus } from '../../shared/ipc';
import { fullSync } from './full-sync';
import { connectOnce } from './live-stream';
import { ServerAnswerError, type ServerApi } from './server-api';
import type { CacheChange, WorkspaceCache } from './workspace-cache';

export interface SyncOptions {
  api: ServerApi;
  cache: WorkspaceCache;
  workspaceId: string;
  /** the cache changed (after events were applied or a full sync finished) */
  onChange?: (change: CacheChange & { full: boolean }) => void;
  onStatus?: (status: SyncStatus) => void;
  /** stream events about to be applied (the cache still holds the state before them): the notifier */
  onEvents?: (events: readonly WorkspaceEventT[], cacheBefore: WorkspaceCache) => void;
  /** the member record seen during a full sync */
  onMe?: (me: AuthMe) => void;
  /**
   * the server answered 401 (even with a fresh token) or 403 for this workspace: the sync has stopped for good
   * and the owner wipes what it cached (src/main/core.ts)
   */
  onAccessDenied?: (status: 401 | 403) => void;
  /** the conversation the agent is looking at (a message in it is not unread) */
  viewing?: () => string | null;
  /** how many of the newest conversations get their messages in a full sync */
  conversationsWithMessages?: number;
  /** reconnect backoff: first, max (ms) */
  retryDelayMs?: [number, number];
  log?: (line: string) => void;
  now?: () => Date;
}

export interface Sync {
  start(): void;
  /** try the server now (after an offline period) */
  retry(): void;
  status(): SyncStatus;
  /** runs one full sync now (tests and benchmarks; start() does it on its own) */
  fullSync(): Promise<void>;
  /** applies a batch of events as the stream would */
  apply(events: readonly WorkspaceEventT[]): CacheChange;
  stop(): Promise<void>;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** 401 or 403: the server will not let this workspace be read again with this session. */
const accessDenied = (error: unknown): error is ServerAnswerError & { status: 401 | 403 } =>
  error instanceof ServerAnswerError && (error.status === 401 || error.status === 403);

/** The status after a failed connection: offline when the server cannot be reached (or failed), else an error. */
function failedStatus(error: unknown): Partial<SyncStatus> {
  const offline = !(error instanceof ServerAnswerError) || error.status >= 500;
  return { state: offline ? 'offline' : 'error', online: !offline, message: offline ? 'The server cannot be reached' : errorText(error) };
}

export function createSync(options: SyncOptions): Sync {
  const { api, cache, workspaceId, onChange, onStatus, onEvents, onMe, viewing = () => null, log = () => undefined } = options;
  const [firstDelay, maxDelay] = options.retryDelayMs ?? [1000, 60_000];
  const now = options.now ?? (() => new Date());

  let state: SyncStatus = {
    state: 'syncing',
    online: true,
    workspaceId,
    lastSeq: cache.lastSeq,
    lastSyncedAt: cache.lastSyncedAt,
    message: null,
  };
  const setStatus = (changes: Partial<SyncStatus>) => {
    const next = { ...state, ...changes, lastSeq: cache.lastSeq, lastSyncedAt: cache.lastSyncedAt };
    const changed = JSON.stringify(next) !== JSON.stringify(state);
    state = next;
    if (changed) onStatus?.(state);
  };

  let running = false;
  let controller: AbortController | null = null;
  let wake: (() => void) | null = null;
  let loop: Promise<void> | null = null;

  const full = () => fullSync({ api, cache, workspaceId, conversationsWithMessages: options.conversationsWithMessages ?? 50, onMe, onChange, now });

  function apply(events: readonly WorkspaceEventT[]): CacheChange {
    const last = cache.lastSeq;
    const fresh = events.filter((e) => e.seq > last);
    if (fresh.length === 0) return { conversationIds: [], contacts: false };
    onEvents?.(fresh, cache);
    const change = cache.applyEvents(fresh, viewing());
    if (change.conversationIds.length || change.contacts) onChange?.({ ...change, full: false });
    return change;
  }

  /** Waits `delay` ms, or less when retry() wakes it. */
  function pause(delay: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, delay);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  async function run(): Promise<void> {
    let delay = firstDelay;
    while (running) {
      controller = new AbortController();
      try {
        await connectOnce({ api, cache, workspaceId, log, setStatus, apply, fullSync: full }, controller.signal);
        delay = firstDelay;
      } catch (error) {
        if (!running) break;
        if (accessDenied(error)) {
          running = false;
          log(`sync: access denied (${error.status}), stopping`);
          setStatus({ state: 'error', online: true, message: error.status === 403 ? 'You no longer have access to this workspace' : 'Your session has ended, sign in again' });
          options.onAccessDenied?.(error.status);
          break;
        }
        log(`sync: ${errorText(error)}`);
        setStatus(failedStatus(error));
      }
      if (!running) break;
      await pause(delay);
      wake = null;
      delay = Math.min(delay * 2, maxDelay);
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    retry() {
      wake?.();
    },
    status: () => state,
    fullSync: full,
    apply,
    async stop() {
      running = false;
      controller?.abort();
      wake?.();
      await loop;
    },
  };
}
