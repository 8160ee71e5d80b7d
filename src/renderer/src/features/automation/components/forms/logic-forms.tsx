/** Forms of Condition (its Normal branches and their conditions), a branch, and HTTPRequest. */
import { ConditionBranchNodeData, ConditionNodeData, HTTPRequestNodeData, botRuntime } from '@shared/schemas/bot-canvas';
import { limits } from '@shared/limits';
import { Plus, Trash2 } from 'lucide-react';
import { type UseFormReturn, useFieldArray, useWatch } from 'react-hook-form';
import { Button } from '../../../../components/ui/button';
import { FormField } from '../../../../components/ui/form-field';
import { NativeSelect } from '../../../../components/ui/input';
import { AttributeSelect, FormSection, NumberField, TextField, VariableTextField, errorOf, newKey, nodrag, useNodeForm } from './form-kit';
import type { NodeFormProps } from './types';

type ConditionData = NodeFormProps<'ConditionNode'>['data'];

/** The conditions of one Normal branch (all must hold). */
function BranchConditions({ form, index }: { form: UseFormReturn<ConditionData>; index: number }) {
  const conditions = useFieldArray({ control: form.control, name: `branches.${index}.conditions`, keyName: 'key' });
  return (
    <div className="flex flex-col gap-2">
      {conditions.fields.map((c, j) => (
        <div key={c.key} className="grid grid-cols-[1fr_5.5rem_1fr_auto] items-start gap-1.5">
          <AttributeSelect form={form} name={`branches.${index}.conditions.${j}.attributeId`} label={j === 0 ? 'When' : 'and'} />
          <FormField label="Is">
            <NativeSelect className={nodrag} {...form.register(`branches.${index}.conditions.${j}.operator`)}>
              <option value="EQUALS">equal to</option>
              <option value="NOT_EQUALS">not equal to</option>
            </NativeSelect>
          </FormField>
          <TextField form={form} name={`branches.${index}.conditions.${j}.value`} label="Value" />
          <Button type="button" size="icon-sm" variant="ghost" className="mt-6" aria-label={`Remove condition ${j + 1}`} onClick={() => conditions.remove(j)}>
            <Trash2 />
          </Button>
        </div>
      ))}
      {errorOf(form as never, `branches.${index}.conditions`) && (
        <p role="alert" className="text-xs font-medium text-danger">
          {errorOf(form as never, `branches.${index}.conditions`)}
        </p>
      )}
      <Button
        type="button"
        size="sm"
        variant="ghost"
        className="self-start"
        disabled={conditions.fields.length >= limits.request.listItems}
        onClick={() => conditions.append({ id: newKey(), attributeId: '', operator: 'EQUALS', value: '' })}
      >
        <Plus /> Add condition
      </Button>
    </div>
  );
}

/**
 * A Condition's branches: each Normal branch is an entry of `branches` and a child node of the same id (its
 * exit on the canvas); the Default branch is a child node only. Adding or removing a branch does both.
 */
export function ConditionForm({ data, onPatch, childOps: children }: NodeFormProps<'ConditionNode'>) {
  const form = useNodeForm(ConditionNodeData, data, onPatch);
  const branches = useWatch({ control: form.control, name: 'branches' }) ?? [];
  const hasDefault = !!children?.items.some((c) => c.data.type === 'Default');
  return (
    <div className="flex flex-col gap-3">
      <TextField form={form} name="label" label="Label" />
      <p className="text-xs text-fg-muted">The bot takes the first branch whose conditions all hold, otherwise the Default branch.</p>
      {errorOf(form as never, 'branches') && (
        <p role="alert" className="text-xs font-medium text-danger">
          {errorOf(form as never, 'branches')}
        </p>
      )}
      {branches.map((b, i) => (
        <FormSection
          key={b.id}
          title={`Branch ${i + 1}`}
          action={
            children && (
              <Button type="button" size="icon-sm" variant="ghost" aria-label={`Remove branch ${i + 1}`} onClick={() => children.remove(b.id)}>
                <Trash2 />
              </Button>
            )
          }
        >
          <FormField label="Branch name" error={errorOf(form as never, `branches.${i}.label`)}>
            <input
              className={`${nodrag} h-8 w-full rounded-md border border-border-strong bg-surface px-2.5 text-[13px]`}
              value={b.label}
              onChange={(e) => {
                form.setValue(`branches.${i}.label`, e.target.value, { shouldValidate: true, shouldDirty: true });
                children?.rename(b.id, e.target.value);
              }}
            />
          </FormField>
          <BranchConditions form={form} index={i} />
        </FormSection>
      ))}
      {children && (
        <Button type="button" size="sm" variant="secondary" className="self-start" disabled={children.items.length >= children.max} onClick={children.add}>
          <Plus /> Add branch
        </Button>
      )}
      {hasDefault || !children?.addDefault ? (
        <p className="text-xs text-fg-muted">{hasDefault ? 'Default branch: taken when no branch above holds.' : 'This condition has no Default branch.'}</p>
      ) : (
        <div className="flex flex-col gap-1.5 rounded-md border border-danger/40 bg-danger-soft p-2">
          <p className="text-xs text-danger">This condition has no Default branch: the bot needs one for when no branch holds.</p>
          <Button type="button" size="sm" variant="secondary" className="self-start" onClick={children.addDefault}>
            <Plus /> Add Default branch
          </Button>
        </div>
      )}
    </div>
  );
}

export function ConditionBranchForm({ data, onPatch }: NodeFormProps<'ConditionBranchNode'>) {
  const form = useNodeForm(ConditionBranchNodeData, data, onPatch);
  return (
    <div className="flex flex-col gap-3">
      <TextField form={form} name="label" label="Branch name" />
      <p className="text-xs text-fg-muted">
        {data.type === 'Default' ? 'The Default branch is taken when no other branch holds.' : 'Edit its conditions on the condition step.'}
      </p>
    </div>
  );
}

export function HTTPRequestForm({ data, onPatch }: NodeFormProps<'HTTPRequestNode'>) {
  const form = useNodeForm(HTTPRequestNodeData, data, onPatch);
  const headers = useFieldArray({ control: form.control, name: 'headers' });
  const mappings = useFieldArray({ control: form.control, name: 'responseMappings', keyName: 'key' });
  const method = useWatch({ control: form.control, name: 'method' });
  const http = botRuntime.http;
  return (
    <div className="flex flex-col gap-3">
      <TextField form={form} name="label" label="Label" />
      <div className="grid grid-cols-[6rem_1fr] items-start gap-2">
        <FormField label="Method" error={errorOf(form as never, 'method')}>
          <NativeSelect className={nodrag} {...form.register('method')}>
            {HTTPRequestNodeData.shape.method.options.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </NativeSelect>
        </FormField>
        <VariableTextField control={form.control} name="url" label="URL" placeholder="https://api.example.com/orders/{{Order number}}" />
      </div>
      <p className="text-xs text-fg-muted">Only public addresses are called: private, loopback, link-local and cloud metadata addresses are refused.</p>
      <FormSection
        title="Headers"
        action={
          <Button type="button" size="sm" variant="secondary" disabled={headers.fields.length >= limits.request.listItems} onClick={() => headers.append({ key: '', value: '' })}>
            <Plus /> Add header
          </Button>
        }
      >
        {headers.fields.map((h, i) => (
          <div key={h.id} className="grid grid-cols-[1fr_1fr_auto] items-start gap-2">
            <TextField form={form} name={`headers.${i}.key`} label="Name" />
            <VariableTextField control={form.control} name={`headers.${i}.value`} label="Value" />
            <Button type="button" size="icon-sm" variant="ghost" className="mt-6" aria-label={`Remove header ${i + 1}`} onClick={() => headers.remove(i)}>
              <Trash2 />
            </Button>
          </div>
        ))}
      </FormSection>
      {method !== 'GET' && (
        <FormSection title="Body">
          <FormField label="Body type" error={errorOf(form as never, 'bodyType')}>
            <NativeSelect className={nodrag} {...form.register('bodyType')}>
              <option value="raw">Raw (JSON or text)</option>
              <option value="form">Form (key=value lines)</option>
            </NativeSelect>
          </FormField>
          <VariableTextField control={form.control} name="body" label="Body" multiline optional />
        </FormSection>
      )}
      <NumberField
        form={form}
        name="timeoutMs"
        label="Timeout (ms)"
        hint={`${http.minTimeoutMs} to ${http.maxTimeoutMs}; default ${http.defaultTimeoutMs}. A failed or slow call follows the "On failure" exit.`}
      />
      <FormSection
        title="Save parts of the answer"
        action={
          <Button type="button" size="sm" variant="secondary" onClick={() => mappings.append({ id: newKey(), path: '$.', attributeId: '' })}>
            <Plus /> Add mapping
          </Button>
        }
      >
        {mappings.fields.map((m, i) => (
          <div key={m.key} className="grid grid-cols-[1fr_1fr_auto] items-start gap-2">
            <TextField form={form} name={`responseMappings.${i}.path`} label="Path" placeholder="$.data.id" />
            <AttributeSelect form={form} name={`responseMappings.${i}.attributeId`} label="Attribute" />
            <Button type="button" size="icon-sm" variant="ghost" className="mt-6" aria-label={`Remove mapping ${i + 1}`} onClick={() => mappings.remove(i)}>
              <Trash2 />
            </Button>
          </div>
        ))}
      </FormSection>
    </div>
  );
}
