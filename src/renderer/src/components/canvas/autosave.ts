import type { Node } from '@xyflow/react';
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { toast } from 'sonner';
import { type CanvasGraph, type CanvasStore, graphOf } from './store';

export type SaveState =
  | { status: 'saved' }
  | { status: 'dirty' }
  | { status: 'saving' }
  | { status: 'error'; message: string };

/** Quiet time after the last change before the canvas is saved. */
export const AUTOSAVE_DELAY_MS = 800;

/**
 * Saves the canvas (`save(graph)`, a PATCH of rfInstance) `delay` ms after the last change; one save at a
 * time, the newest graph wins. Flushes at once when the editor unmounts (navigation), when the page is hidden,
 * and on `beforeunload`, where it also asks the user to stay while a change is unsaved. A failed save shows its
 * reason and is retried on the next change or with `retry()`.
 */
export function useAutosave<N extends Node>(
  store: CanvasStore<N>,
  save: (graph: CanvasGraph<N>) => Promise<unknown>,
  { enabled = true, delay = AUTOSAVE_DELAY_MS }: { enabled?: boolean; delay?: number } = {},
) {
  const saver = useRef<ReturnType<typeof createSaver<N>>>(null);
  if (!saver.current) saver.current = createSaver(store, save);
  const s = saver.current;
  s.setSave(save);

  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = store.subscribe((state, prev) => {
      if (state.revision === prev.revision) return;
      s.markDirty();
      clearTimeout(timer);
      timer = setTimeout(() => void s.flush(), delay);
    });
    const flushNow = () => {
      clearTimeout(timer);
      void s.flush();
    };
    const onHidden = () => {
      if (document.visibilityState === 'hidden') flushNow();
    };
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (!s.pending()) return;
      flushNow();
      // The save is on its way; asking to stay gives it time to land instead of losing the last edit.
      e.preventDefault();
    };
    document.addEventListener('visibilitychange', onHidden);
    window.addEventListener('pagehide', flushNow);
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      unsubscribe();
      document.removeEventListener('visibilitychange', onHidden);
      window.removeEventListener('pagehide', flushNow);
      window.removeEventListener('beforeunload', onBeforeUnload);
      clearTimeout(timer);
      // Leaving the editor (navigation): the last change is saved now, and a failure still says so.
      if (s.pending()) void s.flush({ detached: true });
    };
  }, [store, enabled, delay, s]);

  const state = useSyncExternalStore(s.subscribe, s.get, s.get);
  const retry = useCallback(() => void s.flush(), [s]);
  return useMemo(() => ({ state, retry, flush: () => s.flush(), current: s.get }), [state, retry, s]);
}

function createSaver<N extends Node>(store: CanvasStore<N>, initialSave: (graph: CanvasGraph<N>) => Promise<unknown>) {
  let save = initialSave;
  let state: SaveState = { status: 'saved' };
  let savedRevision = store.getState().revision;
  let running: Promise<void> | null = null;
  const listeners = new Set<() => void>();
  const setState = (next: SaveState) => {
    state = next;
    listeners.forEach((l) => l());
  };

  async function flush(opts: { detached?: boolean } = {}): Promise<void> {
    if (running) {
      await running;
      // The change that arrived during that save still needs its own save.
      return store.getState().revision > savedRevision ? flush(opts) : undefined;
    }
    const { revision } = store.getState();
    if (revision <= savedRevision) return;
    setState({ status: 'saving' });
    running = (async () => {
      try {
        await save(graphOf(store.getState()));
        savedRevision = Math.max(savedRevision, revision);
        setState(store.getState().revision > savedRevision ? { status: 'dirty' } : { status: 'saved' });
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        setState({ status: 'error', message });
        if (opts.detached) toast.error(`Your last canvas changes could not be saved: ${message}`);
      } finally {
        running = null;
      }
    })();
    return running;
  }

  return {
    setSave: (fn: typeof save) => {
      save = fn;
    },
    markDirty: () => {
      if (state.status !== 'saving' && state.status !== 'error') setState({ status: 'dirty' });
    },
    pending: () => store.getState().revision > savedRevision,
    flush,
    get: () => state,
    subscribe: (l: () => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}
