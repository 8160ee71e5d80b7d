/** The bar above the canvas: undo, redo, fit view, and autosave's state (or why the steps are locked). */
import type { Node } from '@xyflow/react';
import { CloudOff, Loader2, Maximize, Redo2, Undo2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { useStore } from 'zustand';
import { Button } from '../ui/button';
import type { SaveState } from './autosave';
import { type CanvasStore, redo, undo } from './store';

/** Autosave's state; a failed save says why and offers a retry. */
function SaveStatus({ state, onRetry }: { state: SaveState; onRetry: () => void }) {
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

function HistoryButtons<N extends Node>({ store, readOnly, onFit }: { store: CanvasStore<N>; readOnly: boolean; onFit: () => void }) {
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

interface ToolbarProps<N extends Node> {
  store: CanvasStore<N>;
  readOnly: boolean;
  readOnlyReason?: ReactNode;
  onFit: () => void;
  save: { state: SaveState; retry: () => void };
}

export function CanvasToolbar<N extends Node>({ store, readOnly, readOnlyReason, onFit, save }: ToolbarProps<N>) {
  return (
    <div className="flex items-center gap-1 border-b border-border px-3 py-1.5">
      <HistoryButtons store={store} readOnly={readOnly} onFit={onFit} />
      <div className="ml-auto">
        {readOnly ? <span className="text-xs text-fg-muted">{readOnlyReason}</span> : <SaveStatus state={save.state} onRetry={save.retry} />}
      </div>
    </div>
  );
}
