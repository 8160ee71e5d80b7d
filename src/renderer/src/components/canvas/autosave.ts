import type { Node } from '@xyflow/react';
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { toast } from 'sonner';
import { type CanvasGraph, type CanvasStore, graphOf } from './store';

/** What a save changes on the server: nodes and edges without React Flow's measurements; the view is not content. */
function contentOf(g: CanvasGraph): string {
  return JSON.stringify({ nodes: g.nodes.map(({ measured: _m, ...n }) => n), edges: g.edges });
}

/**
 * A refused save in words, and the step it is about: the server names a field by its path
 * ("rfInstance.nodes.3.data.waitFor: ..."); the path is dropped from the text and its node index picks the step.
 */
export function refusalOf(err: unknown, graph: CanvasGraph): { message: string; nodeId: string | null } {
  const raw = err instanceof Error ? err.message : String(err);
  const path = /^((?:rfInstance|nodes|edges)(?:\.\w+)*):\s(.*)$/s;
  const parts = raw.split(/,\s(?=(?:rfInstance|nodes|edges)[\w.]*:\s)/);
  let nodeId: string | null = null;
  const texts = parts.map((part) => {
    const m = path.exec(part);
    if (!m) return part;
    const index = /(?:^|\.)nodes\.(\d+)(?:\.|$)/.exec(m[1]);
    if (index && !nodeId) nodeId = graph.nodes[Number(index[1])]?.id ?? null;
    return m[2];
  });
  return { message: texts.join(' · '), nodeId };
}

export type SaveState =
  | { status: 'saved' }
  | { status: 'dirty' }
  | { status: 'saving' }
  | { status: 'error'; message: string; nodeId?: string | null };

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
  {
    enabled = true,
    delay = AUTOSAVE_DELAY_MS,
    onRefused,
  }: { enabled?: boolean; delay?: number; onRefused?: (refusal: { message: string; nodeId: string | null }) => void } = {},
) {
  const saver = useRef<ReturnType<typeof createSaver<N>>>(null);
  if (!saver.current) saver.current = createSaver(store, save);
  const s = saver.current;
  s.setSave(save);
  s.setOnRefused(onRefused);

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
  return useMemo(() => ({ state, retry, flush: () => s.flush(), current: s.get, pending: s.pending }), [state, retry, s]);
}

function createSaver<N extends Node>(store: CanvasStore<N>, initialSave: (graph: CanvasGraph<N>) => Promise<unknown>) {
  let save = initialSave;
  let onRefused: ((refusal: { message: string; nodeId: string | null }) => void) | undefined;
  let state: SaveState = { status: 'saved' };
  let savedRevision = store.getState().revision;
  let savedContent = contentOf(graphOf(store.getState()));
  // A graph loaded from the server (discard, restore) is what the server has: the baseline of the next save.
  store.subscribe((next, prev) => {
    if (next.loaded !== prev.loaded) savedContent = contentOf(graphOf(next));
  });
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
    const graph = graphOf(store.getState());
    const content = contentOf(graph);
    // Changes that end where they started (a form opened and closed, a step moved back) are nothing to save.
    if (content === savedContent) {
      savedRevision = revision;
      setState({ status: 'saved' });
      return;
    }
    setState({ status: 'saving' });
    running = (async () => {
      try {
        await save(graph);
        savedRevision = Math.max(savedRevision, revision);
        savedContent = content;
        setState(store.getState().revision > savedRevision ? { status: 'dirty' } : { status: 'saved' });
      } catch (err) {
        const refusal = refusalOf(err, graph);
        setState({ status: 'error', ...refusal });
        onRefused?.(refusal);
        if (opts.detached) toast.error(`Your last canvas changes could not be saved: ${refusal.message}`);
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
    setOnRefused: (fn: typeof onRefused) => {
      onRefused = fn;
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
