import * as z from '../zod';
import { limits } from '../limits';
import { messages } from '../messages';
import { AttributeMappingEntry } from './bot-canvas';
import { Edge, Key, ShortText, Viewport, canvasRefinement, reactFlowNode as node } from './react-flow';
import { delayUnits } from '../limits';

const Label = z.string().max(limits.text.title);
const Required = z.string({ error: messages.fieldEmpty }).min(1, { error: messages.fieldEmpty }).max(limits.request.key);

// ---------- Additions to the spec's node data ----------

/** The contact fields a template variable can take its value from (addition). */
export const contactVariableFields = ['name', 'phoneNumber', 'email', 'country', 'city'] as const;
export const TemplateVariableSourceKind = z.enum(['field', 'attribute', 'text']);
export const TemplateVariableComponent = z.enum(['HEADER', 'BODY', 'BUTTON']);

/**
 * Addition: where one template variable takes its value for each recipient. `variable` is the name written in
 * the template (`1` for `{{1}}`, `first_name` for `{{first_name}}`); for a URL button it is the button's index
 * in the template's BUTTONS (`"0"`, `"1"`). `value` is, by `source`: a contact field of contactVariableFields,
 * an attribute id, or the fixed text itself. `fallback` is sent when the contact's field or attribute is empty
 * (WhatsApp refuses an empty parameter); without one such a recipient fails with a clear reason.
 */
export const TemplateVariableMapping = z.strictObject({
  id: Key.min(1),
  component: TemplateVariableComponent,
  variable: Key.min(1),
  source: TemplateVariableSourceKind,
  value: z.string().max(1024),
  fallback: z.string().max(1024).optional(),
});
export type TemplateVariableMapping = z.infer<typeof TemplateVariableMapping>;

const ClockTime = z.string().max(5).regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'Use a time of day as HH:MM (24-hour clock)' });
/**
 * Addition (quiet hours): a daily window in each recipient's own time zone. Sends and delays falling due
 * outside it wait for its next start. `end` before `start` spans midnight (22:00 to 06:00).
 */
export const SendWindow = z.strictObject({ start: ClockTime, end: ClockTime });
export type SendWindow = z.infer<typeof SendWindow>;

/**
 * Addition: a one-time trigger may target the recipients of an earlier campaign with a given outcome instead of
 * a segment (retarget; POST /campaign/{id}/retarget builds it). The audience is taken when the campaign deploys.
 */
export const CampaignOutcome = z.enum([
  'sent',
  'delivered',
  'read',
  'replied',
  'readNotReplied',
  'failed',
  'unknown',
  'optedOut',
  'pending',
]);
export type CampaignOutcome = z.infer<typeof CampaignOutcome>;
export const RetargetAudience = z.strictObject({
  campaignId: Key.min(1),
  outcome: CampaignOutcome,
  /** Only failures with this Meta error code (131049, 131026 ...). */
  errorCode: z.number().int().min(0).max(10_000_000).optional(),
});
export type RetargetAudience = z.infer<typeof RetargetAudience>;

// ---------- Strict node data (what deploy requires) ----------

export const OneTimeTriggerNodeData = z.strictObject({
  label: Label,
  segmentId: z.string({ error: messages.selectSegment }).min(1, { error: messages.selectSegment }).max(limits.request.key),
  /** Addition. */
  sendWindow: SendWindow.nullish(),
  /** Addition: set by retarget; then segmentId is ignored. */
  retarget: RetargetAudience.nullish(),
});
export const RecurringTriggerNodeData = z.strictObject({
  label: Label,
  attributeMapping: z.array(AttributeMappingEntry).max(limits.request.listItems),
  /** Addition. */
  sendWindow: SendWindow.nullish(),
});
export const SendWhatsappNodeData = z.strictObject({
  label: Label,
  whatsappAccountId: Required,
  whatsappTemplateId: Required,
  /** Addition: one entry per variable of the template (header, body, URL buttons). */
  variables: z.array(TemplateVariableMapping).max(limits.request.templateExamples).optional(),
  /** Addition: the media of an IMAGE, VIDEO or DOCUMENT header; defaults to the template's stored media. */
  headerMediaLink: z.string().max(limits.request.url).nullish(),
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

const atMostOneTrigger = (rf: { nodes: { type: string }[] }, ctx: z.RefinementCtx) => {
  const triggers = rf.nodes.filter((n) => n.type === 'OneTimeTriggerNode' || n.type === 'RecurringTriggerNode');
  if (triggers.length > 1) ctx.addIssue({ code: 'custom', path: ['nodes'], message: 'A campaign has at most one trigger' });
};

export const CampaignRfInstance = z
  .strictObject({
    nodes: z.array(CampaignNode).max(limits.request.canvasNodes),
    edges: z.array(Edge).max(limits.request.canvasEdges),
    viewport: Viewport.optional(),
  })
  .superRefine(canvasRefinement(null))
  .superRefine(atMostOneTrigger);
export type CampaignRfInstance = z.infer<typeof CampaignRfInstance>;

// ---------- Draft (what a save accepts) ----------

/**
 * A draft node's data: the same keys with their bounds, but nothing required, so an unfinished node (a send
 * step without its template yet, a delay without its number) saves. Completeness is checked by
 * validateCampaign (src/shared/campaign-validation.ts) in the editor's summary and at deploy.
 */
const DraftText = z.string().max(limits.request.key);
export const DraftOneTimeTriggerNodeData = z.strictObject({
  label: Label.optional(),
  segmentId: DraftText.optional(),
  sendWindow: SendWindow.nullish(),
  retarget: RetargetAudience.nullish(),
});
export const DraftRecurringTriggerNodeData = z.strictObject({
  label: Label.optional(),
  attributeMapping: z
    .array(z.strictObject({ id: Key.min(1), objectKey: ShortText, attributeId: Key }))
    .max(limits.request.listItems)
    .optional(),
  sendWindow: SendWindow.nullish(),
});
export const DraftSendWhatsappNodeData = z.strictObject({
  label: Label.optional(),
  whatsappAccountId: DraftText.optional(),
  whatsappTemplateId: DraftText.optional(),
  variables: z.array(TemplateVariableMapping).max(limits.request.templateExamples).optional(),
  headerMediaLink: z.string().max(limits.request.url).nullish(),
});
export const DraftDelayNodeData = z.strictObject({
  label: Label.optional(),
  waitFor: z.number().min(0).max(10_000).nullish(),
  waitForUnit: z.enum(delayUnits).optional(),
});
export const CampaignDraftNode = z.discriminatedUnion('type', [
  node('OneTimeTriggerNode', DraftOneTimeTriggerNodeData),
  node('RecurringTriggerNode', DraftRecurringTriggerNodeData),
  node('SendWhatsappNode', DraftSendWhatsappNodeData),
  node('DelayNode', DraftDelayNodeData),
]);
export type CampaignDraftNode = z.infer<typeof CampaignDraftNode>;

/** A campaign canvas as saved (PATCH) and answered (GET): nodes may be unfinished; the structure is checked. */
export const CampaignDraftRfInstance = z
  .strictObject({
    nodes: z.array(CampaignDraftNode).max(limits.request.canvasNodes),
    edges: z.array(Edge).max(limits.request.canvasEdges),
    viewport: Viewport.optional(),
  })
  .superRefine(canvasRefinement(null))
  .superRefine(atMostOneTrigger);
export type CampaignDraftRfInstance = z.infer<typeof CampaignDraftRfInstance>;
