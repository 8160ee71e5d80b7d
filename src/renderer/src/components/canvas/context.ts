import type { Node } from '@xyflow/react';
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { CanvasState, CanvasStore } from './store';

/** A problem the validator found; `nodeId` names the node it is about (none: the canvas as a whole). */
export interface CanvasProblem {
  nodeId?: string | null;
  message: string;
}

export interface CanvasContextValue {
  store: CanvasStore;
  /** Steps are locked (a deployed campaign, a read-only role): forms show their values, nothing is edited. */
  readOnly: boolean;
  problems: CanvasProblem[];
}

export const CanvasContext = createContext<CanvasContextValue | null>(null);

export function useCanvasContext(): CanvasContextValue {
  const ctx = useContext(CanvasContext);
  if (!ctx) throw new Error('Canvas hooks are used inside <CanvasFrame>');
  return ctx;
}

/** Reads the open canvas's store (inside <CanvasFrame>), e.g. `useCanvas((s) => s.updateNodeData)`. */
export function useCanvas<T, N extends Node = Node>(selector: (s: CanvasState<N>) => T): T {
  const { store } = useCanvasContext();
  return useStore(store as unknown as CanvasStore<N>, selector);
}

/** The node's own problems, for its card (a red outline and the messages). */
export function useNodeProblems(nodeId: string): CanvasProblem[] {
  const { problems } = useCanvasContext();
  return problems.filter((p) => p.nodeId === nodeId);
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
