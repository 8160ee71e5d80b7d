/**
 * A deployed campaign canvas as the runner reads it: the trigger, the steps in chain order, the next step of
 * each. Deploy stores the canvas it validated (campaigns.deployed_rf), so edits of the draft never change a
 * running campaign.
 */
import { campaignChain } from '../../shared/campaign-validation';
import type { CampaignDraftNode, CampaignDraftRfInstance, RetargetAudience, SendWindow, TemplateVariableMapping } from '../../shared/schemas/campaign-canvas';

export type SendStep = { kind: 'send'; id: string; whatsappAccountId: string; whatsappTemplateId: string; variables: TemplateVariableMapping[]; headerMediaLink: string | null };
export type DelayStep = { kind: 'delay'; id: string; ms: number };
export type Step = SendStep | DelayStep;

export interface DeployedCanvas {
  trigger: CampaignDraftNode | undefined;
  segmentId: string | null;
  retarget: RetargetAudience | null;
  sendWindow: SendWindow | null;
  attributeMapping: { objectKey: string; attributeId: string }[];
  steps: Step[];
  first: string | null;
  next(stepId: string): string | null;
  step(stepId: string): Step | undefined;
}

export function readDeployedCanvas(rf: CampaignDraftRfInstance): DeployedCanvas {
  const { triggerId, steps: order } = campaignChain(rf);
  const byId = new Map(rf.nodes.map((n) => [n.id, n]));
  const trigger = byId.get(triggerId ?? '');
  const steps: Step[] = order.map((id): Step => {
    const n = byId.get(id)!;
    if (n.type === 'DelayNode') {
      const hours = (n.data.waitFor ?? 0) * (n.data.waitForUnit === 'days' ? 24 : 1);
      return { kind: 'delay', id, ms: hours * 3600_000 };
    }
    const d = n.type === 'SendWhatsappNode' ? n.data : {};
    return {
      kind: 'send',
      id,
      whatsappAccountId: 'whatsappAccountId' in d ? (d.whatsappAccountId ?? '') : '',
      whatsappTemplateId: 'whatsappTemplateId' in d ? (d.whatsappTemplateId ?? '') : '',
      variables: 'variables' in d ? (d.variables ?? []) : [],
      headerMediaLink: 'headerMediaLink' in d ? (d.headerMediaLink ?? null) : null,
    };
  });
  const index = new Map(steps.map((s, i) => [s.id, i]));
  const td = (trigger?.data ?? {}) as Record<string, unknown>;
  return {
    trigger,
    segmentId: typeof td.segmentId === 'string' && td.segmentId ? td.segmentId : null,
    retarget: (td.retarget as RetargetAudience | null | undefined) ?? null,
    sendWindow: (td.sendWindow as SendWindow | null | undefined) ?? null,
    attributeMapping: ((td.attributeMapping as { objectKey: string; attributeId: string }[] | undefined) ?? []).filter((m) => m.objectKey && m.attributeId),
    steps,
    first: steps[0]?.id ?? null,
    next: (stepId) => steps[(index.get(stepId) ?? steps.length) + 1]?.id ?? null,
    step: (stepId) => steps[index.get(stepId) ?? -1],
  };
}
