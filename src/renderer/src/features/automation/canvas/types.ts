import type { BotNodeType } from '@shared/schemas/bot-canvas';
import type { Node } from '@xyflow/react';

/** A bot node as the editor holds it: React Flow's node with the kind's (possibly unfinished) data. */
export type BotCanvasNode = Node<Record<string, unknown>, BotNodeType>;
