import { type ReactFlowState, useStore } from '@xyflow/react';

/**
 * Below this zoom a node's small text is too small to read (11-13 px draws as 5-6 px): nodes draw a plain box
 * with their title only, which is much cheaper for Chromium to paint when hundreds are in view.
 */
export const SIMPLE_ZOOM = 0.5;

const zoomedOut = (s: ReactFlowState) => s.transform[2] < SIMPLE_ZOOM;

/**
 * The canvas is zoomed out below SIMPLE_ZOOM. A boolean from React Flow's store, so a node subscribed to it
 * re-renders only when the zoom crosses the threshold, never on each pan or zoom frame.
 */
export function useZoomedOut(): boolean {
  return useStore(zoomedOut);
}
