/**
 * The workspace event stream (GET /workspace/{id}/events, server-sent events): ONE EventSource per workspace,
 * shared by every screen that listens. Events arrive as named SSE events (`event: message.created` ...) whose
 * data is a WorkspaceEvent (src/shared/schemas/events.ts), validated here before anyone sees it.
 *
 * Resume: the browser's EventSource reconnects by itself after a network drop and sends Last-Event-ID. When the
 * server refuses it for good (an expired ID token answers 401, and EventSource then gives up), we open a new
 * one with a fresh token and `?lastEventId=` of the last event seen, so nothing is missed either way.
 * When the server no longer holds the events after that point (pruned after its retention period) it sends
 * `event: reset` instead: the changes in between cannot be replayed, so reset listeners reload what they show.
 */
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { StreamReset, WorkspaceEvent, streamPositionEvent, streamResetEvent, workspaceEventTypes } from '@shared/schemas/events';
import { PresenceSignal, presenceEvent } from '@shared/schemas/presence';
import { apiBaseUrl } from './config';
import { currentIdToken } from './id-token';

export type { WorkspaceEvent };
export type StreamStatus = 'connecting' | 'live' | 'reconnecting';
type Listener = (event: WorkspaceEvent) => void;

interface Connection {
  workspaceId: string;
  source: EventSource | null;
  listeners: Set<Listener>;
  /** Presence signals (`event: presence`, not workspace events: no seq, never replayed). */
  presenceListeners: Set<(signal: PresenceSignal) => void>;
  resetListeners: Set<() => void>;
  /** Listeners that stay for the whole session (cache sync); the connection closes when none of either is left. */
  status: StreamStatus;
  statusListeners: Set<() => void>;
  lastEventId: number | null;
  retryMs: number;
  timer: ReturnType<typeof setTimeout> | null;
  closeTimer: ReturnType<typeof setTimeout> | null;
}

const connections = new Map<string, Connection>();
const MAX_RETRY_MS = 30_000;
/** Screens mount and unmount as the user moves around; keep the stream a little while in between. */
const LINGER_MS = 15_000;

function setStatus(c: Connection, status: StreamStatus) {
  if (c.status === status) return;
  c.status = status;
  for (const l of c.statusListeners) l();
}

function dispatch(c: Connection, raw: MessageEvent<string>) {
  let data: unknown;
  try {
    data = JSON.parse(raw.data);
  } catch {
    return;
  }
  const parsed = WorkspaceEvent.safeParse(data);
  if (!parsed.success) {
    console.warn('[events] an event does not match the contract', parsed.error.issues);
    return;
  }
  c.lastEventId = parsed.data.seq;
  for (const l of [...c.listeners]) {
    try {
      l(parsed.data);
    } catch (err) {
      console.error('[events] listener failed', err);
    }
  }
}

function notifyReset(c: Connection) {
  for (const l of [...c.resetListeners]) {
    try {
      l();
    } catch (err) {
      console.error('[events] reset listener failed', err);
    }
  }
}

/**
 * A stream opened without a resume point starts where the log is now: what was written between the screens' first
 * reads and that moment (a customer who wrote right after sign-in) reaches no listener, so the screens read again.
 * The position is also where a reopen resumes.
 */
function dispatchPosition(c: Connection, raw: MessageEvent<string>, resumed: boolean) {
  const seq = Number(raw.lastEventId);
  if (raw.lastEventId && Number.isSafeInteger(seq)) c.lastEventId = seq;
  if (!resumed) notifyReset(c);
}

function dispatchReset(c: Connection, raw: MessageEvent<string>) {
  let parsed;
  try {
    parsed = StreamReset.safeParse(JSON.parse(raw.data));
  } catch {
    return;
  }
  if (!parsed.success) return;
  c.lastEventId = parsed.data.seq;
  notifyReset(c);
}

async function open(c: Connection) {
  if (c.timer) clearTimeout(c.timer);
  c.timer = null;
  const token = await currentIdToken().catch(() => null);
  if (!connections.has(c.workspaceId) || c.source) return;
  const q = new URLSearchParams();
  if (token) q.set('token', token);
  const resumed = c.lastEventId !== null;
  if (resumed) q.set('lastEventId', String(c.lastEventId));
  const es = new EventSource(`${apiBaseUrl()}/workspace/${encodeURIComponent(c.workspaceId)}/events?${q}`);
  c.source = es;
  es.onopen = () => {
    c.retryMs = 1000;
    setStatus(c, 'live');
  };
  const onEvent = (e: Event) => dispatch(c, e as MessageEvent<string>);
  for (const type of workspaceEventTypes) es.addEventListener(type, onEvent);
  es.addEventListener(streamResetEvent, (e) => dispatchReset(c, e as MessageEvent<string>));
  es.addEventListener(streamPositionEvent, (e) => dispatchPosition(c, e as MessageEvent<string>, resumed));
  es.addEventListener(presenceEvent, (e) => {
    let parsed;
    try {
      parsed = PresenceSignal.safeParse(JSON.parse((e as MessageEvent<string>).data));
    } catch {
      return;
    }
    if (parsed.success) for (const l of [...c.presenceListeners]) l(parsed.data);
  });
  es.onmessage = onEvent;
  es.onerror = () => {
    setStatus(c, 'reconnecting');
    if (es.readyState === EventSource.CLOSED) {
      // Refused for good (expired token, server restarted without the stream ...): open anew, with backoff.
      es.close();
      c.source = null;
      c.timer = setTimeout(() => void open(c), c.retryMs);
      c.retryMs = Math.min(c.retryMs * 2, MAX_RETRY_MS);
    }
  };
}

function connection(workspaceId: string): Connection {
  let c = connections.get(workspaceId);
  if (!c) {
    // One workspace at a time: a switch closes the previous one's stream.
    for (const other of connections.values()) close(other);
    c = {
      workspaceId,
      source: null,
      listeners: new Set(),
      presenceListeners: new Set(),
      resetListeners: new Set(),
      status: 'connecting',
      statusListeners: new Set(),
      lastEventId: null,
      retryMs: 1000,
      timer: null,
      closeTimer: null,
    };
    connections.set(workspaceId, c);
    void open(c);
  }
  if (c.closeTimer) clearTimeout(c.closeTimer);
  c.closeTimer = null;
  return c;
}

function close(c: Connection) {
  if (c.timer) clearTimeout(c.timer);
  if (c.closeTimer) clearTimeout(c.closeTimer);
  c.source?.close();
  c.source = null;
  connections.delete(c.workspaceId);
}

/** Listens to a workspace's events; returns the unsubscribe function. */
export function subscribeWorkspaceEvents(workspaceId: string, listener: Listener): () => void {
  const c = connection(workspaceId);
  c.listeners.add(listener);
  return () => {
    c.listeners.delete(listener);
    if (c.listeners.size === 0 && connections.get(workspaceId) === c) {
      c.closeTimer = setTimeout(() => {
        if (c.listeners.size === 0) close(c);
      }, LINGER_MS);
    }
  };
}

/** Calls `handler` for every event of the workspace while the component is mounted. */
export function useWorkspaceEvents(workspaceId: string | null | undefined, handler: Listener): void {
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => {
    if (!workspaceId) return;
    return subscribeWorkspaceEvents(workspaceId, (e) => ref.current(e));
  }, [workspaceId]);
}

/**
 * Calls `handler` when the stream says events were missed for good (`event: reset`): reload what is shown.
 * Keeps the stream open like useWorkspaceEvents.
 */
export function useWorkspaceEventsReset(workspaceId: string | null | undefined, handler: () => void): void {
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => {
    if (!workspaceId) return;
    const c = connection(workspaceId);
    const listener = () => ref.current();
    c.resetListeners.add(listener);
    const unsubscribe = subscribeWorkspaceEvents(workspaceId, () => undefined);
    return () => {
      c.resetListeners.delete(listener);
      unsubscribe();
    };
  }, [workspaceId]);
}

/** Whether the stream is live (for a "Reconnecting..." hint). */
export function useEventStreamStatus(workspaceId: string | null | undefined): StreamStatus {
  return useSyncExternalStore(
    (notify) => {
      const c = workspaceId ? connections.get(workspaceId) : undefined;
      if (!c) return () => {};
      c.statusListeners.add(notify);
      return () => c.statusListeners.delete(notify);
    },
    () => (workspaceId ? (connections.get(workspaceId)?.status ?? 'connecting') : 'connecting'),
  );
}

/** Calls `handler` for every presence signal of the workspace while mounted (keeps the stream open). */
export function usePresenceSignals(workspaceId: string | null | undefined, handler: (signal: PresenceSignal) => void): void {
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => {
    if (!workspaceId) return;
    const c = connection(workspaceId);
    const listener = (signal: PresenceSignal) => ref.current(signal);
    c.presenceListeners.add(listener);
    const unsubscribe = subscribeWorkspaceEvents(workspaceId, () => undefined);
    return () => {
      c.presenceListeners.delete(listener);
      unsubscribe();
    };
  }, [workspaceId]);
}
