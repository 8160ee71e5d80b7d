import '@xyflow/react/dist/style.css';
import { type Node, type NodeTypes, ReactFlowProvider, useReactFlow } from '@xyflow/react';
import { type DragEvent, type ReactNode, type RefObject, useCallback, useEffect, useImperativeHandle, useMemo, useRef } from 'react';
import { useStore } from 'zustand';
import { useAutosave } from './autosave';
import { type CanvasProblem, CanvasContext } from './context';
import { FIT_VIEW_OPTIONS, FlowCanvas } from './flow-canvas';
import { useFocusNode } from './focus-node';
import { type PaletteEntry, Palette, PALETTE_MIME } from './palette';
import { placeAfter, placeNear, DEFAULT_SIZE } from './placement';
import { useCanvasProblems } from './problems';
import { canvasShortcutHandler, isAddStepShortcut } from './shortcuts';
import { NodeList, ProblemList } from './side-panels';
import { type CanvasGraph, type CanvasStore } from './store';
import { CanvasToolbar } from './toolbar';

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
  /** A change is not saved yet (or the server refused it). */
  pending: () => boolean;
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
  const rf = useReactFlow();
  // Deleting the focused row or node drops focus; it comes back to the frame so shortcuts keep working.
  const rootRef = useRef<HTMLDivElement>(null);
  const asideRef = useRef<HTMLElement>(null);
  const { problems, problemStore } = useCanvasProblems(validate, nodes, edges);
  // A refused save selects the step it is about, so the user sees what to fix.
  const onRefused = useCallback(({ nodeId }: { nodeId: string | null }) => nodeId && store.getState().select(nodeId), [store]);
  const autosave = useAutosave(store, save, { enabled: !readOnly, onRefused });
  const ctx = useMemo(() => ({ store: store as unknown as CanvasStore, readOnly, problems: problemStore }), [store, readOnly, problemStore]);
  const onDeleted = useCallback(() => rootRef.current?.focus(), []);
  const onFit = useCallback(() => void rf.fitView({ ...FIT_VIEW_OPTIONS, duration: 200 }), [rf]);
  const focusNode = useFocusNode(store);
  const onKeyDown = canvasShortcutHandler(store, readOnly, rootRef);

  // Back to "Add a step" from anywhere on the editor's screen (a step's form included), with one chord.
  useEffect(() => {
    if (readOnly) return;
    const onKey = (e: KeyboardEvent) => {
      if (!isAddStepShortcut(e)) return;
      const entry = asideRef.current?.querySelector<HTMLElement>('[data-palette-entry]:not([disabled])');
      if (!entry) return;
      e.preventDefault();
      entry.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [readOnly]);

  useImperativeHandle(
    controllerRef,
    () => ({
      flush: async () => {
        await autosave.flush();
        const state = autosave.current();
        if (state.status === 'error') throw new Error(state.message);
      },
      pending: () => !readOnly && autosave.pending(),
      focusNode: (id: string) => focusNode(id),
    }),
    [autosave, focusNode, readOnly],
  );

  const addFromPalette = useCallback(
    (entry: PaletteEntry<N>, at?: { x: number; y: number }) => {
      const s = store.getState();
      const from = s.selectedId ?? null;
      const anchor = from ? s.nodes.find((n) => n.id === from) : undefined;
      // A drop stays where it fell; otherwise the first free place under the selected step (or mid-view).
      const centre = () => {
        const c = rf.screenToFlowPosition({ x: window.innerWidth / 2, y: window.innerHeight / 2 });
        return placeNear({ x: c.x, y: c.y, ...DEFAULT_SIZE }, s.nodes);
      };
      const position = at ?? (anchor ? placeAfter(anchor, s.nodes) : centre());
      const node = { ...entry.create(), id: globalThis.crypto.randomUUID(), position } as N;
      s.addNode(node, entry.connectable === false ? null : from);
      focusNode(node.id, { focusForm: !at, reveal: !at });
    },
    [store, rf, focusNode],
  );

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
          <CanvasToolbar store={store} readOnly={readOnly} readOnlyReason={readOnlyReason} onFit={onFit} save={autosave} />
          <FlowCanvas store={store} nodes={nodes} edges={edges} nodeTypes={nodeTypes} label={label} readOnly={readOnly} onDrop={onDrop} />
        </div>
      </div>
    </CanvasContext.Provider>
  );
}
