import type { NodeProps } from '@xyflow/react';
import { Send } from 'lucide-react';
import { memo, useMemo } from 'react';
import { messages } from '@shared/messages';
import { headerMediaLinkProblem, templateMediaHeader, templateVariableSlots } from '@shared/campaign-validation';
import type { TemplateVariableMapping } from '@shared/schemas/campaign-canvas';
import { CanvasNode, useNodeData } from '../../../components/canvas';
import { Input, NativeSelect } from '../../../components/ui/input';
import { useAttributes } from '../../../lib/queries/attributes';
import { useWhatsappAccounts } from '../../../lib/queries/whatsapp-accounts';
import { useTemplates } from '../../../lib/queries/templates';
import { useCampaignEditor } from './editor-context';
import { NodeField } from './field';
import type { SendWhatsappFlowNode, SendWhatsappNodeData } from './types';
import { VariableMappingRows, previewValue } from './variable-mapping';
import { WhatsappPreview } from './whatsapp-preview';

/**
 * SendWhatsappNode: a number, one of its APPROVED templates, a live preview, and each template variable mapped
 * to a contact field, an attribute or fixed text (an addition to the node's data: a template with variables
 * cannot be sent without values).
 */
export const SendWhatsappNode = memo(function SendWhatsappNode({ id, selected }: NodeProps<SendWhatsappFlowNode>) {
  const { workspaceId } = useCampaignEditor();
  const { data, update, readOnly } = useNodeData<SendWhatsappNodeData>(id);
  const accounts = useWhatsappAccounts(workspaceId);
  const templates = useTemplates(workspaceId);
  const attributes = useAttributes(workspaceId);
  const approved = useMemo(
    () => (templates.data ?? []).filter((t) => t.whatsappAccountId === data?.whatsappAccountId && t.status.toUpperCase() === 'APPROVED'),
    [templates.data, data?.whatsappAccountId],
  );
  const template = templates.data?.find((t) => t.id === data?.whatsappTemplateId);
  const slots = useMemo(() => (template ? templateVariableSlots(template.components) : []), [template]);
  const mappings = data?.variables ?? [];
  const media = template ? templateMediaHeader(template.components) : null;
  const attributeName = (attrId: string) => attributes.data?.find((a) => a.id === attrId)?.name;

  const values = { HEADER: {} as Record<string, string>, BODY: {} as Record<string, string> };
  for (const m of mappings) if (m.component !== 'BUTTON') values[m.component][m.variable] = previewValue(m, attributeName);

  const chooseTemplate = (templateId: string) => {
    const tpl = templates.data?.find((t) => t.id === templateId);
    // Keep the mappings of variables the new template also has; start the others empty.
    const variables: TemplateVariableMapping[] = (tpl ? templateVariableSlots(tpl.components) : []).map(
      (slot) =>
        mappings.find((m) => m.component === slot.component && m.variable === slot.variable) ?? {
          id: globalThis.crypto.randomUUID(),
          component: slot.component,
          variable: slot.variable,
          source: 'field',
          value: '',
        },
    );
    update({ whatsappTemplateId: templateId, variables, headerMediaLink: null });
  };

  return (
    <CanvasNode
      id={id}
      selected={selected}
      icon={Send}
      kind="Send WhatsApp"
      label={data?.label}
      tone="blue"
      width="w-96"
      formShows={(p) => p.message.endsWith(messages.fieldEmpty) || p.message.startsWith('Map ') || p.message.includes('header')}
    >
      <NodeField label="WhatsApp number" error={!data?.whatsappAccountId ? messages.fieldEmpty : null}>
        <NativeSelect
          disabled={readOnly}
          value={data?.whatsappAccountId ?? ''}
          onChange={(e) => update({ whatsappAccountId: e.target.value, whatsappTemplateId: '', variables: [] })}
        >
          <option value="">{accounts.isPending ? 'Loading numbers…' : 'Select a number'}</option>
          {accounts.data?.map((a) => (
            <option key={a.id} value={a.id}>
              {a.phoneNumber}
            </option>
          ))}
        </NativeSelect>
      </NodeField>
      <NodeField
        label="Template"
        error={!data?.whatsappTemplateId ? messages.fieldEmpty : null}
        hint={data?.whatsappAccountId && approved.length === 0 && !templates.isPending ? 'This number has no approved template yet.' : undefined}
      >
        <NativeSelect disabled={readOnly || !data?.whatsappAccountId} value={data?.whatsappTemplateId ?? ''} onChange={(e) => chooseTemplate(e.target.value)}>
          <option value="">Select an approved template</option>
          {approved.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name} ({t.language})
            </option>
          ))}
          {template && !approved.includes(template) && (
            <option value={template.id}>
              {template.name} ({template.status})
            </option>
          )}
        </NativeSelect>
      </NodeField>
      {template && (
        <>
          <WhatsappPreview components={template.components} values={values} />
          {media && (
            <HeaderMediaField
              kind={media}
              value={data?.headerMediaLink ?? ''}
              stored={template.mediaUrl}
              readOnly={readOnly}
              onChange={(link) => update({ headerMediaLink: link || null })}
            />
          )}
          {slots.length > 0 && (
            <VariableMappingRows
              slots={slots}
              mappings={mappings}
              attributes={attributes.data ?? []}
              readOnly={readOnly}
              onChange={(variables) => update({ variables })}
            />
          )}
        </>
      )}
    </CanvasNode>
  );
});

/** The link of a media header (IMAGE, VIDEO, DOCUMENT): sent with each message; the template's own media when empty. */
function HeaderMediaField({
  kind,
  value,
  stored,
  readOnly,
  onChange,
}: {
  kind: 'IMAGE' | 'VIDEO' | 'DOCUMENT';
  value: string;
  stored: string | null;
  readOnly: boolean;
  onChange: (link: string) => void;
}) {
  const noun = kind.toLowerCase();
  const link = value.trim();
  const error = link ? headerMediaLinkProblem(link) : stored ? null : `Give a link to the ${noun} of the template's header`;
  return (
    <NodeField
      label={`Header ${noun} link`}
      error={error}
      hint={stored ? `Empty: the template's own ${noun} is sent.` : `An https address of the ${noun} WhatsApp fetches for each message.`}
    >
      <Input
        type="url"
        inputMode="url"
        className="h-8 text-xs"
        disabled={readOnly}
        placeholder={stored ?? `https://example.com/${kind === 'DOCUMENT' ? 'catalogue.pdf' : kind === 'VIDEO' ? 'promo.mp4' : 'banner.jpg'}`}
        value={value}
        maxLength={2048}
        onChange={(e) => onChange(e.target.value)}
      />
    </NodeField>
  );
}
