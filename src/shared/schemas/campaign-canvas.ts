import * as z from '../zod';
import { limits } from '../limits';
import { messages } from '../messages';
import { AttributeMappingEntry } from './bot-canvas';
import { Edge, Viewport, canvasRefinement, reactFlowNode as node } from './react-flow';
import { delayUnits } from '../limits';

const Label = z.string().max(limits.text.title);
const Required = z.string({ error: messages.fieldEmpty }).min(1, { error: messages.fieldEmpty }).max(limits.request.key);

export const OneTimeTriggerNodeData = z.strictObject({
  label: Label,
  segmentId: z.string({ error: messages.selectSegment }).min(1, { error: messages.selectSegment }).max(limits.request.key),
});
export const RecurringTriggerNodeData = z.strictObject({ label: Label, attributeMapping: z.array(AttributeMappingEntry).max(limits.request.listItems) });
export const SendWhatsappNodeData = z.strictObject({
  label: Label,
  whatsappAccountId: Required,
  whatsappTemplateId: Required,
});
export const DelayNodeData = z.strictObject({
  label: Label,
  waitFor: z.number({ error: messages.fieldEmpty }).positive().max(10_000),
  waitForUnit: z.enum(delayUnits),
});

export const OneTimeTriggerNode = node('OneTimeTriggerNode', OneTimeTriggerNodeData);
export const RecurringTriggerNode = node('RecurringTriggerNode', RecurringTriggerNodeData);
export const SendWhatsappNode = node('SendWhatsappNode', SendWhatsappNodeData);
export const DelayNode = node('DelayNode', DelayNodeData);

/** The 4 campaign node kinds. */
export const CampaignNode = z.discriminatedUnion('type', [OneTimeTriggerNode, RecurringTriggerNode, SendWhatsappNode, DelayNode]);
export type CampaignNode = z.infer<typeof CampaignNode>;
export type CampaignNodeType = CampaignNode['type'];
export const campaignNodeTypes = CampaignNode.options.map((o) => o.shape.type.value) as CampaignNodeType[];

export const CampaignRfInstance = z
  .strictObject({
    nodes: z.array(CampaignNode).max(limits.request.canvasNodes),
    edges: z.array(Edge).max(limits.request.canvasEdges),
    viewport: Viewport.optional(),
  })
  .superRefine(canvasRefinement(null))
  .superRefine((rf, ctx) => {
    const triggers = rf.nodes.filter((n) => n.type === 'OneTimeTriggerNode' || n.type === 'RecurringTriggerNode');
    if (triggers.length > 1) ctx.addIssue({ code: 'custom', path: ['nodes'], message: 'A campaign has at most one trigger' });
  });
export type CampaignRfInstance = z.infer<typeof CampaignRfInstance>;
