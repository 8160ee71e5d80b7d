import type { Edge, Node } from '@xyflow/react';
import { AlertCircle, CheckCircle2, Pencil, Trash2 } from 'lucide-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, type RefObject, memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { cn } from '../../lib/cn';
import { Button } from '../ui/button';
import { NativeSelect } from '../ui/input';
import { type CanvasProblem, useCanvasContext } from './context';

/** Above this many steps the list renders only the rows in view (a 500-step canvas opens without 500 rows). */
export const NODE_LIST_VIRTUAL_AFTER = 60;

interface RowModel {
  id: string;
  name: string;
  selected: boolean;
  deletable: boolean;
  problems: number;
  next: string;
}

/**
 * Every node as a list, for keyboard and screen-reader users: select a node (it is brought into view), edit it
 * (the keyboard moves into its form), delete it, and, on a linear canvas, choose its next step. Rows are memoised
 * on what they show, so a drag or a measurement re-renders none of them; a long list is virtualised (rows out of
 * view are not in the DOM; each row says its position, and Tab scrolls the next one in).
 */
export const NodeList = memo(function NodeList<N extends Node>({
  nodes,
  edges,
  problems,
  describe,
  linear,
  onFocusNode,
  onDeleted,
  scrollRef,
}: {
  nodes: N[];
  edges: Edge[];
  problems: CanvasProblem[];
  describe: (node: N) => string;
  linear: boolean;
  onFocusNode: (id: string, opts?: { focusForm?: boolean }) => void;
  onDeleted: () => void;
  /** The scrolling element around the list (for the virtualised list). */
  scrollRef?: RefObject<HTMLElement | null>;
}) {
  const { store, readOnly } = useCanvasContext();
  const counts = useMemo(() => {
    const m = new Map<string, number>();
    for (const p of problems) if (p.nodeId) m.set(p.nodeId, (m.get(p.nodeId) ?? 0) + 1);
    return m;
  }, [problems]);
  const nextOf = useMemo(() => {
    const m = new Map<string, string>();
    for (const e of edges) if (!e.sourceHandle && !m.has(e.source)) m.set(e.source, e.target);
    return m;
  }, [edges]);
  // Names change only with a node's data: kept per data object so a drag frame does not call describe 500 times.
  const names = useRef<{ describe: typeof describe; byData: WeakMap<object, string> }>({ describe, byData: new WeakMap() });
  if (names.current.describe !== describe) names.current = { describe, byData: new WeakMap() };
  const nameOf = (n: N) => {
    const { byData } = names.current;
    const known = byData.get(n.data);
    if (known !== undefined) return known;
    const name = describe(n);
    byData.set(n.data, name);
    return name;
  };
  const rows: RowModel[] = nodes.map((n) => ({
    id: n.id,
    name: nameOf(n),
    selected: !!n.selected,
    deletable: n.deletable !== false,
    problems: counts.get(n.id) ?? 0,
    next: nextOf.get(n.id) ?? '',
  }));
  // The "Next step" choices of a linear canvas: one list for every row, rebuilt only when names change.
  const optionsKey = linear ? rows.map((r) => `${r.id}\u0000${r.name}`).join('\u0001') : '';
  const options = useMemo(
    () => (optionsKey ? optionsKey.split('\u0001').map((o) => o.split('\u0000') as [string, string]) : []),
    [optionsKey],
  );
  const onDelete = useCallback(
    (id: string) => {
      store.getState().deleteNodes([id]);
      onDeleted();
    },
    [store, onDeleted],
  );
  const onNext = useCallback((id: string, target: string | null) => store.getState().setNext(id, target), [store]);
  const renderRow = (row: RowModel, extra?: RowPlacement) => (
    <NodeRow
      key={row.id}
      {...row}
      readOnly={readOnly}
      linear={linear}
      options={options}
      onFocusNode={onFocusNode}
      onDelete={onDelete}
      onNext={onNext}
      placement={extra}
    />
  );
  return (
    <section aria-labelledby="canvas-node-list" className="border-b border-border p-3">
      <h2 id="canvas-node-list" className="mb-2 text-[11px] font-semibold uppercase tracking-wide text-fg-subtle">
        Steps ({nodes.length})
      </h2>
      {nodes.length === 0 && <p className="text-xs text-fg-muted">No steps yet.</p>}
      {rows.length > NODE_LIST_VIRTUAL_AFTER && scrollRef ? (
        <VirtualRows rows={rows} linear={linear && !readOnly} scrollRef={scrollRef} renderRow={renderRow} />
      ) : (
        <ol className="flex flex-col gap-1.5">{rows.map((r) => renderRow(r))}</ol>
      )}
    </section>
  );
}) as <N extends Node>(props: {
  nodes: N[];
  edges: Edge[];
  problems: CanvasProblem[];
  describe: (node: N) => string;
  linear: boolean;
  onFocusNode: (id: string, opts?: { focusForm?: boolean }) => void;
  onDeleted: () => void;
  scrollRef?: RefObject<HTMLElement | null>;
}) => ReactNode;

interface RowPlacement {
  index: number;
  start: number;
  size: number;
  measure: (el: Element | null) => void;
}

function VirtualRows({
  rows,
  linear,
  scrollRef,
  renderRow,
}: {
  rows: RowModel[];
  linear: boolean;
  scrollRef: RefObject<HTMLElement | null>;
  renderRow: (row: RowModel, placement: RowPlacement) => ReactNode;
}) {
  const listRef = useRef<HTMLOListElement>(null);
  const [margin, setMargin] = useState(0);
  useEffect(() => {
    // The list's offset in the scrolling panel (the palette is above it), read once the panel is painted (not
    // after every commit: reading a layout value then forces a layout of the whole page, canvas included).
    const measure = () => setMargin(listRef.current?.offsetTop ?? 0);
    const frame = requestAnimationFrame(measure);
    window.addEventListener('resize', measure);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('resize', measure);
    };
  }, []);
  const virtualizer = useVirtualizer({
    count: rows.length,
    // On the first commit the panel's ref is not attached yet (children commit first): the list finds it.
    getScrollElement: () => scrollRef.current ?? listRef.current?.closest<HTMLElement>('[data-canvas-scroll]') ?? null,
    estimateSize: () => (linear ? 72 : 42),
    getItemKey: (i) => rows[i].id,
    overscan: 8,
    scrollMargin: margin,
  });
  return (
    <ol ref={listRef} className="relative" style={{ height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((v) =>
        renderRow(rows[v.index], { index: v.index, start: v.start - margin, size: rows.length, measure: virtualizer.measureElement }),
      )}
    </ol>
  );
}

const NodeRow = memo(function NodeRow({
  id,
  name,
  selected,
  deletable,
  problems: count,
  next,
  readOnly,
  linear,
  options,
  onFocusNode,
  onDelete,
  onNext,
  placement,
}: RowModel & {
  readOnly: boolean;
  linear: boolean;
  options: [string, string][];
  onFocusNode: (id: string, opts?: { focusForm?: boolean }) => void;
  onDelete: (id: string) => void;
  onNext: (id: string, target: string | null) => void;
  placement?: RowPlacement;
}) {
  return (
    <li
      ref={placement?.measure}
      data-index={placement?.index}
      aria-posinset={placement ? placement.index + 1 : undefined}
      aria-setsize={placement?.size}
      className={cn(placement && 'absolute inset-x-0 top-0 pb-1.5')}
      style={placement ? { transform: `translateY(${placement.start}px)` } : undefined}
    >
      <div className={cn('rounded-md border px-2 py-1.5', selected ? 'border-accent bg-accent-soft/40' : 'border-border')}>
        <div className="flex items-center gap-1">
          <button
            type="button"
            aria-current={selected ? 'true' : undefined}
            className="min-w-0 flex-1 truncate rounded text-left text-[13px] font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent/50"
            onClick={() => onFocusNode(id, { focusForm: false })}
            title={name}
          >
            {name}
          </button>
          {count > 0 && (
            <span className="text-[11px] font-medium text-danger" aria-label={`${count} problem${count === 1 ? '' : 's'}`}>
              <AlertCircle className="inline h-3.5 w-3.5" aria-hidden /> {count}
            </span>
          )}
          <Button variant="ghost" size="icon-sm" aria-label={`Edit ${name}`} onClick={() => onFocusNode(id)}>
            <Pencil />
          </Button>
          {!readOnly && (
            <Button variant="ghost" size="icon-sm" aria-label={`Delete ${name}`} disabled={!deletable} onClick={() => onDelete(id)}>
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
              onChange={(e) => onNext(id, e.target.value || null)}
            >
              <option value="">None (ends here)</option>
              {options
                .filter(([o]) => o !== id)
                .map(([o, label]) => (
                  <option key={o} value={o}>
                    {label}
                  </option>
                ))}
            </NativeSelect>
          </label>
        )}
      </div>
    </li>
  );
});

/** The validation summary: every problem, each a button that selects its node and opens its form. */
export const ProblemList = memo(function ProblemList({ problems, onFocusNode, readyText }: { problems: CanvasProblem[]; onFocusNode: (id: string) => void; readyText: string }) {
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
});
