/**
 * The bot editor's use of the shared canvas store: parents with their children (add, remove, rename, in one
 * store update each so one undo reverts them), the children a new parent starts with, and the palette.
 */
import type { BotNodeType } from '@shared/schemas/bot-canvas';
import type { CanvasStore, PaletteEntry } from '../../../components/canvas';
import { childrenOf, initialChildren, newChild } from './children';
import { botNodeKinds, paletteGroups } from './node-kinds';
import type { BotCanvasNode } from './types';

export type BotStore = CanvasStore<BotCanvasNode>;

export function addChild(store: BotStore, parentId: string, data?: Record<string, unknown>, id: string = globalThis.crypto.randomUUID()) {
  const s = store.getState();
  const parent = s.nodes.find((n) => n.id === parentId);
  if (!parent) return;
  const { node, edge } = newChild(s.nodes, s.edges, parent, id, data);
  const nodes = [...s.nodes, node];
  // A Normal branch is also an entry of the condition's branches, under the same id.
  if (parent.type === 'ConditionNode' && (data?.type ?? 'Normal') === 'Normal') {
    const branches = (parent.data.branches as unknown[] | undefined) ?? [];
    const label = String(node.data.label ?? 'Branch');
    const entry = { id, label, type: 'Normal', conditions: [] };
    nodes[nodes.indexOf(parent)] = { ...parent, data: { ...parent.data, branches: [...branches, entry] } };
  }
  store.setState({ nodes, edges: [...s.edges, edge], revision: s.revision + 1 });
}

export function removeChild(store: BotStore, parentId: string, childId: string) {
  const s = store.getState();
  const nodes = s.nodes
    .filter((n) => n.id !== childId)
    .map((n) =>
      n.id === parentId && n.type === 'ConditionNode'
        ? { ...n, data: { ...n.data, branches: ((n.data.branches as { id: string }[] | undefined) ?? []).filter((b) => b.id !== childId) } }
        : n,
    );
  store.setState({
    nodes,
    edges: s.edges.filter((e) => e.source !== childId && e.target !== childId),
    selectedId: s.selectedId === childId ? null : s.selectedId,
    revision: s.revision + 1,
  });
}

export function renameChild(store: BotStore, childId: string, label: string) {
  store.getState().updateNodeData(childId, { label });
}

export function childOpsOf(store: BotStore, parent: BotCanvasNode) {
  const s = store.getState();
  const kind = botNodeKinds[parent.type].child;
  if (!kind) return undefined;
  return {
    items: childrenOf(s.nodes, s.edges, parent.id),
    max: kind.max,
    add: () => addChild(store, parent.id, parent.type === 'ConditionNode' ? { label: `Branch ${childrenOf(s.nodes, s.edges, parent.id).length}`, type: 'Normal' } : undefined),
    remove: (id: string) => removeChild(store, parent.id, id),
    rename: (id: string, label: string) => renameChild(store, id, label),
    ...(parent.type === 'ConditionNode' && { addDefault: () => addChild(store, parent.id, { label: 'Default', type: 'Default' }) }),
  };
}

/**
 * Gives each parent added from the palette the children it starts with (a Condition its Default branch, a
 * List one item, a Reply two buttons). Returns the unsubscribe function.
 */
export function seedNewParents(store: BotStore) {
  return store.subscribe((state, prev) => {
    if (state.nodes.length <= prev.nodes.length) return;
    const before = new Set(prev.nodes.map((n) => n.id));
    for (const n of state.nodes) {
      if (before.has(n.id) || !botNodeKinds[n.type].child) continue;
      if (childrenOf(state.nodes, state.edges, n.id).length) continue;
      for (const c of initialChildren(n)) addChild(store, n.id, c.data, c.id);
    }
  });
}

/** "Add a step": every kind but Start and children, grouped as the palette shows them. */
export const botPalette: PaletteEntry<BotCanvasNode>[] = paletteGroups.flatMap((group) =>
  (Object.values(botNodeKinds) as (typeof botNodeKinds)[BotNodeType][])
    .filter((k) => k.group === group)
    .map((k) => ({
      type: k.type,
      label: k.title,
      description: k.description,
      icon: k.icon,
      create: () => ({ type: k.type, data: k.newData(() => globalThis.crypto.randomUUID()) as Record<string, unknown> }),
    })),
);

export function describeBotNode(n: BotCanvasNode): string {
  const kind = botNodeKinds[n.type];
  const label = typeof n.data.label === 'string' ? n.data.label.trim() : '';
  return label && label !== kind.title ? `${kind.title} · ${label}` : kind.title;
}
