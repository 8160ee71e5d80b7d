/**
 * Parents and their children, as shared/bot-validation.ts and the runtime read them: a Condition's branches, a
 * List's items and a Reply's buttons are nodes of their own, each joined to its parent by an edge from the
 * parent, and each with its own outgoing edge to the step it leads to. A Normal branch node has the id of its
 * entry in the Condition's `branches`. New children are placed in a column to the right of their parent.
 */
import type { BotNodeType } from '@shared/schemas/bot-canvas';
import type { Edge } from '@xyflow/react';
import { botNodeKinds } from './node-kinds';
import type { BotCanvasNode } from './types';

export const NODE_WIDTH = 264;
export const CHILD_HEIGHT = 44;
const CHILD_OFFSET_X = NODE_WIDTH + 72;
const CHILD_STEP_Y = CHILD_HEIGHT + 16;

export function childKindOf(type: BotNodeType) {
  return botNodeKinds[type].child;
}

/** The children of a parent node, in the order of their edges. */
export function childrenOf(nodes: readonly BotCanvasNode[], edges: readonly Edge[], parentId: string): BotCanvasNode[] {
  const parent = nodes.find((n) => n.id === parentId);
  const child = parent && childKindOf(parent.type);
  if (!child) return [];
  const byId = new Map(nodes.map((n) => [n.id, n]));
  return edges
    .filter((e) => e.source === parentId)
    .map((e) => byId.get(e.target))
    .filter((n): n is BotCanvasNode => n?.type === child.type);
}

/** A new child of `parent` below its last child, and the edge that joins them. */
export function newChild(
  nodes: readonly BotCanvasNode[],
  edges: readonly Edge[],
  parent: BotCanvasNode,
  id: string,
  data?: Record<string, unknown>,
): { node: BotCanvasNode; edge: Edge } {
  const kind = childKindOf(parent.type);
  if (!kind) throw new Error(`${parent.type} has no children`);
  const siblings = childrenOf(nodes, edges, parent.id);
  const last = siblings.at(-1);
  const position = last
    ? { x: last.position.x, y: last.position.y + (last.measured?.height ?? CHILD_HEIGHT) + 16 }
    : { x: parent.position.x + CHILD_OFFSET_X, y: parent.position.y + siblings.length * CHILD_STEP_Y };
  const node: BotCanvasNode = {
    id,
    type: kind.type,
    position,
    data: data ?? (botNodeKinds[kind.type].newData(() => globalThis.crypto.randomUUID()) as Record<string, unknown>),
  };
  return { node, edge: { id: `e-${parent.id}-${id}`, source: parent.id, target: id } };
}

/** The children a parent starts with when it is added: a Condition its Default branch and one branch, a List one item, a Reply one button. */
export function initialChildren(parent: BotCanvasNode): { id: string; data: Record<string, unknown> }[] {
  const id = () => globalThis.crypto.randomUUID();
  switch (parent.type) {
    case 'ConditionNode':
      return [{ id: id(), data: { label: 'Default', type: 'Default' } }];
    case 'ListNode':
      return [{ id: id(), data: { label: 'Option 1' } }];
    case 'ReplyNode':
      return [{ id: id(), data: { label: 'Yes' } }, { id: id(), data: { label: 'No' } }];
    default:
      return [];
  }
}
