/** The React Flow canvas itself, with its background, zoom controls and minimap; palette entries drop onto it. */
import { Background, Controls, MiniMap, type Edge, type Node, type NodeTypes, type Viewport, ReactFlow } from '@xyflow/react';
import { type DragEvent, useCallback, useState } from 'react';
import type { CanvasStore } from './store';
import { useZoomedOut } from './zoom';

// Props of <ReactFlow> that never change: the same objects on every render, so React Flow's store is not
// updated (and its subscribers not woken) each time the frame re-renders.
// Fit view keeps the steps clear of the zoom controls and the minimap in the bottom corners.
export const FIT_VIEW_OPTIONS = { padding: { top: '32px', x: '48px', bottom: '132px' }, maxZoom: 1 } as const;
const MINIMAP_STYLE = { width: 150, height: 100 };
// Above this many nodes, zoomed in, only those in view are in the DOM: Chromium's hit-testing, layerizing and
// painting grow with every element, seen or not. Below it, or zoomed out (plain boxes, half the canvas in view
// at once), drawing all is cheaper than mounting and measuring the nodes that come into view on each pan.
const DRAW_ALL_UP_TO = 100;
const isUntouched = (vp: Viewport | undefined) => !vp || (vp.x === 0 && vp.y === 0 && vp.zoom === 1);

interface FlowCanvasProps<N extends Node> {
  store: CanvasStore<N>;
  /** The store's nodes and edges (the frame reads them already). */
  nodes: N[];
  edges: Edge[];
  nodeTypes: NodeTypes;
  label: string;
  readOnly: boolean;
  onDrop: (e: DragEvent) => void;
}

export function FlowCanvas<N extends Node>({ store, nodes, edges, nodeTypes, label, readOnly, onDrop }: FlowCanvasProps<N>) {
  // The viewport is React Flow's while the canvas is open (it is stored on each move's end, for saving): read
  // once, so panning and zooming never re-render the frame and its side panels.
  const [viewport] = useState(() => store.getState().viewport);
  const zoomedOut = useZoomedOut();
  const onMoveEnd = useCallback((_: unknown, vp: Viewport) => store.getState().setViewport(vp), [store]);
  return (
    <div className="relative min-h-0 flex-1" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
      <ReactFlow<N>
        aria-label={label}
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        defaultViewport={viewport}
        fitView={isUntouched(viewport)}
        fitViewOptions={FIT_VIEW_OPTIONS}
        // React Flow still draws each node once, to measure it, before leaving out those not in view.
        onlyRenderVisibleElements={nodes.length > DRAW_ALL_UP_TO && !zoomedOut}
        onNodesChange={store.getState().onNodesChange}
        onEdgesChange={store.getState().onEdgesChange}
        onConnect={readOnly ? undefined : store.getState().onConnect}
        onNodeDragStart={store.getState().beginGesture}
        onNodeDragStop={store.getState().endGesture}
        onMoveEnd={onMoveEnd}
        nodesDraggable={!readOnly}
        nodesConnectable={!readOnly}
        edgesReconnectable={!readOnly}
        deleteKeyCode={null}
        minZoom={0.2}
        maxZoom={1.75}
        attributionPosition="top-right"
        colorMode="system"
      >
        {/* Left out when zoomed out: its dots are then under half a pixel, and moving the view would still repaint the whole pane each frame. */}
        {!zoomedOut && <Background gap={20} size={1} />}
        <Controls showInteractive={false} showFitView={false} />
        <MiniMap pannable zoomable ariaLabel="Canvas overview" style={MINIMAP_STYLE} className="!hidden xl:!block" />
      </ReactFlow>
    </div>
  );
}
