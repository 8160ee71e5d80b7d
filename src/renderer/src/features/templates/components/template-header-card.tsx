/** The template editor's Header: none, a text line (with one example) or a sample picture, video or document. */
import { Upload } from 'lucide-react';
import { Controller } from 'react-hook-form';
import { Card, CardHeader } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { useUploadTemplateMedia } from '../api/upload-template-media';
import type { TemplateCardProps } from './template-card-props';
import { variablesOf } from './template-form';

const headerOptions = [
  { value: 'NONE', label: 'None' },
  { value: 'TEXT', label: 'Text' },
  { value: 'IMAGE', label: 'Image' },
  { value: 'VIDEO', label: 'Video' },
  { value: 'DOCUMENT', label: 'Document' },
];
const accept: Record<string, string> = { IMAGE: 'image/jpeg,image/png', VIDEO: 'video/mp4', DOCUMENT: 'application/pdf' };

/** `onMediaPreview` gets a local URL of an uploaded sample picture (null for anything else) for the preview. */
export function TemplateHeaderCard({ form, values, onMediaPreview }: TemplateCardProps & { onMediaPreview: (url: string | null) => void }) {
  const upload = useUploadTemplateMedia();
  const { errors } = form.formState;
  return (
    <Card>
      <CardHeader title="Header" description="Optional: a title line or a picture, video or document." />
      <div className="flex flex-col gap-4 p-5">
        <Controller
          control={form.control}
          name="headerFormat"
          render={({ field }) => (
            <FormField label="Header type" className="max-w-xs">
              <Select
                value={field.value}
                onValueChange={(v) => {
                  field.onChange(v);
                  form.setValue('headerHandle', '');
                  form.setValue('mediaUrl', '');
                  form.setValue('mediaName', '');
                  onMediaPreview(null);
                }}
                options={headerOptions}
              />
            </FormField>
          )}
        />
        {values.headerFormat === 'TEXT' && (
          <div className="grid grid-cols-2 gap-4">
            <FormField label="Header text" error={errors.headerText?.message} hint="Up to 60 characters; one {{1}} allowed.">
              <Input {...form.register('headerText')} />
            </FormField>
            {variablesOf(values.headerText ?? '').length > 0 && (
              <FormField label="Example for {{1}}" error={errors.headerExample?.message}>
                <Input {...form.register('headerExample')} />
              </FormField>
            )}
          </div>
        )}
        {['IMAGE', 'VIDEO', 'DOCUMENT'].includes(values.headerFormat) && (
          <FormField label="Sample file" error={errors.headerHandle?.message} hint="WhatsApp reviews the template with this sample.">
            <label className="flex h-16 cursor-pointer items-center justify-center gap-2 rounded-lg border border-dashed border-border-strong bg-subtle text-[13px] text-fg-muted hover:bg-muted">
              <Upload className="size-4" aria-hidden />
              {upload.isPending ? 'Uploading...' : values.mediaName ? `${values.mediaName} (change)` : 'Choose a file'}
              <input
                type="file"
                className="sr-only"
                accept={accept[values.headerFormat]}
                aria-label="Header sample file"
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  e.target.value = '';
                  if (!file) return;
                  upload.mutate(file, {
                    onSuccess: ({ assetUrl, FBhandle }) => {
                      form.setValue('headerHandle', FBhandle, { shouldValidate: true });
                      form.setValue('mediaUrl', assetUrl);
                      form.setValue('mediaName', file.name);
                      onMediaPreview(file.type.startsWith('image/') ? URL.createObjectURL(file) : null);
                    },
                  });
                }}
              />
            </label>
          </FormField>
        )}
      </div>
    </Card>
  );
}
