import { zodResolver } from '@hookform/resolvers/zod';
import { Filter, Plus, X } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { CreateSegmentBody } from '@shared/schemas/requests';
import { type SegmentFilter, SegmentOperator } from '@shared/schemas/entities';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog, FormDialog } from '../../../components/ui/dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { QueryList } from '../../../components/ui/query-list';
import { Spinner } from '../../../components/ui/spinner';
import { TBody, TD, TH, THead, TR, Table } from '../../../components/ui/table';
import { isApiError } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { useAttributes } from '../../../lib/queries/attributes';
import { useWorkspaceId } from '../../../lib/queries/session';
import { useCreateSegment } from '../api/create-segment';
import { useDeleteSegment } from '../api/delete-segment';
import { useSegments } from '../../../lib/queries/segments';
import { useSegmentPreview } from '../api/preview-segment';
import { SettingsPage } from './settings-page';

export const builtInColumns = [
  { value: 'name', label: 'Name' },
  { value: 'phoneNumber', label: 'Phone number' },
  { value: 'userId', label: 'WhatsApp user ID' },
  { value: 'username', label: 'WhatsApp username' },
  { value: 'email', label: 'Email' },
  { value: 'country', label: 'Country' },
  { value: 'city', label: 'City' },
  { value: 'tags', label: 'Tags' },
  // "is true" / "is not true"
  { value: 'optedOut', label: 'Opted out of campaigns' },
] as const;

export const operatorLabels: Record<z.infer<typeof SegmentOperator>, string> = {
  IS: 'is',
  IS_NOT: 'is not',
  STARTS_WITH: 'starts with',
  END_WITH: 'ends with',
  CONTAINS: 'contains',
  DOES_NOT_CONTAINS: 'does not contain',
  IS_EMPTY: 'is empty',
  IS_NOT_EMPTY: 'is not empty',
};
const valueless = new Set(['IS_EMPTY', 'IS_NOT_EMPTY']);
const operatorOptions = SegmentOperator.options.map((o) => ({ value: o, label: operatorLabels[o] }));
const conjunctionOptions = [
  { value: 'AND', label: 'and' },
  { value: 'OR', label: 'or' },
];

export function describeFilters(filters: SegmentFilter[], columnLabel: (c: string) => string): string {
  if (filters.length === 0) return 'Every contact';
  return filters
    .map((f, i) => {
      const text = `${columnLabel(f.column)} ${operatorLabels[f.operator]}${valueless.has(f.operator) ? '' : ` "${f.value}"`}`;
      return i === 0 ? text : `${f.conjuction.toLowerCase()} ${text}`;
    })
    .join(' ');
}

/** `/settings/segments`: saved slices of the audience, built from filters. */
export function SegmentsPage() {
  const workspaceId = useWorkspaceId();
  const segments = useSegments(workspaceId);
  const attributes = useAttributes(workspaceId);
  const remove = useDeleteSegment(workspaceId);
  const [creating, setCreating] = useState(false);
  const columnLabel = (c: string) => builtInColumns.find((b) => b.value === c)?.label ?? c;

  return (
    <SettingsPage
      title="Segments"
      description="Saved groups of contacts, for campaigns and the audience view."
      actions={
        <Button onClick={() => setCreating(true)}>
          <Plus /> New segment
        </Button>
      }
    >
      <Card>
        <QueryList
          query={segments}
          noun="segments"
          empty={
            <EmptyState
              icon={Filter}
              title="No segments yet"
              description="A segment selects contacts by their details and attributes, e.g. everyone on the gold plan in Berlin."
              action={<Button onClick={() => setCreating(true)}>New segment</Button>}
            />
          }
        >
          {(data) => (
            <Table aria-label="Segments">
              <THead>
                <tr>
                  <TH>Name</TH>
                  <TH>Filters</TH>
                  <TH>Created</TH>
                  <TH actions />
                </tr>
              </THead>
              <TBody>
                {data.map((s) => (
                  <TR key={s.id}>
                    <TD className="font-medium">{s.name}</TD>
                    <TD className="max-w-md truncate text-fg-muted">{describeFilters(s.filters, columnLabel)}</TD>
                    <TD className="text-fg-muted">{formatDate(s.createdAt)}</TD>
                    <TD actions>
                      <ConfirmDialog
                        title={`Delete ${s.name}?`}
                        description="Campaigns that target this segment will need another one."
                        onConfirm={() => remove.mutateAsync(s.id)}
                        deleteLabel={`Delete ${s.name}`}
                      />
                    </TD>
                  </TR>
                ))}
              </TBody>
            </Table>
          )}
        </QueryList>
      </Card>
      {creating && (
        <SegmentDialog
          workspaceId={workspaceId}
          attributeNames={(attributes.data ?? []).map((a) => a.name)}
          onClose={() => setCreating(false)}
        />
      )}
    </SettingsPage>
  );
}

const SegmentForm = CreateSegmentBody.omit({ workspaceId: true });
type SegmentFormInput = z.input<typeof SegmentForm>;
type SegmentFormOutput = z.output<typeof SegmentForm>;

const emptyFilter: SegmentFilter = { column: 'name', operator: 'CONTAINS', value: '', conjuction: 'AND' };

/** Waits until `value` has been still for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

export function SegmentDialog({
  workspaceId,
  attributeNames,
  onClose,
}: {
  workspaceId: string;
  attributeNames: string[];
  onClose: () => void;
}) {
  const create = useCreateSegment(workspaceId);
  const form = useForm<SegmentFormInput, unknown, SegmentFormOutput>({
    resolver: zodResolver(SegmentForm),
    defaultValues: { name: '', filters: [{ ...emptyFilter }] },
  });
  const filtersField = useFieldArray({ control: form.control, name: 'filters' });
  const watched = useWatch({ control: form.control, name: 'filters' });
  const { errors } = form.formState;

  // Only complete rows are counted: a value-taking operator needs a value.
  const complete = useMemo(
    () =>
      (watched ?? [])
        .filter((f) => f.column && f.operator && (valueless.has(f.operator) || (f.value ?? '').trim() !== ''))
        .map((f) => ({
          column: f.column,
          operator: f.operator,
          value: valueless.has(f.operator) ? '' : (f.value ?? ''),
          conjuction: f.conjuction ?? 'AND',
        })) as SegmentFilter[],
    [watched],
  );
  const debounced = useDebounced(complete, 300);
  const preview = useSegmentPreview(workspaceId, debounced, true);
  const columns = [...builtInColumns, ...attributeNames.map((n) => ({ value: n, label: n }))];

  return (
    <FormDialog
      title="New segment"
      description="Contacts that match the filters below."
      className="max-w-3xl"
      submitLabel="Save segment"
      pending={create.isPending}
      onClose={onClose}
      onSubmit={form.handleSubmit((v) => create.mutate({ ...v, workspaceId }, { onSuccess: onClose }))}
      formClassName="flex flex-col gap-5"
      footerStart={<PreviewCount preview={preview} />}
    >
      <FormField label="Segment name" error={errors.name?.message}>
        <Input autoFocus placeholder="Gold customers in Berlin" {...form.register('name')} />
      </FormField>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-[13px] font-medium text-fg">Filters</legend>
        {filtersField.fields.map((field, index) => {
          const operator = watched?.[index]?.operator;
          return (
            <div key={field.id} className="flex items-center gap-2" role="group" aria-label={`Filter ${index + 1}`}>
              <div className="w-24 shrink-0">
                {index === 0 ? (
                  <span className="block px-2 text-xs font-medium text-fg-subtle uppercase">Where</span>
                ) : (
                  <Controller
                    control={form.control}
                    name={`filters.${index}.conjuction`}
                    render={({ field: f }) => (
                      <Select aria-label={`Filter ${index + 1} conjunction`} value={f.value} onValueChange={f.onChange} onBlur={f.onBlur} options={conjunctionOptions} />
                    )}
                  />
                )}
              </div>
              <Controller
                control={form.control}
                name={`filters.${index}.column`}
                render={({ field: f }) => (
                  <Select aria-label={`Filter ${index + 1} column`} className="w-44" value={f.value} onValueChange={f.onChange} onBlur={f.onBlur} options={columns} />
                )}
              />
              <Controller
                control={form.control}
                name={`filters.${index}.operator`}
                render={({ field: f }) => (
                  <Select aria-label={`Filter ${index + 1} operator`} className="w-44" value={f.value} onValueChange={f.onChange} onBlur={f.onBlur} options={operatorOptions} />
                )}
              />
              <Input
                aria-label={`Filter ${index + 1} value`}
                placeholder={operator && valueless.has(operator) ? '' : 'Value'}
                disabled={!!operator && valueless.has(operator)}
                className="flex-1"
                {...form.register(`filters.${index}.value`)}
              />
              <Button
                variant="ghost"
                size="icon-sm"
                aria-label={`Remove filter ${index + 1}`}
                onClick={() => filtersField.remove(index)}
              >
                <X />
              </Button>
            </div>
          );
        })}
        {filtersField.fields.length === 0 && (
          <p className="rounded-md border border-dashed border-border px-3 py-3 text-[13px] text-fg-muted">
            No filters: the segment holds every contact.
          </p>
        )}
        <div>
          <Button variant="ghost" size="sm" onClick={() => filtersField.append({ ...emptyFilter })}>
            <Plus /> Add filter
          </Button>
        </div>
      </fieldset>
    </FormDialog>
  );
}

function PreviewCount({ preview }: { preview: ReturnType<typeof useSegmentPreview> }) {
  let content: React.ReactNode;
  if (preview.isError) {
    const unavailable = isApiError(preview.error, 404) || isApiError(preview.error, 501);
    content = <span className="text-fg-subtle">{unavailable ? 'Count unavailable' : `Count unavailable: ${preview.error.message}`}</span>;
  } else if (preview.data) {
    content = (
      <span className="flex items-center gap-2">
        <Badge tone="green" className="tabular-nums">
          {preview.data.count.toLocaleString()}
        </Badge>
        <span className="text-fg-muted">{preview.data.count === 1 ? 'contact matches' : 'contacts match'}</span>
        {preview.isFetching && <Spinner className="size-3" />}
      </span>
    );
  } else {
    content = (
      <span className="flex items-center gap-2 text-fg-subtle">
        <Spinner className="size-3" /> Counting...
      </span>
    );
  }
  return (
    <div className="text-[13px]" aria-live="polite" data-testid="segment-count">
      {content}
    </div>
  );
}
