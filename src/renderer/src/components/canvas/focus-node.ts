import { type Node, useReactFlow } from '@xyflow/react';
import { useCallback } from 'react';
import type { CanvasStore } from './store';

/**
 * Selects a node, brings it into view (unless `reveal: false`: a step dropped with the mouse is where the user
 * looks already, and the view must not jump) and, unless told not to, puts the keyboard in its form.
 */
export function useFocusNode<N extends Node>(store: CanvasStore<N>) {
  const rf = useReactFlow();
  return useCallback(
    (id: string, { focusForm = true, reveal = true } = {}) => {
      store.getState().select(id);
      const node = store.getState().nodes.find((n) => n.id === id);
      if (!node) return;
      const w = node.measured?.width ?? 288;
      const h = node.measured?.height ?? 160;
      if (reveal) void rf.setCenter(node.position.x + w / 2, node.position.y + h / 2, { zoom: Math.max(rf.getZoom(), 0.9), duration: 200 });
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
}
