import type { Edge, Node } from '@xyflow/react';
import { useLayoutEffect, useRef, useState } from 'react';
import { type CanvasProblem, createProblemStore, groupProblems } from './context';
import type { CanvasGraph } from './store';

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

/** The graph's problems, and a store of them by node that node components read (`useNodeProblems`). */
export function useCanvasProblems<N extends Node>(validate: (graph: CanvasGraph<N>) => CanvasProblem[], nodes: N[], edges: Edge[]) {
  const problems = useProblems(validate, nodes, edges);
  const [problemStore] = useState(() => createProblemStore(problems));
  useLayoutEffect(() => {
    if (problemStore.getState().all !== problems) problemStore.setState(groupProblems(problems, problemStore.getState()));
  }, [problemStore, problems]);
  return { problems, problemStore };
}
