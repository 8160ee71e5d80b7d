import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import { type StoreApi, createStore } from 'zustand/vanilla';
import type { CanvasStore } from './store';

/** A problem the validator found; `nodeId` names the node it is about (none: the canvas as a whole). */
export interface CanvasProblem {
  nodeId?: string | null;
  message: string;
}

export interface CanvasContextValue {
  store: CanvasStore;
  /** Steps are locked (a deployed campaign, a read-only role): forms show their values, nothing is edited. */
  readOnly: boolean;
  /**
   * The validator's problems, by node. A store rather than a context value, so a change of the problems
   * re-renders only the nodes whose own problems changed (not every node of a 500-node canvas).
   */
  problems: ProblemStore;
}

export interface ProblemState {
  all: CanvasProblem[];
  byNode: ReadonlyMap<string, CanvasProblem[]>;
}
export type ProblemStore = StoreApi<ProblemState>;

const NO_PROBLEMS: CanvasProblem[] = [];
const sameProblems = (a: CanvasProblem[] | undefined, b: CanvasProblem[]) =>
  !!a && a.length === b.length && a.every((p, i) => p.message === b[i].message && p.nodeId === b[i].nodeId);

/** The problems grouped by node; a node whose problems did not change keeps its array (its card stays memoised). */
export function groupProblems(all: CanvasProblem[], prev?: ProblemState): ProblemState {
  const grouped = new Map<string, CanvasProblem[]>();
  for (const p of all) {
    if (!p.nodeId) continue;
    const list = grouped.get(p.nodeId);
    if (list) list.push(p);
    else grouped.set(p.nodeId, [p]);
  }
  const byNode = new Map<string, CanvasProblem[]>();
  for (const [id, list] of grouped) {
    const before = prev?.byNode.get(id);
    byNode.set(id, sameProblems(before, list) ? before! : list);
  }
  return { all, byNode };
}

export function createProblemStore(all: CanvasProblem[]): ProblemStore {
  return createStore<ProblemState>()(() => groupProblems(all));
}

export const CanvasContext = createContext<CanvasContextValue | null>(null);

export function useCanvasContext(): CanvasContextValue {
  const ctx = useContext(CanvasContext);
  if (!ctx) throw new Error('Canvas hooks are used inside <CanvasFrame>');
  return ctx;
}

/** The node's own problems, for its card (a red outline and the messages). */
export function useNodeProblems(nodeId: string): CanvasProblem[] {
  const { problems } = useCanvasContext();
  return useStore(problems, (s) => s.byNode.get(nodeId) ?? NO_PROBLEMS);
}

/** A node form's handle on its data: the current data, an update function, and whether it is locked. */
export function useNodeData<D extends Record<string, unknown>>(nodeId: string) {
  const { store, readOnly } = useCanvasContext();
  const data = useStore(store, (s) => s.nodes.find((n) => n.id === nodeId)?.data) as D | undefined;
  const update = (patch: Partial<D>) => {
    if (!readOnly) store.getState().updateNodeData(nodeId, patch);
  };
  return { data, update, readOnly };
}
