import {
  type Connection,
  type Edge,
  type EdgeChange,
  type Node,
  type NodeChange,
  type Viewport,
  addEdge,
  applyEdgeChanges,
  applyNodeChanges,
} from '@xyflow/react';
import { temporal } from 'zundo';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { freeOffset, rectOf } from './placement';

/** What the canvas saves: React Flow's `toObject()` (nodes, edges, viewport). */
export interface CanvasGraph<N extends Node = Node> {
  nodes: N[];
  edges: Edge[];
  viewport?: Viewport;
}

export interface CanvasState<N extends Node = Node> {
  nodes: N[];
  edges: Edge[];
  viewport: Viewport;
  /** The node the node list and the keyboard act on (mirrors React Flow's selection). */
  selectedId: string | null;
  /** Bumped on every change that must be saved (not on selection or measuring). */
  revision: number;
  clipboard: { nodes: N[]; edges: Edge[] } | null;
  /** Bumped when a saved graph replaces the canvas (`load`): what is on screen is what the server has. */
  loaded: number;

  load: (graph: CanvasGraph<N>) => void;
  onNodesChange: (changes: NodeChange<N>[]) => void;
  onEdgesChange: (changes: EdgeChange[]) => void;
  onConnect: (connection: Connection) => void;
  setViewport: (viewport: Viewport) => void;
  addNode: (node: N, connectFrom?: string | null) => void;
  /** Merges `patch` into a node's data (the one way node forms edit a node). */
  updateNodeData: (id: string, patch: Partial<N['data']>) => void;
  /** Sets (or clears, with null) the one outgoing edge of `source` from `sourceHandle`. */
  setNext: (source: string, target: string | null, sourceHandle?: string | null) => void;
  /** Deletes nodes (those with `deletable: false` stay) and their edges. */
  deleteNodes: (ids: string[]) => void;
  select: (id: string | null) => void;
  /** Selects every node (Ctrl/Cmd+A inside the canvas). */
  selectAll: () => void;
  copy: (ids?: string[]) => void;
  /** Pastes the clipboard next to where it was copied; `leftOut` says why a step was not pasted. */
  paste: () => { ids: string[]; leftOut: string[] };
  /** Call before a gesture (a drag) so it undoes in one step; `endGesture` after it. */
  beginGesture: () => void;
  endGesture: () => void;
}

export type CanvasStore<N extends Node = Node> = StoreApi<CanvasState<N>> & {
  temporal: StoreApi<{
    undo: (steps?: number) => void;
    redo: (steps?: number) => void;
    clear: () => void;
    pause: () => void;
    resume: () => void;
    isTracking: boolean;
    pastStates: unknown[];
    futureStates: unknown[];
  }>;
};

export interface CanvasStoreOptions<N extends Node> {
  /** Ids of the nodes deleted along with node `id` (e.g. a parent's own child nodes); none by default. */
  dependentsOf?: (id: string, nodes: N[], edges: Edge[]) => string[];
  /** Why a node is one of a kind ("A campaign has one trigger"), or null: a paste leaves it out while the canvas has one. */
  onlyOnce?: (node: N) => string | null;
}

const newId = () => globalThis.crypto.randomUUID();
/** Typing in one field within this time is one undo step, not one per key. */
const COALESCE_MS = 800;

function edgeId(source: string, target: string, handle?: string | null) {
  return `e-${source}${handle ? `-${handle}` : ''}-${target}`;
}

/** Selection and measuring are presentation: they neither save nor enter the undo history. */
function isPresentation(change: NodeChange | EdgeChange) {
  return change.type === 'select' || change.type === 'dimensions';
}

/**
 * The clipboard as new nodes and edges: fresh ids, beside the copied steps wherever they cover none, without a
 * one-of-a-kind node (a start node, a trigger) the canvas has already; `leftOut` says why one was left out.
 */
function pasteOf<N extends Node>(clip: { nodes: N[]; edges: Edge[] }, present: N[], onlyOnce?: (node: N) => string | null) {
  const reasons = new Set<string>();
  const copied = clip.nodes.filter((n) => {
    const reason = onlyOnce?.(n) ?? (n.deletable === false ? 'This step is one of a kind' : null);
    if (reason && (n.deletable === false || present.some((p) => p.type === n.type))) {
      reasons.add(reason);
      return false;
    }
    return true;
  });
  const ids = new Map(copied.map((n) => [n.id, newId()]));
  const { dx, dy } = freeOffset(copied.map(rectOf), present.map(rectOf), 'right');
  const nodes = copied.map(
    (n) => ({ ...n, id: ids.get(n.id)!, selected: true, position: { x: n.position.x + dx, y: n.position.y + dy }, data: structuredClone(n.data) }) as N,
  );
  const edges = clip.edges
    .filter((e) => ids.has(e.source) && ids.has(e.target))
    .map((e) => {
      const source = ids.get(e.source)!;
      const target = ids.get(e.target)!;
      return { ...e, id: edgeId(source, target, e.sourceHandle), source, target, selected: false };
    });
  return { nodes, edges, leftOut: [...reasons] };
}

/**
 * One editor's canvas state: the graph (nodes, edges, viewport), its selection, and undo/redo (zundo) over the
 * graph only. Created once per open editor (see `useCanvasStoreOf` in index.ts for the hook).
 */
export function createCanvasStore<N extends Node>(graph: CanvasGraph<N>, options: CanvasStoreOptions<N> = {}): CanvasStore<N> {
  let lastEdit = { key: '', at: 0 };
  const store = createStore<CanvasState<N>>()(
    temporal(
      (set, get) => {
        /** Runs `fn` without recording an undo step. */
        const untracked = (fn: () => void) => {
          const t = (store as CanvasStore<N>).temporal.getState();
          const was = t.isTracking;
          if (was) t.pause();
          fn();
          if (was) t.resume();
        };
        const changed = (s: Partial<CanvasState<N>>) => ({ ...s, revision: get().revision + 1 });

        return {
          nodes: graph.nodes,
          edges: graph.edges,
          viewport: graph.viewport ?? { x: 0, y: 0, zoom: 1 },
          selectedId: null,
          revision: 0,
          clipboard: null,
          loaded: 0,

          load: (g) => set({ nodes: g.nodes, edges: g.edges, viewport: g.viewport ?? get().viewport, loaded: get().loaded + 1 }),
          onNodesChange: (changes) => {
            const presentation = changes.every(isPresentation);
            // Moves are saved but not undone one pixel at a time: a drag is one step (beginGesture).
            const moves = changes.every((c) => c.type === 'position' || isPresentation(c));
            const apply = () => {
              const nodes = applyNodeChanges(changes, get().nodes);
              const removed = new Set(changes.flatMap((c) => (c.type === 'remove' ? [c.id] : [])));
              const selected = nodes.find((n) => n.selected)?.id ?? null;
              const next: Partial<CanvasState<N>> = { nodes, selectedId: removed.has(get().selectedId ?? '') ? null : selected };
              if (removed.size) next.edges = get().edges.filter((e) => !removed.has(e.source) && !removed.has(e.target));
              set(presentation ? next : changed(next));
            };
            if (presentation || moves) untracked(apply);
            else apply();
          },
          onEdgesChange: (changes) => {
            const apply = () => {
              const edges = applyEdgeChanges(changes, get().edges);
              set(changes.every(isPresentation) ? { edges } : changed({ edges }));
            };
            if (changes.every(isPresentation)) untracked(apply);
            else apply();
          },
          onConnect: (c) => {
            if (!c.source || !c.target || c.source === c.target) return;
            // One edge per source handle: connecting again replaces the old successor.
            const rest = get().edges.filter((e) => !(e.source === c.source && (e.sourceHandle ?? null) === (c.sourceHandle ?? null)));
            set(changed({ edges: addEdge({ ...c, id: edgeId(c.source, c.target, c.sourceHandle) }, rest) }));
          },
          // Panning and zooming are looking, not editing: the viewport is saved with the next edit, never alone.
          setViewport: (viewport) => untracked(() => set({ viewport })),
          addNode: (node, connectFrom) => {
            const nodes = [...get().nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), { ...node, selected: true }];
            let edges = get().edges;
            if (connectFrom && !edges.some((e) => e.source === connectFrom) && nodes.some((n) => n.id === connectFrom)) {
              edges = [...edges, { id: edgeId(connectFrom, node.id), source: connectFrom, target: node.id }];
            }
            set(changed({ nodes, edges, selectedId: node.id }));
          },
          updateNodeData: (id, patch) => {
            const key = `${id}:${Object.keys(patch).sort().join(',')}`;
            const now = Date.now();
            const coalesce = key === lastEdit.key && now - lastEdit.at < COALESCE_MS;
            lastEdit = { key, at: now };
            const apply = () =>
              set(changed({ nodes: get().nodes.map((n) => (n.id === id ? ({ ...n, data: { ...n.data, ...patch } } as N) : n)) }));
            if (coalesce) untracked(apply);
            else apply();
          },
          setNext: (source, target, sourceHandle = null) => {
            const rest = get().edges.filter((e) => !(e.source === source && (e.sourceHandle ?? null) === sourceHandle));
            const edges = target ? [...rest, { id: edgeId(source, target, sourceHandle), source, target, sourceHandle }] : rest;
            set(changed({ edges }));
          },
          deleteNodes: (ids) => {
            const { nodes: all, edges: links } = get();
            // Nodes that only exist for a deleted node (a feature's children) go with it.
            const withDependents = [...ids, ...ids.flatMap((id) => options.dependentsOf?.(id, all, links) ?? [])];
            const gone = new Set(all.filter((n) => withDependents.includes(n.id) && n.deletable !== false).map((n) => n.id));
            if (!gone.size) return;
            set(
              changed({
                nodes: get().nodes.filter((n) => !gone.has(n.id)),
                edges: get().edges.filter((e) => !gone.has(e.source) && !gone.has(e.target)),
                selectedId: gone.has(get().selectedId ?? '') ? null : get().selectedId,
              }),
            );
          },
          select: (id) =>
            untracked(() =>
              set({
                selectedId: id,
                nodes: get().nodes.map((n) => ((n.id === id) === !!n.selected ? n : { ...n, selected: n.id === id })),
              }),
            ),
          selectAll: () =>
            untracked(() => {
              const { nodes } = get();
              set({ nodes: nodes.map((n) => (n.selected ? n : { ...n, selected: true })), selectedId: get().selectedId ?? nodes[0]?.id ?? null });
            }),
          copy: (ids) => {
            const pick = new Set(ids ?? get().nodes.filter((n) => n.selected).map((n) => n.id));
            const nodes = get().nodes.filter((n) => pick.has(n.id));
            const edges = get().edges.filter((e) => pick.has(e.source) && pick.has(e.target));
            if (nodes.length) set({ clipboard: { nodes, edges } });
          },
          paste: () => {
            const clip = get().clipboard;
            if (!clip) return { ids: [], leftOut: [] };
            const { nodes, edges, leftOut } = pasteOf(clip, get().nodes, options.onlyOnce);
            if (!nodes.length) return { ids: [], leftOut };
            set(
              changed({
                nodes: [...get().nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), ...nodes],
                edges: [...get().edges, ...edges],
                selectedId: nodes[0]?.id ?? null,
                // The next paste lands further along, as in every drawing tool.
                clipboard: { nodes: nodes.map((n) => ({ ...n, selected: false })), edges },
              }),
            );
            return { ids: nodes.map((n) => n.id), leftOut };
          },
          beginGesture: () => {
            // A tracked no-op records the state before the gesture; the gesture itself is not tracked.
            set({ nodes: [...get().nodes] });
            (store as CanvasStore<N>).temporal.getState().pause();
          },
          endGesture: () => {
            (store as CanvasStore<N>).temporal.getState().resume();
            set({ revision: get().revision + 1 });
          },
        };
      },
      {
        // Undo restores the graph; selection, viewport and clipboard are not history.
        partialize: (s) => ({ nodes: s.nodes, edges: s.edges }) as unknown as CanvasState<N>,
        equality: (a, b) => a.nodes === b.nodes && a.edges === b.edges,
        limit: 100,
      },
    ),
  ) as CanvasStore<N>;
  return store;
}

/** Undo/redo that also marks the canvas changed, so autosave saves the restored graph. */
export function undo(store: CanvasStore) {
  store.temporal.getState().undo();
  store.setState((s) => ({ revision: s.revision + 1 }));
}
export function redo(store: CanvasStore) {
  store.temporal.getState().redo();
  store.setState((s) => ({ revision: s.revision + 1 }));
}

/** The graph as it is saved. Selection flags are dropped: they are not part of a canvas. */
export function graphOf<N extends Node>(s: Pick<CanvasState<N>, 'nodes' | 'edges' | 'viewport'>): CanvasGraph<N> {
  return {
    nodes: s.nodes.map(({ selected: _s, dragging: _d, ...n }) => n as N),
    edges: s.edges.map(({ selected: _s, ...e }) => e),
    viewport: s.viewport,
  };
}
