/**
 * The canvas frame: one editor around @xyflow/react that the campaign and bot canvases share.
 *
 * What the frame gives: a palette ("Add a step": click/Enter adds after the selected node, or drag onto the
 * canvas), the canvas with minimap, controls and fit view, an accessible node list (select, edit = keyboard into
 * the node's form, delete, and "Next step" pickers when `linear`), a validation summary whose problems select
 * their node, undo/redo (zundo; Ctrl+Z, Ctrl+Shift+Z / Ctrl+Y), copy/paste (Ctrl+C / Ctrl+V), delete by
 * keyboard (Delete/Backspace; nodes with `deletable: false` stay), and autosave (debounced, flushed on
 * navigation, page hide and beforeunload; a failed save shows its reason with a Retry and selects its step;
 * `CanvasLeaveGuard` asks before an in-app navigation drops a refused change).
 *
 * How a feature plugs in:
 *
 *   // 1. Node components, memoised, in a module-level map (never built during render):
 *   const SendNode = memo(function SendNode({ id, selected }: NodeProps<SendNodeType>) {
 *     const { data, update, readOnly } = useNodeData<SendData>(id);        // data lives in the store
 *     return (
 *       <CanvasNode id={id} selected={selected} icon={Send} kind="Send template" label={data?.label}>
 *         <input value={data?.label ?? ''} disabled={readOnly} onChange={(e) => update({ label: e.target.value })} />
 *       </CanvasNode>                                                    // its body is `nodrag nowheel`
 *     );
 *   });
 *   export const nodeTypes = { SendNode } satisfies NodeTypes;
 *
 *   // 2. Palette entries: what can be added, with fresh data (drafts may be incomplete).
 *   const palette: PaletteEntry<MyNode>[] = [{ type: 'SendNode', label: 'Send template', icon: Send,
 *     create: () => ({ type: 'SendNode', data: { label: 'Send template' } }) }];
 *
 *   // 3. One store per open editor, from the saved rfInstance:
 *   const store = useMemo(() => createCanvasStore<MyNode>(rfInstance), [id]);
 *
 *   // 4. The frame, with the shared pure validator (problems: {nodeId?, message}) and the save function:
 *   <CanvasFrame store={store} nodeTypes={nodeTypes} palette={palette} label="Bot steps"
 *     validate={(g) => validateMyCanvas(g)} save={(g) => patch({ rfInstance: g })}
 *     describeNode={(n) => n.data.label} readOnly={locked} readOnlyReason="Deployed: steps are locked" />
 *
 * Inside the frame, `useNodeData(id)` edits one node. `graphOf(state)` is what is saved. On a canvas of more
 * than 100 nodes only the nodes and edges in view are in the DOM (`onlyRenderVisibleElements`); `useZoomedOut()`
 * lets a node draw a plain box with its title when zoomed out (the bot cards do; CanvasNode draws its form).
 */
export { CanvasFrame, type CanvasController } from './canvas-frame';
export { CanvasNode } from './canvas-node';
export { CanvasLeaveGuard } from './leave-guard';
export { useNodeData } from './context';
export { type PaletteEntry } from './palette';
export { type CanvasGraph, type CanvasStore, createCanvasStore, graphOf } from './store';
export { useZoomedOut } from './zoom';
