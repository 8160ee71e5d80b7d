import '@xyflow/react/dist/style.css';
import {
  Background,
  Controls,
  MiniMap,
  type Edge,
  type Node,
  type NodeTypes,
  type Viewport,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
} from '@xyflow/react';
import { Maximize, Redo2, Undo2 } from 'lucide-react';
import {
  type DragEvent,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useCallback,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useStore } from 'zustand';
import { Button } from '../ui/button';
import { useAutosave } from './autosave';
import { type CanvasProblem, CanvasContext, createProblemStore, groupProblems } from './context';
import { type PaletteEntry, Palette, PALETTE_MIME } from './palette';
import { NodeList, ProblemList, SaveStatus } from './side-panels';
import { type CanvasGraph, type CanvasStore, redo, undo } from './store';

export interface CanvasFrameProps<N extends Node> {
  store: CanvasStore<N>;
  /** Module-level map of node type to memoised component (never built during render). */
  nodeTypes: NodeTypes;
  palette: PaletteEntry<N>[];
  /** Pure: the problems of a graph (the shared validator of the feature). */
  validate: (graph: CanvasGraph<N>) => CanvasProblem[];
  /** Saves the graph (PATCH of rfInstance); rejects with an Error whose message the user reads. */
  save: (graph: CanvasGraph<N>) => Promise<unknown>;
  /** The name shown for a node in the node list and summary ("Send template · Welcome"). */
  describeNode: (node: N) => string;
  /** Steps are locked: nothing is edited, moved, added or saved; `readOnlyReason` says why. */
  readOnly?: boolean;
  readOnlyReason?: ReactNode;
  /** Each node has one next step: the node list offers a "Next step" picker (keyboard connecting). */
  linear?: boolean;
  /** Accessible name of the canvas ("Campaign steps"). */
  label: string;
  /** Filled with the frame's controls, for the feature's own buttons (deploy saves first, then deploys). */
  controllerRef?: RefObject<CanvasController | null>;
}

export interface CanvasController {
  /** Saves any unsaved change now; rejects when the save fails. */
  flush: () => Promise<void>;
  focusNode: (id: string) => void;
}

/** The editor around a React Flow canvas; see index.ts for how a feature plugs in. */
export function CanvasFrame<N extends Node>(props: CanvasFrameProps<N>) {
  return (
    <ReactFlowProvider>
      <FrameInner {...props} />
    </ReactFlowProvider>
  );
}

// Props of <ReactFlow> that never change: the same objects on every render, so React Flow's store is not
// updated (and its subscribers not woken) each time the frame re-renders.
const FIT_VIEW_OPTIONS = { padding: 0.2, maxZoom: 1 };
const isUntouched = (vp: Viewport | undefined) => !vp || (vp.x === 0 && vp.y === 0 && vp.zoom === 1);

/**
 * The validator on what it reads: nodes' kinds and data and the edges. React Flow hands over a new nodes array
 * for every measurement, selection and drag frame; the last problems are kept until the content changes.
 */
function useProblems<N extends Node>(validate: (graph: CanvasGraph<N>) => CanvasProblem[], nodes: N[], edges: Edge[]) {
  const last = useRef<{ validate: typeof validate; nodes: N[]; edges: Edge[]; problems: CanvasProblem[] } | null>(null);
  const l = last.current;
  if (
    l &&
    l.validate === validate &&
    l.edges === edges &&
    l.nodes.length === nodes.length &&
    l.nodes.every((n, i) => {
      const m = nodes[i];
      return n === m || (n.id === m.id && n.type === m.type && n.data === m.data && n.parentId === m.parentId && n.deletable === m.deletable);
    })
  ) {
    return l.problems;
  }
  const problems = validate({ nodes, edges });
  last.current = { validate, nodes, edges, problems };
  return problems;
}

function isTyping(target: EventTarget | null) {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

function FrameInner<N extends Node>({
  store,
  nodeTypes,
  palette,
  validate,
  save,
  describeNode,
  readOnly = false,
  readOnlyReason,
  linear = false,
  label,
  controllerRef,
}: CanvasFrameProps<N>) {
  const nodes = useStore(store, (s) => s.nodes);
  const edges = useStore(store, (s) => s.edges);
  // The viewport is React Flow's while the canvas is open (it is stored on each move's end, for saving): read
  // once, so panning and zooming never re-render the frame and its side panels.
  const [viewport] = useState(() => store.getState().viewport);
  const rf = useReactFlow();
  // Deleting the focused row or node drops focus; it comes back to the frame so shortcuts keep working.
  const rootRef = useRef<HTMLDivElement>(null);
  const asideRef = useRef<HTMLElement>(null);
  const problems = useProblems(validate, nodes, edges);
  const [problemStore] = useState(() => createProblemStore(problems));
  useLayoutEffect(() => {
    if (problemStore.getState().all !== problems) problemStore.setState(groupProblems(problems, problemStore.getState()));
  }, [problemStore, problems]);
  const autosave = useAutosave(store, save, { enabled: !readOnly });
  const ctx = useMemo(() => ({ store: store as unknown as CanvasStore, readOnly, problems: problemStore }), [store, readOnly, problemStore]);
  const onMoveEnd = useCallback((_: unknown, vp: Viewport) => store.getState().setViewport(vp), [store]);
  const onDeleted = useCallback(() => rootRef.current?.focus(), []);
  const onFit = useCallback(() => void rf.fitView({ padding: 0.2, duration: 200 }), [rf]);

  /** Selects a node, brings it into view and puts the keyboard in its form. */
  const focusNode = useCallback(
    (id: string, { focusForm = true } = {}) => {
      store.getState().select(id);
      const node = store.getState().nodes.find((n) => n.id === id);
      if (!node) return;
      const w = node.measured?.width ?? 288;
      const h = node.measured?.height ?? 160;
      void rf.setCenter(node.position.x + w / 2, node.position.y + h / 2, { zoom: Math.max(rf.getZoom(), 0.9), duration: 200 });
      if (focusForm) {
        // A new node is drawn, then measured, then shown (React Flow hides it until measured): try for a few
        // frames until its first field can take focus.
        const tryFocus = (frames: number) => {
          const form = document.querySelector<HTMLElement>(`[data-node-form="${CSS.escape(id)}"]`);
          const field = form?.querySelector<HTMLElement>('input:not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled])');
          if (field && getComputedStyle(field).visibility !== 'hidden') {
            field.focus({ preventScroll: true });
            if (document.activeElement === field) return;
          }
          if (frames > 0) requestAnimationFrame(() => tryFocus(frames - 1));
        };
        requestAnimationFrame(() => tryFocus(30));
      }
    },
    [rf, store],
  );

  useImperativeHandle(
    controllerRef,
    () => ({
      flush: async () => {
        await autosave.flush();
        const state = autosave.current();
        if (state.status === 'error') throw new Error(state.message);
      },
      focusNode: (id: string) => focusNode(id),
    }),
    [autosave, focusNode],
  );

  const addFromPalette = useCallback(
    (entry: PaletteEntry<N>, at?: { x: number; y: number }) => {
      const s = store.getState();
      const from = s.selectedId ?? null;
      const anchor = from ? s.nodes.find((n) => n.id === from) : undefined;
      const position =
        at ??
        (anchor
          ? { x: anchor.position.x, y: anchor.position.y + (anchor.measured?.height ?? 160) + 60 }
          : rf.screenToFlowPosition({ x: window.innerWidth / 2, y: window.innerHeight / 2 }));
      const node = { ...entry.create(), id: globalThis.crypto.randomUUID(), position } as N;
      s.addNode(node, entry.connectable === false ? null : from);
      focusNode(node.id, { focusForm: !at });
    },
    [store, rf, focusNode],
  );

  const onKeyDown = (e: KeyboardEvent) => {
    if (isTyping(e.target)) return;
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key.toLowerCase();
    const s = store.getState();
    if (mod && key === 'z' && !readOnly) {
      e.preventDefault();
      if (e.shiftKey) redo(store as unknown as CanvasStore);
      else undo(store as unknown as CanvasStore);
    } else if (mod && key === 'y' && !readOnly) {
      e.preventDefault();
      redo(store as unknown as CanvasStore);
    } else if (mod && key === 'c') {
      s.copy();
    } else if (mod && key === 'v' && !readOnly) {
      e.preventDefault();
      s.paste();
    } else if ((e.key === 'Delete' || e.key === 'Backspace') && !readOnly) {
      const ids = s.nodes.filter((n) => n.selected).map((n) => n.id);
      const edgeIds = new Set(s.edges.filter((ed) => ed.selected).map((ed) => ed.id));
      if (ids.length) s.deleteNodes(ids);
      if (edgeIds.size) s.onEdgesChange([...edgeIds].map((id) => ({ type: 'remove', id })));
      if (ids.length || edgeIds.size) {
        e.preventDefault();
        rootRef.current?.focus();
      }
    }
  };

  const onDrop = (e: DragEvent) => {
    const type = e.dataTransfer.getData(PALETTE_MIME);
    const entry = palette.find((p) => p.type === type);
    if (!entry || readOnly) return;
    e.preventDefault();
    addFromPalette(entry, rf.screenToFlowPosition({ x: e.clientX, y: e.clientY }));
  };

  return (
    <CanvasContext.Provider value={ctx}>
      {/* Shortcuts (undo, redo, copy, paste, delete) act on the canvas and its side panels, never inside a field. */}
      <div
        ref={rootRef}
        tabIndex={-1}
        className="flex min-h-0 flex-1 overflow-hidden rounded-xl border border-border bg-surface outline-none"
        onKeyDown={onKeyDown}
      >
        <aside ref={asideRef} data-canvas-scroll className="relative flex w-64 shrink-0 flex-col overflow-y-auto border-r border-border" aria-label="Canvas tools">
          {!readOnly && <Palette entries={palette} nodes={nodes} onAdd={addFromPalette} />}
          <NodeList
            nodes={nodes}
            edges={edges}
            problems={problems}
            describe={describeNode}
            linear={linear}
            onFocusNode={focusNode}
            onDeleted={onDeleted}
            scrollRef={asideRef}
          />
          <ProblemList problems={problems} onFocusNode={focusNode} readyText={readOnly ? 'No problems' : 'Ready to deploy'} />
        </aside>
        <div className="relative flex min-w-0 flex-1 flex-col">
          <div className="flex items-center gap-1 border-b border-border px-3 py-1.5">
            <Toolbar store={store} readOnly={readOnly} onFit={onFit} />
            <div className="ml-auto">
              {readOnly ? <span className="text-xs text-fg-muted">{readOnlyReason}</span> : <SaveStatus state={autosave.state} onRetry={autosave.retry} />}
            </div>
          </div>
          <div className="relative min-h-0 flex-1" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
            <ReactFlow<N>
              aria-label={label}
              nodes={nodes}
              edges={edges}
              nodeTypes={nodeTypes}
              defaultViewport={viewport}
              fitView={isUntouched(viewport)}
              fitViewOptions={FIT_VIEW_OPTIONS}
              onNodesChange={store.getState().onNodesChange}
              onEdgesChange={store.getState().onEdgesChange}
              onConnect={readOnly ? undefined : store.getState().onConnect}
              onNodeDragStart={store.getState().beginGesture}
              onNodeDragStop={store.getState().endGesture}
              onMoveEnd={onMoveEnd}
              nodesDraggable={!readOnly}
              nodesConnectable={!readOnly}
              edgesReconnectable={!readOnly}
              deleteKeyCode={null}
              minZoom={0.2}
              maxZoom={1.75}
              attributionPosition="top-right"
              colorMode="system"
            >
              <Background gap={20} size={1} />
              <Controls showInteractive={false} showFitView={false} />
              <MiniMap pannable zoomable ariaLabel="Canvas overview" style={{ width: 150, height: 100 }} className="!hidden xl:!block" />
            </ReactFlow>
          </div>
        </div>
      </div>
    </CanvasContext.Provider>
  );
}

function Toolbar<N extends Node>({ store, readOnly, onFit }: { store: CanvasStore<N>; readOnly: boolean; onFit: () => void }) {
  const canUndo = useStore(store.temporal, (t) => t.pastStates.length > 0);
  const canRedo = useStore(store.temporal, (t) => t.futureStates.length > 0);
  const s = store as unknown as CanvasStore;
  return (
    <>
      {!readOnly && (
        <>
          <Button variant="ghost" size="icon-sm" aria-label="Undo" title="Undo (Ctrl+Z)" disabled={!canUndo} onClick={() => undo(s)}>
            <Undo2 />
          </Button>
          <Button variant="ghost" size="icon-sm" aria-label="Redo" title="Redo (Ctrl+Shift+Z)" disabled={!canRedo} onClick={() => redo(s)}>
            <Redo2 />
          </Button>
        </>
      )}
      <Button variant="ghost" size="icon-sm" aria-label="Fit view" title="Fit view" onClick={onFit}>
        <Maximize />
      </Button>
    </>
  );
}
