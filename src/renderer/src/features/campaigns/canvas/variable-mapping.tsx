import { contactVariableFields, type TemplateVariableMapping } from '@shared/schemas/campaign-canvas';
import type { Attribute } from '@shared/schemas/entities';
import { Input, NativeSelect } from '../../../components/ui/input';

const fieldLabel: Record<(typeof contactVariableFields)[number], string> = {
  name: 'Name',
  phoneNumber: 'Phone number',
  email: 'E-mail',
  country: 'Country',
  city: 'City',
};

type Slot = { component: TemplateVariableMapping['component']; variable: string };

/** How a mapped variable reads in the preview: fixed text as it is, a field or attribute as ‹its name›. */
export function previewValue(m: TemplateVariableMapping, attributeName: (id: string) => string | undefined): string {
  if (!m.value) return '';
  if (m.source === 'text') return m.value;
  if (m.source === 'field') return `‹${fieldLabel[m.value as keyof typeof fieldLabel] ?? m.value}›`;
  return `‹${attributeName(m.value) ?? 'attribute'}›`;
}

function slotName(s: Slot) {
  return s.component === 'BUTTON' ? `Button ${Number(s.variable) + 1} URL` : `{{${s.variable}}} ${s.component === 'HEADER' ? 'header' : 'body'}`;
}

/** One row per template variable: where its value comes from (contact field, attribute, fixed text), and a fallback. */
export function VariableMappingRows({
  slots,
  mappings,
  attributes,
  readOnly,
  onChange,
}: {
  slots: Slot[];
  mappings: TemplateVariableMapping[];
  attributes: Attribute[];
  readOnly: boolean;
  onChange: (next: TemplateVariableMapping[]) => void;
}) {
  const mappingOf = (s: Slot): TemplateVariableMapping =>
    mappings.find((m) => m.component === s.component && m.variable === s.variable) ?? {
      id: `${s.component}-${s.variable}`,
      component: s.component,
      variable: s.variable,
      source: 'field',
      value: '',
    };
  const set = (s: Slot, patch: Partial<TemplateVariableMapping>) => {
    const current = mappingOf(s);
    const next = { ...current, ...patch };
    const rest = mappings.filter((m) => m !== current && !(m.component === s.component && m.variable === s.variable));
    onChange([...rest, next]);
  };
  return (
    <fieldset className="flex flex-col gap-2" disabled={readOnly}>
      <legend className="mb-1 text-xs font-medium text-fg">Variables</legend>
      {slots.map((s) => {
        const m = mappingOf(s);
        const name = slotName(s);
        const missing = !m.value.trim();
        return (
          <div key={`${s.component}-${s.variable}`} className="rounded-md border border-border p-2">
            <div className="mb-1 font-mono text-[11px] text-fg-muted">{name}</div>
            <div className="flex gap-1.5">
              <NativeSelect
                aria-label={`Source of ${name}`}
                className="h-7 w-36 shrink-0 text-xs"
                value={m.source}
                onChange={(e) => set(s, { source: e.target.value as TemplateVariableMapping['source'], value: '' })}
              >
                <option value="field">Contact field</option>
                <option value="attribute">Attribute</option>
                <option value="text">Fixed text</option>
              </NativeSelect>
              {m.source === 'text' ? (
                <Input aria-label={`Value of ${name}`} aria-invalid={missing || undefined} className="h-7 text-xs" value={m.value} placeholder="Text" onChange={(e) => set(s, { value: e.target.value })} />
              ) : (
                <NativeSelect aria-label={`Value of ${name}`} aria-invalid={missing || undefined} className="h-7 text-xs" value={m.value} onChange={(e) => set(s, { value: e.target.value })}>
                  <option value="">Choose…</option>
                  {m.source === 'field'
                    ? contactVariableFields.map((f) => (
                        <option key={f} value={f}>
                          {fieldLabel[f]}
                        </option>
                      ))
                    : attributes.map((a) => (
                        <option key={a.id} value={a.id}>
                          {a.name}
                        </option>
                      ))}
                </NativeSelect>
              )}
            </div>
            {m.source !== 'text' && (
              <Input
                aria-label={`Fallback of ${name}`}
                className="mt-1.5 h-7 text-xs"
                placeholder="Fallback when empty (optional)"
                value={m.fallback ?? ''}
                onChange={(e) => set(s, { fallback: e.target.value || undefined })}
              />
            )}
            {missing && <p className="mt-1 text-[11px] text-danger">Map {name} to a contact field, an attribute or fixed text</p>}
          </div>
        );
      })}
    </fieldset>
  );
}
