import type { NodeProps } from '@xyflow/react';
import { Plus, Repeat, X } from 'lucide-react';
import { memo } from 'react';
import { CanvasNode, useNodeData } from '../../../components/canvas';
import { Button } from '../../../components/ui/button';
import { Input, NativeSelect } from '../../../components/ui/input';
import { useAttributes } from '../../../lib/queries/attributes';
import { useCampaignEditor } from './editor-context';
import { SendWindowField } from './send-window-field';
import { TriggerAccess } from './trigger-access';
import type { RecurringTriggerFlowNode, RecurringTriggerNodeData } from './types';

/**
 * RecurringTriggerNode: runs the chain for each record another system posts to the trigger URL; each record key
 * in `attributeMapping` is stored in that contact attribute.
 */
export const RecurringTriggerNode = memo(function RecurringTriggerNode({ id, selected }: NodeProps<RecurringTriggerFlowNode>) {
  const { workspaceId } = useCampaignEditor();
  const { data, update, readOnly } = useNodeData<RecurringTriggerNodeData>(id);
  const attributes = useAttributes(workspaceId);
  const rows = data?.attributeMapping ?? [];
  const setRow = (rowId: string, patch: Partial<(typeof rows)[number]>) =>
    update({ attributeMapping: rows.map((r) => (r.id === rowId ? { ...r, ...patch } : r)) });
  return (
    <CanvasNode
      id={id}
      selected={selected}
      icon={Repeat}
      kind="Recurring trigger"
      label={data?.label}
      tone="green"
      target={false}
      width="w-96"
      formShows={(p) => p.message.startsWith('Mapping row')}
    >
      <fieldset className="flex flex-col gap-1.5" disabled={readOnly}>
        <legend className="mb-1 text-xs font-medium text-fg">Record keys to attributes</legend>
        {rows.length === 0 && <p className="text-[11px] text-fg-subtle">No mapping: records only need a phone number.</p>}
        {rows.map((r, i) => (
          <div key={r.id}>
            <div className="flex items-center gap-1.5">
              <Input
                aria-label={`Record key of row ${i + 1}`}
                className="h-7 text-xs"
                placeholder="order_id"
                value={r.objectKey}
                onChange={(e) => setRow(r.id, { objectKey: e.target.value })}
              />
              <span aria-hidden className="text-fg-subtle">→</span>
              <NativeSelect aria-label={`Attribute of row ${i + 1}`} className="h-7 text-xs" value={r.attributeId} onChange={(e) => setRow(r.id, { attributeId: e.target.value })}>
                <option value="">Attribute…</option>
                {attributes.data?.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
              </NativeSelect>
              {!readOnly && (
                <Button variant="ghost" size="icon-sm" aria-label={`Remove row ${i + 1}`} onClick={() => update({ attributeMapping: rows.filter((x) => x.id !== r.id) })}>
                  <X />
                </Button>
              )}
            </div>
            {(!r.objectKey || !r.attributeId) && <p className="mt-0.5 text-[11px] text-danger">Mapping row {i + 1}: This field cannot be empty</p>}
          </div>
        ))}
        {!readOnly && (
          <Button
            variant="secondary"
            size="sm"
            className="self-start"
            onClick={() => update({ attributeMapping: [...rows, { id: globalThis.crypto.randomUUID(), objectKey: '', attributeId: '' }] })}
          >
            <Plus /> Add mapping
          </Button>
        )}
      </fieldset>
      <SendWindowField value={data?.sendWindow} readOnly={readOnly} onChange={(sendWindow) => update({ sendWindow })} />
      <TriggerAccess objectKeys={rows.map((r) => r.objectKey).filter(Boolean)} />
    </CanvasNode>
  );
});
