import type { Node } from '@xyflow/react';
import type { z } from 'zod';
import type {
  DraftDelayNodeData,
  DraftOneTimeTriggerNodeData,
  DraftRecurringTriggerNodeData,
  DraftSendWhatsappNodeData,
} from '@shared/schemas/campaign-canvas';

/** The campaign canvas's nodes as the editor holds them: drafts (spec section 3 kinds; nothing required yet). */
export type OneTimeTriggerNodeData = z.infer<typeof DraftOneTimeTriggerNodeData>;
export type RecurringTriggerNodeData = z.infer<typeof DraftRecurringTriggerNodeData>;
export type SendWhatsappNodeData = z.infer<typeof DraftSendWhatsappNodeData>;
export type DelayNodeData = z.infer<typeof DraftDelayNodeData>;

export type OneTimeTriggerFlowNode = Node<OneTimeTriggerNodeData, 'OneTimeTriggerNode'>;
export type RecurringTriggerFlowNode = Node<RecurringTriggerNodeData, 'RecurringTriggerNode'>;
export type SendWhatsappFlowNode = Node<SendWhatsappNodeData, 'SendWhatsappNode'>;
export type DelayFlowNode = Node<DelayNodeData, 'DelayNode'>;
export type CampaignFlowNode = OneTimeTriggerFlowNode | RecurringTriggerFlowNode | SendWhatsappFlowNode | DelayFlowNode;

export const nodeKindLabel: Record<CampaignFlowNode['type'], string> = {
  OneTimeTriggerNode: 'One-time trigger',
  RecurringTriggerNode: 'Recurring trigger',
  SendWhatsappNode: 'Send WhatsApp',
  DelayNode: 'Delay',
};
