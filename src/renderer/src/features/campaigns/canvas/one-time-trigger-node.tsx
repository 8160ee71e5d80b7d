import type { NodeProps } from '@xyflow/react';
import { Users } from 'lucide-react';
import { memo } from 'react';
import { messages } from '@shared/messages';
import { CanvasNode, useNodeData } from '../../../components/canvas';
import { NativeSelect } from '../../../components/ui/input';
import { plural } from '../../../lib/format';
import { useSegments } from '../../../lib/queries/segments';
import { useSegmentCount } from '../api/preview-segment';
import { useCampaignEditor } from './editor-context';
import { NodeField } from './field';
import { SendWindowField } from './send-window-field';
import type { OneTimeTriggerFlowNode, OneTimeTriggerNodeData } from './types';

/** OneTimeTriggerNode: the audience segment, with how many contacts it holds now. */
export const OneTimeTriggerNode = memo(function OneTimeTriggerNode({ id, selected }: NodeProps<OneTimeTriggerFlowNode>) {
  const { workspaceId } = useCampaignEditor();
  const { data, update, readOnly } = useNodeData<OneTimeTriggerNodeData>(id);
  const segments = useSegments(workspaceId);
  const segment = segments.data?.find((s) => s.id === data?.segmentId);
  const count = useSegmentCount(workspaceId, segment?.filters);
  const retarget = data?.retarget;
  return (
    <CanvasNode
      id={id}
      selected={selected}
      icon={Users}
      kind="One-time trigger"
      label={data?.label}
      tone="green"
      target={false}
      formShows={(p) => p.message === messages.selectSegment}
    >
      {retarget ? (
        <p className="text-xs text-fg-muted">
          Sends to the recipients of an earlier campaign whose outcome was <strong>{retarget.outcome}</strong>
          {retarget.errorCode ? ` (error ${retarget.errorCode})` : ''}, taken when this campaign deploys.
        </p>
      ) : (
        <NodeField
          label="Audience segment"
          error={!data?.segmentId ? messages.selectSegment : null}
          hint={segment && (count.data ? `${plural(count.data.count, 'contact')} in this segment now` : 'Counting contacts…')}
        >
          <NativeSelect disabled={readOnly} value={data?.segmentId ?? ''} onChange={(e) => update({ segmentId: e.target.value })}>
            <option value="">{segments.isPending ? 'Loading segments…' : 'Select a segment'}</option>
            {segments.data?.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </NativeSelect>
        </NodeField>
      )}
      <SendWindowField value={data?.sendWindow} readOnly={readOnly} onChange={(sendWindow) => update({ sendWindow })} />
    </CanvasNode>
  );
});
