/**
 * Parents and their children, as shared/bot-validation.ts and the runtime read them: a Condition's branches, a
 * List's items and a Reply's buttons are nodes of their own, each joined to its parent by an edge from the
 * parent, and each with its own outgoing edge to the step it leads to. A Normal branch node has the id of its
 * entry in the Condition's `branches`. New children are placed in a row under their parent.
 */
import type { BotNodeType } from '@shared/schemas/bot-canvas';
import type { Edge } from '@xyflow/react';
import { botNodeKinds } from './node-kinds';
import type { BotCanvasNode } from './types';

export const NODE_WIDTH = 264;
export const CHILD_WIDTH = 200;
export const CHILD_HEIGHT = 44;
const CHILD_GAP_X = 24;
const CHILD_OFFSET_Y = 70;

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
  // Children sit in a row under their parent, each leading downwards to its own next step.
  const position = last
    ? { x: last.position.x + CHILD_WIDTH + CHILD_GAP_X, y: last.position.y }
    : { x: parent.position.x - CHILD_WIDTH / 2 + NODE_WIDTH / 2, y: parent.position.y + (parent.measured?.height ?? 110) + CHILD_OFFSET_Y };
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
