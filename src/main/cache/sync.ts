// Keeps one workspace's cache current: a full sync through the REST lists (first start, and whenever the
// stream says `reset`), then the workspace event stream, resuming after the last sequence applied. When the
// server cannot be reached it reports offline and retries with a backoff (or at once on retry()).
import { type WorkspaceEvent as WorkspaceEventT, WorkspaceEvent, type AuthMe } from '../../shared';
import type { SyncStatus } from '../../shared/ipc';
import { ServerAnswerError, type ServerApi } from './server-api';
import type { CacheChange, WorkspaceCache } from './workspace-cache';

const PAGE = 200;
/** Rows a full sync writes per transaction: several pages (fewer commits), each write still short. */
const WRITE_BATCH = 1000;

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

export function createSync(options: SyncOptions): Sync {
  const { api, cache, workspaceId, onChange, onStatus, onEvents, onMe, viewing = () => null, log = () => undefined } = options;
  const withMessages = options.conversationsWithMessages ?? 50;
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

  async function pages<T>(fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>, put: (items: T[]) => void) {
    type PageT = { items: T[]; nextCursor: string | null };
    const request = (cursor: string | undefined): Promise<PageT> => {
      const answer = fetchPage(cursor);
      // awaited below; if a write fails first, its failure is the one reported
      answer.catch(() => undefined);
      return answer;
    };
    let next: Promise<PageT> | null = request(undefined);
    let pending: T[] = [];
    while (next) {
      const page: PageT = await next;
      // The server prepares the next page while this one is written.
      next = page.nextCursor ? request(page.nextCursor) : null;
      pending = pending.length ? pending.concat(page.items) : page.items;
      if (pending.length >= WRITE_BATCH || !next) {
        put(pending);
        pending = [];
      }
    }
  }

  async function fullSync(): Promise<void> {
    const gen = cache.beginFullSync();
    const me = await api.get('getMe');
    cache.setMeta('memberId', me.id);
    onMe?.(me);
    const ws = { workspaceId };
    await pages((cursor) => api.get('listAttributes', ws, { limit: PAGE, cursor }), (items) => cache.putAttributes(items, gen));
    await pages((cursor) => api.get('listMembers', ws, { limit: PAGE, cursor }), (items) => cache.putMembers(items, gen));
    await pages((cursor) => api.get('listContacts', ws, { limit: PAGE, cursor }), (items) => cache.putContacts(items, gen));
    await pages((cursor) => api.get('listConversations', ws, { limit: PAGE, cursor }), (items) => cache.putConversations(items, gen));
    for (const conversationId of cache.recentConversationIds(withMessages)) {
      try {
        const detail = await api.get('getConversation', { conversationId });
        cache.putMessages(detail.Message);
      } catch (error) {
        // gone meanwhile (404): the sweep below removes it
        if (!(error instanceof ServerAnswerError && error.status === 404)) throw error;
      }
    }
    cache.finishFullSync(gen, now().toISOString());
    onChange?.({ conversationIds: [], contacts: true, full: true });
  }

  function apply(events: readonly WorkspaceEventT[]): CacheChange {
    const last = cache.lastSeq;
    const fresh = events.filter((e) => e.seq > last);
    if (fresh.length === 0) return { conversationIds: [], contacts: false };
    onEvents?.(fresh, cache);
    const change = cache.applyEvents(fresh, viewing());
    if (change.conversationIds.length || change.contacts) onChange?.({ ...change, full: false });
    return change;
  }

  /** One connection: stream opened first (nothing is missed), full sync if needed, then live until it ends. */
  async function connectOnce(signal: AbortSignal): Promise<void> {
    // Without a known sequence (never synced, or no event seen since) the stream starts at its newest event
    // and a full sync fills the cache.
    let needFull = !cache.lastSyncedAt || cache.lastSeq === 0;
    const stream = api.events(workspaceId, needFull ? undefined : cache.lastSeq, signal)[Symbol.asyncIterator]();
    // The first read opens the connection; start it before the REST pages so no event falls in between.
    let next = stream.next();
    await Promise.race([next, new Promise((r) => setTimeout(r, 50))]);

    let buffer: WorkspaceEventT[] = [];
    // a running full sync; stream events wait in `buffer` meanwhile
    const full: { running: Promise<void> | null } = { running: null };
    const startFull = () => {
      setStatus({ state: 'syncing', online: true, message: null });
      buffer = [];
      full.running = fullSync().then(() => {
        const pending = buffer;
        buffer = [];
        full.running = null;
        apply(pending);
        setStatus({ state: 'live', online: true, message: null });
      });
      // surfaces in the race below
      full.running.catch(() => undefined);
    };
    if (needFull) startFull();
    else setStatus({ state: 'live', online: true, message: null });
    needFull = false;

    let batch: WorkspaceEventT[] = [];
    for (;;) {
      const step = await (full.running ? Promise.race([next, full.running.then(() => 'synced' as const)]) : next);
      if (step === 'synced') continue;
      if (step.done) break;
      next = stream.next();
      const message = step.value;
      if (message.event === 'reset') {
        log('event stream: reset, reloading the cache');
        if (!full.running) startFull();
        continue;
      }
      let event: WorkspaceEventT;
      try {
        event = WorkspaceEvent.parse(JSON.parse(message.data));
      } catch {
        // A type this app does not know yet: skip it, but remember its sequence.
        const seq = Number(message.id);
        if (!full.running && Number.isInteger(seq) && seq > cache.lastSeq) cache.setLastSeq(seq);
        continue;
      }
      if (full.running) {
        buffer.push(event);
        continue;
      }
      // Apply what arrived together in one transaction.
      batch.push(event);
      const more = await Promise.race([next.then(() => true), new Promise<boolean>((r) => setImmediate(() => r(false)))]);
      if (!more) {
        apply(batch);
        batch = [];
        setStatus({});
      }
    }
    if (batch.length) apply(batch);
    if (full.running) await full.running;
  }

  async function run(): Promise<void> {
    let delay = firstDelay;
    while (running) {
      controller = new AbortController();
      try {
        await connectOnce(controller.signal);
        delay = firstDelay;
      } catch (error) {
        if (!running) break;
        if (error instanceof ServerAnswerError && (error.status === 401 || error.status === 403)) {
          running = false;
          log(`sync: access denied (${error.status}), stopping`);
          setStatus({ state: 'error', online: true, message: error.status === 403 ? 'You no longer have access to this workspace' : 'Your session has ended, sign in again' });
          options.onAccessDenied?.(error.status);
          break;
        }
        const offline = !(error instanceof ServerAnswerError) || error.status >= 500;
        log(`sync: ${error instanceof Error ? error.message : String(error)}`);
        setStatus({
          state: offline ? 'offline' : 'error',
          online: !offline,
          message: offline ? 'The server cannot be reached' : error instanceof Error ? error.message : String(error),
        });
      }
      if (!running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
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
    fullSync,
    apply,
    async stop() {
      running = false;
      controller?.abort();
      wake?.();
      await loop;
    },
  };
}
