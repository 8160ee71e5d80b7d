import type { NodeProps } from '@xyflow/react';
import { Hourglass } from 'lucide-react';
import { memo } from 'react';
import { messages } from '@shared/messages';
import { CanvasNode, useNodeData } from '../../../components/canvas';
import { Input, NativeSelect } from '../../../components/ui/input';
import { NodeField } from './field';
import type { DelayFlowNode, DelayNodeData } from './types';

/** DelayNode: wait `waitFor` hours or days before the next step (a due time in the database, not a timer). */
export const DelayNode = memo(function DelayNode({ id, selected }: NodeProps<DelayFlowNode>) {
  const { data, update, readOnly } = useNodeData<DelayNodeData>(id);
  const empty = data?.waitFor == null || !(data.waitFor > 0);
  return (
    <CanvasNode id={id} selected={selected} icon={Hourglass} kind="Delay" label={data?.label} tone="amber" formShows={(p) => p.message.includes(messages.fieldEmpty)}>
      <div className="flex items-start gap-2">
        <div className="flex-1">
          <NodeField label="Wait for" error={empty ? messages.fieldEmpty : null}>
            <Input
              type="number"
              min={1}
              inputMode="numeric"
              disabled={readOnly}
              value={data?.waitFor ?? ''}
              onChange={(e) => update({ waitFor: e.target.value === '' ? null : Number(e.target.value) })}
            />
          </NodeField>
        </div>
        <div className="w-28">
          <NodeField label="Unit">
            <NativeSelect disabled={readOnly} value={data?.waitForUnit ?? 'hours'} onChange={(e) => update({ waitForUnit: e.target.value as 'hours' | 'days' })}>
              <option value="hours">Hours</option>
              <option value="days">Days</option>
            </NativeSelect>
          </NodeField>
        </div>
      </div>
    </CanvasNode>
  );
});
