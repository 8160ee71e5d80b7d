import type { BotNodeType } from '@shared/schemas/bot-canvas';
import type { BotNodeData } from '../../canvas/node-kinds';
import type { BotCanvasNode } from '../../canvas/types';

/** The children of a parent node, and what its form may do with them. */
export interface ChildOps {
  items: BotCanvasNode[];
  max: number;
  add: () => void;
  remove: (id: string) => void;
  rename: (id: string, label: string) => void;
  /** A Condition's Default branch, when it has none (it was deleted): adds it back. */
  addDefault?: () => void;
}

export interface NodeFormProps<K extends BotNodeType> {
  nodeId: string;
  data: BotNodeData<K>;
  onPatch: (patch: Partial<BotNodeData<K>>) => void;
  childOps?: ChildOps;
}
