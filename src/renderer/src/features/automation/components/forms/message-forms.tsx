/** Forms of the nodes that send: Start, SendMessage, Media, SendEmail, HumanHandoff. */
import { MediaNodeData, SendEmailNodeData, SendMessageNodeData, StartNodeData, HumanHandoffNodeData } from '@shared/schemas/bot-canvas';
import { limits } from '@shared/limits';
import { Plus, Trash2, Upload } from 'lucide-react';
import { useRef, useState } from 'react';
import { useFieldArray, useWatch, Controller } from 'react-hook-form';
import { toast } from 'sonner';
import { Button } from '../../../../components/ui/button';
import { FormField } from '../../../../components/ui/form-field';
import { Input, NativeSelect } from '../../../../components/ui/input';
import { errorText } from '../../../../lib/api-client';
import { useUploadBotMedia } from '../../api/upload-bot-media';
import { useBotEditor } from '../../canvas/editor-context';
import {
  AttributeSelect,
  FormSection,
  MemberSelect,
  NumberField,
  TextField,
  VariableTextField,
  errorOf,
  newKey,
  nodrag,
  useNodeForm,
} from './form-kit';
import type { NodeFormProps } from './types';

export function StartForm({ data, onPatch }: NodeFormProps<'StartNode'>) {
  const form = useNodeForm(StartNodeData, data, onPatch);
  const condition = useWatch({ control: form.control, name: 'startCondition' });
  const keywords = condition?.type === 'keywords' ? condition.keywords : [];
  return (
    <div className="flex flex-col gap-3">
      <TextField form={form} name="label" label="Label" />
      <FormSection title="Start conditions">
        <FormField label="Start a session on">
          <NativeSelect
            className={nodrag}
            value={condition?.type ?? 'anyMessage'}
            onChange={(e) =>
              form.setValue(
                'startCondition',
                e.target.value === 'keywords' ? { type: 'keywords', keywords: [], match: 'contains' } : { type: 'anyMessage' },
                { shouldValidate: true, shouldDirty: true },
              )
            }
          >
            <option value="anyMessage">Any message</option>
            <option value="keywords">Messages with a keyword</option>
          </NativeSelect>
        </FormField>
        {condition?.type === 'keywords' && (
          <>
            <FormField
              label="Keywords"
              hint="Separate keywords with commas. Any case."
              error={errorOf(form as never, 'startCondition.keywords') ?? errorOf(form as never, 'startCondition.keywords.0')}
            >
              <Input
                className={nodrag}
                defaultValue={keywords.join(', ')}
                onChange={(e) =>
                  form.setValue(
                    'startCondition',
                    { ...condition, keywords: e.target.value.split(',').map((k) => k.trim()).filter(Boolean) },
                    { shouldValidate: true, shouldDirty: true },
                  )
                }
              />
            </FormField>
            <FormField label="Match">
              <NativeSelect
                className={nodrag}
                value={condition.match}
                onChange={(e) => form.setValue('startCondition', { ...condition, match: e.target.value as 'exact' | 'contains' }, { shouldValidate: true })}
              >
                <option value="contains">The message contains a keyword</option>
                <option value="exact">The message is exactly a keyword</option>
              </NativeSelect>
            </FormField>
          </>
        )}
        <NumberField form={form} name="idleExpiryMinutes" label="End a quiet session after (minutes)" hint="Default 60; a session also ends when WhatsApp's 24-hour window closes." />
        <AttributeSelect form={form} name="variableId" label="Keep the first message in" optional />
      </FormSection>
    </div>
  );
}

export function SendMessageForm({ data, onPatch }: NodeFormProps<'SendMessageNode'>) {
  const form = useNodeForm(SendMessageNodeData, data, onPatch);
  const blocks = useFieldArray({ control: form.control, name: 'messageBlocks', keyName: 'key' });
  return (
    <div className="flex flex-col gap-3">
      <TextField form={form} name="label" label="Label" />
      <FormSection
        title="Messages"
        action={
          <Button type="button" size="sm" variant="secondary" disabled={blocks.fields.length >= limits.request.listItems} onClick={() => blocks.append({ id: newKey(), type: 'text', text: '' })}>
            <Plus /> Add text
          </Button>
        }
      >
        {blocks.fields.map((b, i) => (
          <div key={b.key} className="flex items-start gap-1">
            <div className="flex-1">
              <VariableTextField control={form.control} name={`messageBlocks.${i}.text`} label={`Text ${i + 1}`} multiline />
            </div>
            {blocks.fields.length > 1 && (
              <Button type="button" size="icon-sm" variant="ghost" className="mt-6" aria-label={`Remove text ${i + 1}`} onClick={() => blocks.remove(i)}>
                <Trash2 />
              </Button>
            )}
          </div>
        ))}
      </FormSection>
    </div>
  );
}

export function MediaForm({ data, onPatch }: NodeFormProps<'MediaNode'>) {
  const form = useNodeForm(MediaNodeData, data, onPatch);
  const { botId } = useBotEditor();
  const upload = useUploadBotMedia(botId);
  const file = useRef<HTMLInputElement>(null);
  return (
    <div className="flex flex-col gap-3">
      <TextField form={form} name="label" label="Label" />
      <FormField label="Kind" error={errorOf(form as never, 'mediaType')}>
        <NativeSelect className={nodrag} {...form.register('mediaType')}>
          <option value="image">Image</option>
          <option value="video">Video</option>
          <option value="document">Document</option>
        </NativeSelect>
      </FormField>
      <TextField form={form} name="mediaLink" label="Link" type="url" placeholder="https://" hint="A public link, or upload a file (JPEG, PNG, MP4, 3GPP, PDF; up to 16 MB)." />
      <div>
        <input
          ref={file}
          type="file"
          className="sr-only"
          aria-label="Media file"
          accept="image/jpeg,image/png,video/mp4,video/3gpp,application/pdf"
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (!f) return;
            upload.mutate(f, {
              onSuccess: ({ mediaLink }) => {
                form.setValue('mediaLink', mediaLink, { shouldValidate: true, shouldDirty: true });
                if (!form.getValues('filename')) form.setValue('filename', f.name, { shouldDirty: true });
                form.setValue('mediaType', f.type.startsWith('image/') ? 'image' : f.type.startsWith('video/') ? 'video' : 'document', { shouldDirty: true });
                toast.success(`${f.name} uploaded`);
              },
              onError: (err) => toast.error(errorText(err)),
            });
            e.target.value = '';
          }}
        />
        <Button type="button" variant="secondary" size="sm" loading={upload.isPending} onClick={() => file.current?.click()}>
          <Upload /> Upload a file
        </Button>
      </div>
      <VariableTextField control={form.control} name="caption" label="Caption" multiline optional />
      <TextField form={form} name="filename" label="File name" optional hint="Shown for documents." />
    </div>
  );
}

/** A list of e-mail addresses edited as one comma-separated field (each address checked by the schema). */
function AddressesField({ control, name, label }: { control: ReturnType<typeof useNodeForm<SendEmailData>>['control']; name: 'to' | 'cc' | 'bcc'; label: string }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, formState }) => {
        const errs = (formState.errors[name] as unknown as ({ message?: string } | undefined)[] | { message?: string } | undefined) ?? undefined;
        const error = Array.isArray(errs) ? errs.find((e) => e?.message)?.message : errs?.message;
        return <AddressesInput label={label} value={field.value} onChange={field.onChange} error={error} />;
      }}
    />
  );
}
type SendEmailData = NodeFormProps<'SendEmailNode'>['data'];

function AddressesInput({ label, value, onChange, error }: { label: string; value: string[]; onChange: (v: string[]) => void; error?: string }) {
  const [text, setText] = useState(value.join(', '));
  return (
    <FormField label={label} error={error} hint="Separate addresses with commas.">
      <Input
        className={nodrag}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          onChange(e.target.value.split(',').map((s) => s.trim()).filter(Boolean));
        }}
      />
    </FormField>
  );
}

export function SendEmailForm({ data, onPatch }: NodeFormProps<'SendEmailNode'>) {
  const form = useNodeForm(SendEmailNodeData, data, onPatch);
  return (
    <div className="flex flex-col gap-3">
      <TextField form={form} name="label" label="Label" />
      <AddressesField control={form.control} name="to" label="To" />
      <AddressesField control={form.control} name="cc" label="Cc" />
      <AddressesField control={form.control} name="bcc" label="Bcc" />
      <VariableTextField control={form.control} name="subject" label="Subject" />
      <VariableTextField control={form.control} name="body" label="Body" multiline />
    </div>
  );
}

export function HumanHandoffForm({ data, onPatch }: NodeFormProps<'HumanHandoffNode'>) {
  const form = useNodeForm(HumanHandoffNodeData, data, onPatch);
  return (
    <div className="flex flex-col gap-3">
      <TextField form={form} name="label" label="Label" />
      <MemberSelect form={form} name="assigneeMemberId" label="Assign to" />
      <VariableTextField control={form.control} name="messageOnChatAssigned" label="Message to the customer" multiline optional />
    </div>
  );
}
