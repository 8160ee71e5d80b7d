import { type RefObject, useCallback, useMemo } from 'react';
import { type CampaignValidationContext, validateCampaign } from '@shared/campaign-validation';
import type { Campaign } from '@shared/schemas/entities';
import { type CanvasController, type CanvasGraph, CanvasFrame, type CanvasStore } from '../../../components/canvas';
import { useAttributes } from '../../../lib/queries/attributes';
import { useWhatsappAccounts } from '../../../lib/queries/whatsapp-accounts';
import { patchCampaign } from '../api/patch-campaign';
import { useSegments } from '../../../lib/queries/segments';
import { useTemplates } from '../../../lib/queries/templates';
import { campaignNodeTypes } from './node-types';
import { campaignPalette } from './palette';
import { type CampaignFlowNode, nodeKindLabel } from './types';

/** The workspace facts the validator checks against, once each list has loaded (before that, those checks wait). */
export function useValidationContext(workspaceId: string): CampaignValidationContext {
  const segments = useSegments(workspaceId);
  const accounts = useWhatsappAccounts(workspaceId);
  const templates = useTemplates(workspaceId);
  const attributes = useAttributes(workspaceId);
  return useMemo(
    () => ({
      segmentIds: segments.data?.map((s) => s.id),
      whatsappAccountIds: accounts.data?.map((a) => a.id),
      templates: templates.data,
      attributeIds: attributes.data?.map((a) => a.id),
    }),
    [segments.data, accounts.data, templates.data, attributes.data],
  );
}

/** The campaign's steps on the shared canvas frame: its four node kinds, its validator, saved by PATCH. */
export function CampaignCanvas({
  campaign,
  store,
  controllerRef,
}: {
  campaign: Campaign;
  store: CanvasStore<CampaignFlowNode>;
  controllerRef: RefObject<CanvasController | null>;
}) {
  const ctx = useValidationContext(campaign.workspaceId);
  const templates = useTemplates(campaign.workspaceId);
  const palette = useMemo(() => campaignPalette(campaign.type), [campaign.type]);
  const validate = useCallback((g: CanvasGraph<CampaignFlowNode>) => validateCampaign(campaign.type, g, ctx), [campaign.type, ctx]);
  const save = useCallback(
    (g: CanvasGraph<CampaignFlowNode>) => patchCampaign(campaign.id, { rfInstance: g as Campaign['rfInstance'] }),
    [campaign.id],
  );
  const describeNode = useCallback(
    (n: CampaignFlowNode) => {
      if (n.type === 'SendWhatsappNode') {
        const name = templates.data?.find((t) => t.id === n.data.whatsappTemplateId)?.name;
        return name ? `Send WhatsApp: ${name}` : 'Send WhatsApp';
      }
      if (n.type === 'DelayNode') return n.data.waitFor ? `Delay: ${n.data.waitFor} ${n.data.waitForUnit ?? 'hours'}` : 'Delay';
      return nodeKindLabel[n.type];
    },
    [templates.data],
  );
  const locked = campaign.status !== 'draft';
  return (
    <CanvasFrame<CampaignFlowNode>
      store={store}
      nodeTypes={campaignNodeTypes}
      palette={palette}
      validate={validate}
      save={save}
      describeNode={describeNode}
      linear
      label="Campaign steps"
      readOnly={locked}
      readOnlyReason={
        campaign.status === 'scheduled'
          ? 'Scheduled: cancel the schedule to edit the steps'
          : 'Deployed: the steps are locked (the name can still change)'
      }
      controllerRef={controllerRef}
    />
  );
}
