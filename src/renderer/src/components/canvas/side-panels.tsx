import type { Edge, Node } from '@xyflow/react';
import { AlertCircle, CheckCircle2, CloudOff, Loader2, Pencil, Trash2 } from 'lucide-react';
import { cn } from '../../lib/cn';
import { Button } from '../ui/button';
import { NativeSelect } from '../ui/input';
import type { SaveState } from './autosave';
import { type CanvasProblem, useCanvasContext } from './context';

/**
 * Every node as a list, for keyboard and screen-reader users: select a node (it is brought into view), edit it
 * (the keyboard moves into its form), delete it, and, on a linear canvas, choose its next step.
 */
export function NodeList<N extends Node>({
  nodes,
  edges,
  problems,
  describe,
  linear,
  onFocusNode,
  onDeleted,
}: {
  nodes: N[];
  edges: Edge[];
  problems: CanvasProblem[];
  describe: (node: N) => string;
  linear: boolean;
  onFocusNode: (id: string, opts?: { focusForm?: boolean }) => void;
  onDeleted: () => void;
}) {
  const { store, readOnly } = useCanvasContext();
  return (
    <section aria-labelledby="canvas-node-list" className="border-b border-border p-3">
      <h2 id="canvas-node-list" className="mb-2 text-[11px] font-semibold uppercase tracking-wide text-fg-subtle">
        Steps ({nodes.length})
      </h2>
      {nodes.length === 0 && <p className="text-xs text-fg-muted">No steps yet.</p>}
      <ol className="flex flex-col gap-1.5">
        {nodes.map((node) => {
          const name = describe(node);
          const count = problems.filter((p) => p.nodeId === node.id).length;
          const next = edges.find((e) => e.source === node.id && !e.sourceHandle)?.target ?? '';
          return (
            <li
              key={node.id}
              className={cn('rounded-md border px-2 py-1.5', node.selected ? 'border-accent bg-accent-soft/40' : 'border-border')}
            >
              <div className="flex items-center gap-1">
                <button
                  type="button"
                  aria-current={node.selected ? 'true' : undefined}
                  className="min-w-0 flex-1 truncate rounded text-left text-[13px] font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent/50"
                  onClick={() => onFocusNode(node.id, { focusForm: false })}
                  title={name}
                >
                  {name}
                </button>
                {count > 0 && (
                  <span className="text-[11px] font-medium text-danger" aria-label={`${count} problem${count === 1 ? '' : 's'}`}>
                    <AlertCircle className="inline h-3.5 w-3.5" aria-hidden /> {count}
                  </span>
                )}
                <Button variant="ghost" size="icon-sm" aria-label={`Edit ${name}`} onClick={() => onFocusNode(node.id)}>
                  <Pencil />
                </Button>
                {!readOnly && (
                  <Button
                    variant="ghost"
                    size="icon-sm"
                    aria-label={`Delete ${name}`}
                    disabled={node.deletable === false}
                    onClick={() => {
                      store.getState().deleteNodes([node.id]);
                      onDeleted();
                    }}
                  >
                    <Trash2 />
                  </Button>
                )}
              </div>
              {linear && !readOnly && (
                <label className="mt-1 flex items-center gap-2 text-[11px] text-fg-muted">
                  Next
                  <NativeSelect
                    className="h-7 text-xs"
                    aria-label={`Next step after ${name}`}
                    value={next}
                    onChange={(e) => store.getState().setNext(node.id, e.target.value || null)}
                  >
                    <option value="">None (ends here)</option>
                    {nodes
                      .filter((n) => n.id !== node.id)
                      .map((n) => (
                        <option key={n.id} value={n.id}>
                          {describe(n)}
                        </option>
                      ))}
                  </NativeSelect>
                </label>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** The validation summary: every problem, each a button that selects its node and opens its form. */
export function ProblemList({ problems, onFocusNode, readyText }: { problems: CanvasProblem[]; onFocusNode: (id: string) => void; readyText: string }) {
  return (
    <section aria-labelledby="canvas-problems" className="p-3">
      <h2 id="canvas-problems" className="mb-2 text-[11px] font-semibold uppercase tracking-wide text-fg-subtle">
        {problems.length ? `Problems (${problems.length})` : 'Problems'}
      </h2>
      {problems.length === 0 ? (
        <p className="flex items-center gap-1.5 text-xs text-accent-text">
          <CheckCircle2 className="h-3.5 w-3.5" aria-hidden /> {readyText}
        </p>
      ) : (
        <ul className="flex flex-col gap-1" aria-label="Problems">
          {problems.map((p, i) => (
            <li key={`${p.nodeId ?? ''}-${i}`}>
              {p.nodeId ? (
                <button
                  type="button"
                  onClick={() => onFocusNode(p.nodeId!)}
                  className="flex w-full items-start gap-1.5 rounded px-1 py-0.5 text-left text-xs text-danger hover:bg-danger-soft focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-danger/40"
                >
                  <AlertCircle className="mt-px h-3.5 w-3.5 shrink-0" aria-hidden />
                  {p.message}
                </button>
              ) : (
                <span className="flex items-start gap-1.5 px-1 py-0.5 text-xs text-danger">
                  <AlertCircle className="mt-px h-3.5 w-3.5 shrink-0" aria-hidden />
                  {p.message}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Autosave's state; a failed save says why and offers a retry. */
export function SaveStatus({ state, onRetry }: { state: SaveState; onRetry: () => void }) {
  if (state.status === 'error') {
    return (
      <div role="alert" className="flex items-center gap-2 rounded-md bg-danger-soft px-2 py-1 text-xs text-danger">
        <CloudOff className="h-3.5 w-3.5" aria-hidden />
        <span>Changes not saved: {state.message}</span>
        <Button variant="secondary" size="sm" onClick={onRetry}>
          Retry
        </Button>
      </div>
    );
  }
  const text = { saved: 'All changes saved', dirty: 'Unsaved changes', saving: 'Saving…' }[state.status];
  return (
    <span role="status" className="flex items-center gap-1.5 text-xs text-fg-muted">
      {state.status === 'saving' && <Loader2 className="h-3.5 w-3.5 animate-spin" aria-hidden />}
      {text}
    </span>
  );
}
