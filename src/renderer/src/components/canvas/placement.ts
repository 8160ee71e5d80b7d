/**
 * Where new and pasted steps go: the first free place next to where they belong, never on top of a step.
 * Sizes are React Flow's measurements (`node.measured`); a node not yet drawn counts with a typical card size.
 */
import { type Node, type Rect, getNodesBounds } from '@xyflow/react';

/** A card's size before React Flow has measured it. */
export const DEFAULT_SIZE = { width: 288, height: 160 };
/** Room between two steps. */
export const GAP = 40;

export function rectOf(n: Pick<Node, 'position' | 'measured' | 'width' | 'height'>): Rect {
  return {
    x: n.position.x,
    y: n.position.y,
    width: n.measured?.width ?? n.width ?? DEFAULT_SIZE.width,
    height: n.measured?.height ?? n.height ?? DEFAULT_SIZE.height,
  };
}

/** The rect grown by the gap on every side, so free space keeps steps apart and not only off each other. */
const padded = (r: Rect): Rect => ({ x: r.x - GAP / 2, y: r.y - GAP / 2, width: r.width + GAP, height: r.height + GAP });

const overlap = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

function overlapsAny(rects: Rect[], occupied: Rect[]) {
  return rects.some((r) => occupied.some((o) => overlap(padded(r), o)));
}

/** The box around rects (React Flow's bounds, which read nodes). */
const boundsOf = (rects: Rect[]) =>
  getNodesBounds(rects.map((r, i) => ({ id: String(i), position: { x: r.x, y: r.y }, data: {}, measured: { width: r.width, height: r.height } })));

const shift = (r: Rect, dx: number, dy: number): Rect => ({ ...r, x: r.x + dx, y: r.y + dy });

/**
 * The smallest move of `rects` (a step, or a pasted group) that sets them free of `occupied`: first the place
 * itself, then further along `direction` one size-and-gap at a time, each tried also one row/column aside.
 */
export function freeOffset(rects: Rect[], occupied: Rect[], direction: 'down' | 'right'): { dx: number; dy: number } {
  if (!rects.length) return { dx: 0, dy: 0 };
  const box = boundsOf(rects);
  const along = direction === 'down' ? { dx: 0, dy: box.height + GAP } : { dx: box.width + GAP, dy: 0 };
  const aside = direction === 'down' ? { dx: box.width + GAP, dy: 0 } : { dx: 0, dy: box.height + GAP };
  for (let i = 0; i < 200; i += 1) {
    for (let j = 0; j <= Math.min(i, 3); j += 1) {
      const dx = (i - j) * along.dx + j * aside.dx;
      const dy = (i - j) * along.dy + j * aside.dy;
      if (!overlapsAny(rects.map((r) => shift(r, dx, dy)), occupied)) return { dx, dy };
    }
  }
  // A canvas this full: the far side of everything is free.
  const all = boundsOf(occupied);
  return { dx: all.x + all.width + GAP - box.x, dy: 0 };
}

/** Where a new step goes after `anchor`: below it, or the nearest free place beside that. */
export function placeAfter(anchor: Node, nodes: Node[], size = DEFAULT_SIZE): { x: number; y: number } {
  const a = rectOf(anchor);
  const want: Rect = { x: a.x, y: a.y + a.height + GAP * 1.5, ...size };
  return placeNear(want, nodes, 'right');
}

/** `want` moved the least to be free of every node. */
export function placeNear(want: Rect, nodes: Node[], direction: 'down' | 'right' = 'right'): { x: number; y: number } {
  const { dx, dy } = freeOffset([want], nodes.map(rectOf), direction);
  return { x: want.x + dx, y: want.y + dy };
}
