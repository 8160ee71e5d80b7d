/**
 * The selected step's form, beside the canvas. It carries `data-node-form` so the frame's "Edit" and problem
 * buttons move the keyboard into it. Forms write into the canvas store; Start cannot be deleted.
 */
import type { BotNodeType } from '@shared/schemas/bot-canvas';
import { MousePointerClick, Trash2 } from 'lucide-react';
import { useCallback } from 'react';
import { useStore } from 'zustand';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { type BotStore, childOpsOf } from '../canvas/bot-store';
import { childrenOf } from '../canvas/children';
import { botNodeKinds } from '../canvas/node-kinds';
import { nodeForms } from './forms/node-form';
import { NextSteps } from './next-steps';
import type { NodeFormProps } from './forms/types';

export function StepInspector({ store, readOnly }: { store: BotStore; readOnly: boolean }) {
  const selectedId = useStore(store, (s) => s.selectedId);
  const node = useStore(store, (s) => (s.selectedId ? s.nodes.find((n) => n.id === s.selectedId) : undefined));
  // Children change rarely; reading them by id list keeps the form from re-rendering on every drag frame.
  const childIds = useStore(store, (s) => (node ? childrenOf(s.nodes, s.edges, node.id).map((c) => `${c.id}:${String(c.data.label)}:${String(c.data.type ?? '')}`).join('|') : ''));
  const onPatch = useCallback(
    (patch: Record<string, unknown>) => {
      if (!readOnly && selectedId) store.getState().updateNodeData(selectedId, patch);
    },
    [store, selectedId, readOnly],
  );
  if (!node) {
    return (
      <EmptyState
        icon={MousePointerClick}
        title="Select a step"
        description="Click a step on the canvas, or use Edit in the list of steps, to change what it does."
      />
    );
  }
  const kind = botNodeKinds[node.type];
  const Form = nodeForms[node.type] as unknown as React.ComponentType<NodeFormProps<BotNodeType>>;
  const Icon = kind.icon;
  const children = childIds !== undefined ? childOpsOf(store, node) : undefined;
  return (
    <div className="flex flex-col gap-3" data-node-form={node.id}>
      <div className="flex items-center gap-2">
        <span className={`flex size-7 items-center justify-center rounded-md ${kind.tone}`}>
          <Icon className="size-4" aria-hidden />
        </span>
        <div className="min-w-0 flex-1">
          <h2 className="text-sm font-semibold">{kind.title}</h2>
          <p className="text-xs text-fg-muted">{kind.description}</p>
        </div>
        {!readOnly && node.deletable !== false && node.type !== 'StartNode' && (
          <Button variant="ghost" size="icon-sm" aria-label={`Delete ${kind.title}`} onClick={() => store.getState().deleteNodes([node.id])}>
            <Trash2 />
          </Button>
        )}
      </div>
      <fieldset disabled={readOnly} className="flex min-w-0 flex-col gap-3">
        <Form key={node.id} nodeId={node.id} data={node.data as never} onPatch={onPatch as never} childOps={children} />
      </fieldset>
      <NextSteps store={store} nodeId={node.id} type={node.type} readOnly={readOnly} />
    </div>
  );
}
