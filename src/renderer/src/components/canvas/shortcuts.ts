/**
 * The canvas's keyboard shortcuts: undo (Ctrl+Z), redo (Ctrl+Shift+Z / Ctrl+Y), copy and paste (Ctrl+C / Ctrl+V),
 * select all (Ctrl+A) and delete (Delete / Backspace). They act on the canvas and its side panels, never inside a
 * field. Alt+A ("Add a step") works from anywhere on the editor's screen, fields included.
 */
import type { Node } from '@xyflow/react';
import type { KeyboardEvent, RefObject } from 'react';
import { toast } from 'sonner';
import { type CanvasStore, redo, undo } from './store';

/** Alt+A (Option+A): by the key's place, so macOS's "å" in a field does not hide it. */
export function isAddStepShortcut(e: Pick<globalThis.KeyboardEvent, 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'code'>) {
  return e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey && e.code === 'KeyA';
}

function isTyping(target: EventTarget | null) {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

/** The frame's onKeyDown; `rootRef` takes the focus back after a delete, so the shortcuts keep working. */
export function canvasShortcutHandler<N extends Node>(store: CanvasStore<N>, readOnly: boolean, rootRef: RefObject<HTMLElement | null>) {
  return (e: KeyboardEvent) => {
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
    } else if (mod && key === 'a' && !e.altKey && !e.shiftKey) {
      // Every step, not the page's text.
      e.preventDefault();
      s.selectAll();
    } else if (mod && key === 'c') {
      s.copy();
    } else if (mod && key === 'v' && !readOnly) {
      e.preventDefault();
      const { leftOut } = s.paste();
      if (leftOut.length) toast.info(`Not pasted: ${leftOut.join('; ')}`);
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
}
