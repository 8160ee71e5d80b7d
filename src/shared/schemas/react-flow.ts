/**
 * What React Flow saves of a canvas (`toObject()`: nodes, edges, viewport), shared by the bot and the campaign
 * canvases so that a canvas saved by React Flow passes both schemas; each canvas adds its own node kinds.
 */
import * as z from '../zod';
import { limits } from '../limits';

const lim = limits.request;
/** Ids and handles the client makes up (node ids, React Flow handles, attribute ids). */
export const Key = z.string().max(lim.key);
export const ShortText = z.string().max(lim.shortText);
/** React Flow style objects: a few CSS properties. */
const Style = z.record(ShortText, z.union([ShortText, z.number()]));

export const XYPosition = z.strictObject({ x: z.number(), y: z.number() });
export const Viewport = z.strictObject({ x: z.number(), y: z.number(), zoom: z.number() });

/**
 * Keys React Flow itself keeps on a node or edge (selection, measured size...). They are presentation only,
 * accepted so that `toObject()` of a canvas can be saved as it is; anything else is refused.
 */
const reactFlowNodeKeys = {
  deletable: z.boolean().default(true),
  measured: z.strictObject({ width: z.number().optional(), height: z.number().optional() }).optional(),
  width: z.number().nullish(),
  height: z.number().nullish(),
  selected: z.boolean().optional(),
  dragging: z.boolean().optional(),
  draggable: z.boolean().optional(),
  selectable: z.boolean().optional(),
  connectable: z.boolean().optional(),
  focusable: z.boolean().optional(),
  hidden: z.boolean().optional(),
  zIndex: z.number().optional(),
  parentId: Key.optional(),
  extent: z.union([z.literal('parent'), z.array(z.array(z.number()).max(2)).max(2)]).optional(),
  sourcePosition: z.enum(['left', 'right', 'top', 'bottom']).optional(),
  targetPosition: z.enum(['left', 'right', 'top', 'bottom']).optional(),
  className: ShortText.optional(),
  style: Style.optional(),
};

/** A node of `type` with `data`, as React Flow saves it: id, type, position, data and its own keys. */
export function reactFlowNode<T extends string, D extends z.ZodType>(type: T, data: D) {
  return z.strictObject({
    id: Key.min(1),
    type: z.literal(type),
    position: XYPosition,
    data,
    ...reactFlowNodeKeys,
  });
}

export const Edge = z.strictObject({
  id: Key.min(1),
  source: Key.min(1),
  target: Key.min(1),
  style: Style.optional(),
  sourceHandle: Key.nullish(),
  targetHandle: Key.nullish(),
  type: ShortText.optional(),
  animated: z.boolean().optional(),
  selected: z.boolean().optional(),
  deletable: z.boolean().optional(),
  label: z.string().max(limits.text.title).optional(),
  markerEnd: z.union([ShortText, Style]).optional(),
  zIndex: z.number().optional(),
});
export type Edge = z.infer<typeof Edge>;

/** Checks that hold across the canvas: unique node ids, edges between existing nodes, one start node. */
export function canvasRefinement(requireStart: string | null) {
  return (
    rf: { nodes: { id: string; type: string }[]; edges: { id: string; source: string; target: string }[] },
    ctx: z.RefinementCtx,
  ) => {
    const ids = new Set<string>();
    rf.nodes.forEach((n, i) => {
      if (ids.has(n.id)) ctx.addIssue({ code: 'custom', path: ['nodes', i, 'id'], message: `Duplicate node id ${n.id}` });
      ids.add(n.id);
    });
    rf.edges.forEach((e, i) => {
      if (!ids.has(e.source)) ctx.addIssue({ code: 'custom', path: ['edges', i, 'source'], message: `Edge source ${e.source} is not a node` });
      if (!ids.has(e.target)) ctx.addIssue({ code: 'custom', path: ['edges', i, 'target'], message: `Edge target ${e.target} is not a node` });
    });
    if (requireStart) {
      const starts = rf.nodes.filter((n) => n.type === requireStart).length;
      if (starts > 1) ctx.addIssue({ code: 'custom', path: ['nodes'], message: `A canvas has at most one ${requireStart}` });
    }
  };
}
