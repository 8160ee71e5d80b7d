/** Forms of the nodes that wait for the customer: CollectInput, List (+ items), Reply (+ buttons), WhatsappFlow. */
import {
  CollectInputNodeData,
  ListButtonNodeData,
  ListNodeData,
  ReplyButtonNodeData,
  ReplyNodeData,
  WhatsappFlowNodeData,
} from '@shared/schemas/bot-canvas';
import { Plus, Trash2 } from 'lucide-react';
import { useFieldArray } from 'react-hook-form';
import { Button } from '../../../../components/ui/button';
import { FormField } from '../../../../components/ui/form-field';
import { Input, NativeSelect } from '../../../../components/ui/input';
import { useWhatsappFlows } from '../../api/get-whatsapp-flows';
import { useBotEditor } from '../../canvas/editor-context';
import { AttributeSelect, FormSection, NumberField, TextField, VariableTextField, errorOf, newKey, nodrag, useNodeForm } from './form-kit';
import type { ChildOps, NodeFormProps } from './types';

const noAnswerHint = 'Optional. When the customer does not answer in time, the bot follows the "No answer" exit.';

export function CollectInputForm({ data, onPatch }: NodeFormProps<'CollectInputNode'>) {
  const form = useNodeForm(CollectInputNodeData, data, onPatch);
  return (
    <div className="flex flex-col gap-3">
      <TextField form={form} name="label" label="Label" />
      <VariableTextField control={form.control} name="body" label="Question" multiline />
      <AttributeSelect form={form} name="variableId" label="Save the answer in" hint="The answer is checked against the attribute's format." />
      <VariableTextField control={form.control} name="errorMessage" label="When the answer does not fit" optional placeholder="Please check your answer and try again" />
      <NumberField form={form} name="noAnswerTimeoutMinutes" label="No answer after (minutes)" hint={noAnswerHint} />
    </div>
  );
}

/** The children editor of a List or a Reply: one label input per item, add and remove, the limit shown. */
function ChildLabels({ ops, noun, schema }: { ops: ChildOps; noun: string; schema: typeof ListButtonNodeData }) {
  const full = ops.items.length >= ops.max;
  return (
    <FormSection
      title={`${noun[0].toUpperCase()}${noun.slice(1)}s (${ops.items.length} of at most ${ops.max})`}
      action={
        <Button type="button" size="sm" variant="secondary" disabled={full} onClick={ops.add}>
          <Plus /> Add {noun}
        </Button>
      }
    >
      {full && <p className="text-xs text-fg-muted">WhatsApp shows at most {ops.max} {noun}s.</p>}
      {ops.items.length === 0 && <p className="text-xs text-fg-muted">No {noun}s yet: the customer needs at least one to choose.</p>}
      {ops.items.map((child, i) => {
        const label = typeof child.data.label === 'string' ? child.data.label : '';
        const parsed = schema.safeParse({ label });
        const error = parsed.success ? undefined : parsed.error.issues[0]?.message;
        return (
          <div key={child.id} className="flex items-start gap-1">
            <FormField label={`${noun[0].toUpperCase()}${noun.slice(1)} ${i + 1}`} error={error} className="flex-1">
              <Input className={nodrag} value={label} onChange={(e) => ops.rename(child.id, e.target.value)} />
            </FormField>
            <Button type="button" size="icon-sm" variant="ghost" className="mt-6" aria-label={`Remove ${noun} ${i + 1}`} onClick={() => ops.remove(child.id)}>
              <Trash2 />
            </Button>
          </div>
        );
      })}
    </FormSection>
  );
}

export function ListForm({ data, onPatch, childOps: children }: NodeFormProps<'ListNode'>) {
  const form = useNodeForm(ListNodeData, data, onPatch);
  return (
    <div className="flex flex-col gap-3">
      <TextField form={form} name="label" label="Label" />
      <VariableTextField control={form.control} name="header" label="Header" optional />
      <VariableTextField control={form.control} name="body" label="Body" multiline />
      <TextField form={form} name="footer" label="Footer" optional />
      <TextField form={form} name="buttonName" label="Menu button" hint="The button that opens the list (1 to 20 characters)." />
      <VariableTextField control={form.control} name="errorMessage" label="When the customer types instead of choosing" multiline />
      <AttributeSelect form={form} name="selectedAttributeId" label="Save the choice in" optional />
      <NumberField form={form} name="noAnswerTimeoutMinutes" label="No answer after (minutes)" hint={noAnswerHint} />
      {children && <ChildLabels ops={children} noun="item" schema={ListButtonNodeData} />}
    </div>
  );
}

export function ReplyForm({ data, onPatch, childOps: children }: NodeFormProps<'ReplyNode'>) {
  const form = useNodeForm(ReplyNodeData, data, onPatch);
  return (
    <div className="flex flex-col gap-3">
      <TextField form={form} name="label" label="Label" />
      <VariableTextField control={form.control} name="header" label="Header" optional />
      <VariableTextField control={form.control} name="body" label="Body" multiline />
      <TextField form={form} name="footer" label="Footer" optional />
      <VariableTextField control={form.control} name="errorMessage" label="When the customer types instead of tapping" multiline />
      <AttributeSelect form={form} name="selectedAttributeId" label="Save the choice in" optional />
      <NumberField form={form} name="noAnswerTimeoutMinutes" label="No answer after (minutes)" hint={noAnswerHint} />
      {children && <ChildLabels ops={children} noun="button" schema={ReplyButtonNodeData} />}
    </div>
  );
}

export function ListButtonForm({ data, onPatch }: NodeFormProps<'ListButtonNode'>) {
  const form = useNodeForm(ListButtonNodeData, data, onPatch);
  return <TextField form={form} name="label" label="Item label" hint="1 to 24 characters." />;
}

export function ReplyButtonForm({ data, onPatch }: NodeFormProps<'ReplyButtonNode'>) {
  const form = useNodeForm(ReplyButtonNodeData, data, onPatch);
  return <TextField form={form} name="label" label="Button label" hint="1 to 20 characters." />;
}

export function WhatsappFlowForm({ data, onPatch }: NodeFormProps<'WhatsappFlowNode'>) {
  const form = useNodeForm(WhatsappFlowNodeData, data, onPatch);
  const { whatsappAccountId } = useBotEditor();
  const flows = useWhatsappFlows(whatsappAccountId);
  const mapping = useFieldArray({ control: form.control, name: 'attributeMapping', keyName: 'key' });
  return (
    <div className="flex flex-col gap-3">
      <TextField form={form} name="label" label="Label" />
      <FormField
        label="Flow"
        error={errorOf(form as never, 'flowId')}
        hint={!whatsappAccountId ? 'Connect the bot to a number to choose one of its flows.' : flows.isError ? 'The flows of this number could not be loaded.' : undefined}
      >
        <NativeSelect className={nodrag} disabled={!whatsappAccountId} {...form.register('flowId')}>
          <option value="">{flows.isLoading ? 'Loading flows...' : 'Choose a flow'}</option>
          {data.flowId && !flows.data?.some((f) => f.id === data.flowId) && <option value={data.flowId}>{data.flowId}</option>}
          {flows.data?.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name} ({f.status.toLowerCase()})
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <VariableTextField control={form.control} name="header" label="Header" optional />
      <VariableTextField control={form.control} name="body" label="Body" multiline />
      <TextField form={form} name="footer" label="Footer" optional />
      <TextField form={form} name="flowCTA" label="Button" hint="The button that opens the flow (1 to 20 characters)." />
      <VariableTextField control={form.control} name="errorMessage" label="When the customer does not fill the flow" multiline />
      <NumberField form={form} name="noAnswerTimeoutMinutes" label="No answer after (minutes)" hint={noAnswerHint} />
      <FormSection
        title="Answers to attributes"
        action={
          <Button type="button" size="sm" variant="secondary" onClick={() => mapping.append({ id: newKey(), objectKey: '', attributeId: '' })}>
            <Plus /> Add mapping
          </Button>
        }
      >
        {mapping.fields.map((m, i) => (
          <div key={m.key} className="grid grid-cols-[1fr_1fr_auto] items-start gap-2">
            <TextField form={form} name={`attributeMapping.${i}.objectKey`} label="Flow field" />
            <AttributeSelect form={form} name={`attributeMapping.${i}.attributeId`} label="Attribute" />
            <Button type="button" size="icon-sm" variant="ghost" className="mt-6" aria-label={`Remove mapping ${i + 1}`} onClick={() => mapping.remove(i)}>
              <Trash2 />
            </Button>
          </div>
        ))}
      </FormSection>
    </div>
  );
}
