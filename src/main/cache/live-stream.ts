// One connection to the workspace's event stream: opened before anything else (no event falls between the
// REST pages and the stream), a full sync when the cache has no known sequence or the stream says `reset`,
// then the events applied as they come, those that arrive together in one transaction.
import { type WorkspaceEvent as WorkspaceEventT, WorkspaceEvent } from '../../shared';
import { streamPositionEvent } from '../../shared/schemas/events';
import type { SyncStatus } from '../../shared/ipc';
import type { ServerApi } from './server-api';
import type { CacheChange, WorkspaceCache } from './workspace-cache';

interface ConnectionDeps {
  api: ServerApi;
  cache: WorkspaceCache;
  workspaceId: string;
  log: (line: string) => void;
  setStatus(changes: Partial<SyncStatus>): void;
  apply(events: readonly WorkspaceEventT[]): CacheChange;
  fullSync(): Promise<void>;
}

/** A stream message as a known event, or null (a type this app does not know yet). */
function parseEvent(data: string): WorkspaceEventT | null {
  try {
    return WorkspaceEvent.parse(JSON.parse(data));
  } catch {
    return null;
  }
}

/** Whether another message is already there, without waiting for one. */
const arrivedTogether = (next: Promise<unknown>) =>
  Promise.race([next.then(() => true), new Promise<boolean>((r) => setImmediate(() => r(false)))]);

/** One connection: stream opened first (nothing is missed), full sync if needed, then live until it ends. */
export async function connectOnce(deps: ConnectionDeps, signal: AbortSignal): Promise<void> {
  const { api, cache, workspaceId, log, setStatus, apply } = deps;
  // Without a known sequence (never synced, or no event seen since) the stream starts at its newest event
  // and a full sync fills the cache.
  const needFull = !cache.lastSyncedAt || cache.lastSeq === 0;
  const stream = api.events(workspaceId, needFull ? undefined : cache.lastSeq, signal)[Symbol.asyncIterator]();
  // The first read opens the connection; start it before the REST pages so no event falls in between.
  let next = stream.next();
  await Promise.race([next, new Promise((r) => setTimeout(r, 50))]);

  let buffer: WorkspaceEventT[] = [];
  // where the stream started (its `position` message): the resume point after a full sync that heard no event
  let startedAt = 0;
  const noteStart = (id: string | undefined) => {
    const seq = Number(id);
    if (Number.isInteger(seq)) startedAt = Math.max(startedAt, seq);
  };
  // a running full sync; stream events wait in `buffer` meanwhile
  const full: { running: Promise<void> | null } = { running: null };
  const startFull = () => {
    setStatus({ state: 'syncing', online: true, message: null });
    buffer = [];
    full.running = deps.fullSync().then(() => {
      const pending = buffer;
      buffer = [];
      full.running = null;
      apply(pending);
      if (startedAt > cache.lastSeq) cache.setLastSeq(startedAt);
      setStatus({ state: 'live', online: true, message: null });
    });
    // surfaces in the race below
    full.running.catch(() => undefined);
  };
  if (needFull) startFull();
  else setStatus({ state: 'live', online: true, message: null });

  let batch: WorkspaceEventT[] = [];
  for (;;) {
    const step = await (full.running ? Promise.race([next, full.running.then(() => 'synced' as const)]) : next);
    if (step === 'synced') continue;
    if (step.done) break;
    next = stream.next();
    const message = step.value;
    if (message.event === 'reset') {
      log('event stream: reset, reloading the cache');
      // the stream goes on after the reset's seq: that is where the reload leaves the cache
      noteStart(message.id);
      if (!full.running) startFull();
      continue;
    }
    if (message.event === streamPositionEvent) {
      noteStart(message.id);
      if (!full.running && startedAt > cache.lastSeq) cache.setLastSeq(startedAt);
      continue;
    }
    const event = parseEvent(message.data);
    if (!event) {
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
    if (!(await arrivedTogether(next))) {
      apply(batch);
      batch = [];
      setStatus({});
    }
  }
  if (batch.length) apply(batch);
  if (full.running) await full.running;
}
