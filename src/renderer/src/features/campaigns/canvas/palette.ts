import { Hourglass, Repeat, Send, Users } from 'lucide-react';
import type { PaletteEntry } from '../../../components/canvas';
import type { CampaignFlowNode } from './types';

const isTrigger = (n: CampaignFlowNode) => n.type === 'OneTimeTriggerNode' || n.type === 'RecurringTriggerNode';
const ONE_TRIGGER = 'A campaign has one trigger';
const oneTrigger = (nodes: CampaignFlowNode[]) => (nodes.some(isTrigger) ? ONE_TRIGGER : null);
/** The trigger is one of a kind: a paste leaves it out while the campaign has one. */
export const onlyOnceInCampaign = (n: CampaignFlowNode) => (isTrigger(n) ? ONE_TRIGGER : null);

/** What can be added: the campaign type's own trigger (once), send steps and delays. */
export function campaignPalette(type: 'oneTime' | 'recurring'): PaletteEntry<CampaignFlowNode>[] {
  const trigger: PaletteEntry<CampaignFlowNode> =
    type === 'oneTime'
      ? {
          type: 'OneTimeTriggerNode',
          label: 'Segment trigger',
          description: 'Sends once to an audience segment',
          icon: Users,
          connectable: false,
          disabledReason: oneTrigger,
          create: () => ({ type: 'OneTimeTriggerNode', data: { label: 'Audience', segmentId: '' }, deletable: true }),
        }
      : {
          type: 'RecurringTriggerNode',
          label: 'API trigger',
          description: 'Runs whenever your systems call the trigger URL',
          icon: Repeat,
          connectable: false,
          disabledReason: oneTrigger,
          create: () => ({ type: 'RecurringTriggerNode', data: { label: 'API call', attributeMapping: [] }, deletable: true }),
        };
  return [
    trigger,
    {
      type: 'SendWhatsappNode',
      label: 'Send template',
      description: 'Sends an approved WhatsApp template',
      icon: Send,
      create: () => ({ type: 'SendWhatsappNode', data: { label: 'Send template', whatsappAccountId: '', whatsappTemplateId: '', variables: [] } }),
    },
    {
      type: 'DelayNode',
      label: 'Delay',
      description: 'Waits hours or days before the next step',
      icon: Hourglass,
      create: () => ({ type: 'DelayNode', data: { label: 'Wait', waitFor: 1, waitForUnit: 'days' } }),
    },
  ];
}
