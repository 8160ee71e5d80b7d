/**
 * Whether a campaign canvas can be deployed: one validator for the editor's summary and for the server's
 * deploy (which answers 400 listing every problem). Pure: what it knows of the workspace (segments, numbers,
 * templates, attributes) comes in `context`; a check whose facts are not given is skipped, so the editor can
 * call it before its lists have loaded.
 */
import { limits } from './limits';
import { messages } from './messages';
import { contactVariableFields, type TemplateVariableMapping } from './schemas/campaign-canvas';
import { templateVariables } from './template-variables';

export interface CampaignProblem {
  /** The node the problem is on (the editor selects it); null for the canvas as a whole. */
  nodeId: string | null;
  message: string;
}

/** The structural minimum of a canvas: any saved (draft) rfInstance fits. */
export interface CanvasLike {
  nodes: readonly { id: string; type: string; data: Record<string, unknown> }[];
  edges: readonly { source: string; target: string }[];
}

interface TemplateLike {
  id: string;
  name: string;
  status: string;
  whatsappAccountId: string;
  components: readonly { type: string; format?: string; text?: string; buttons?: readonly { type: string; url?: string }[] }[];
  /** The template's stored header media (a default for sends); unknown when absent. */
  mediaUrl?: string | null;
}

/** IMAGE, VIDEO or DOCUMENT when the template's header is media (a send must carry a link to it), else null. */
export function templateMediaHeader(components: TemplateLike['components']): 'IMAGE' | 'VIDEO' | 'DOCUMENT' | null {
  const f = components.find((c) => c.type === 'HEADER')?.format;
  return f === 'IMAGE' || f === 'VIDEO' || f === 'DOCUMENT' ? f : null;
}

/** Why a header media link cannot be sent, else null: an http(s) address or a file uploaded to the workspace. */
export function headerMediaLinkProblem(link: string): string | null {
  if (link.startsWith('/files/')) return null;
  try {
    const u = new URL(link);
    if (u.protocol === 'https:' || u.protocol === 'http:') return null;
  } catch {
    // not an address
  }
  return 'The header media link must be an http(s) address or a file uploaded to this workspace';
}

export interface CampaignValidationContext {
  segmentIds?: readonly string[];
  /** Connected WhatsApp numbers of the workspace. */
  whatsappAccountIds?: readonly string[];
  templates?: readonly TemplateLike[];
  attributeIds?: readonly string[];
}

export type CampaignKind = 'oneTime' | 'recurring';
const triggerOf: Record<CampaignKind, string> = { oneTime: 'OneTimeTriggerNode', recurring: 'RecurringTriggerNode' };
const isTrigger = (t: string) => t === 'OneTimeTriggerNode' || t === 'RecurringTriggerNode';

/** Every variable slot of a template that a send must fill: header text, body, URL buttons (by index). */
export function templateVariableSlots(components: TemplateLike['components']): { component: TemplateVariableMapping['component']; variable: string }[] {
  const slots: { component: TemplateVariableMapping['component']; variable: string }[] = [];
  for (const c of components) {
    if (c.type === 'HEADER' && c.format === 'TEXT') templateVariables(c.text).forEach((v) => slots.push({ component: 'HEADER', variable: v }));
    if (c.type === 'BODY') templateVariables(c.text).forEach((v) => slots.push({ component: 'BODY', variable: v }));
    if (c.type === 'BUTTONS') {
      (c.buttons ?? []).forEach((b, i) => {
        if (b.type === 'URL' && templateVariables(b.url).length > 0) slots.push({ component: 'BUTTON', variable: String(i) });
      });
    }
  }
  return slots;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The nodes from the trigger along single edges, or the problems that keep them from being one chain. */
function chainProblems(rf: CanvasLike, triggerId: string): CampaignProblem[] {
  const problems: CampaignProblem[] = [];
  const out = new Map<string, string[]>();
  const inbound = new Map<string, number>();
  for (const e of rf.edges) {
    out.set(e.source, [...(out.get(e.source) ?? []), e.target]);
    inbound.set(e.target, (inbound.get(e.target) ?? 0) + 1);
  }
  for (const n of rf.nodes) {
    if ((out.get(n.id)?.length ?? 0) > 1) problems.push({ nodeId: n.id, message: 'A step can lead to one next step only' });
    if ((inbound.get(n.id) ?? 0) > 1) problems.push({ nodeId: n.id, message: 'A step can follow one step only' });
  }
  if ((inbound.get(triggerId) ?? 0) > 0) problems.push({ nodeId: triggerId, message: 'The trigger must be the first step' });
  const seen = new Set<string>([triggerId]);
  let at = out.get(triggerId)?.[0];
  while (at && !seen.has(at)) {
    seen.add(at);
    at = out.get(at)?.[0];
  }
  if (at && seen.has(at)) problems.push({ nodeId: at, message: 'The steps form a loop' });
  for (const n of rf.nodes) {
    if (!seen.has(n.id)) problems.push({ nodeId: n.id, message: 'This step is not connected to the trigger' });
  }
  return problems;
}

/** The ordered steps after the trigger (follows the first edge out of each node; stops at a loop). */
export function campaignChain(rf: CanvasLike): { triggerId: string | null; steps: string[] } {
  const trigger = rf.nodes.find((n) => isTrigger(n.type));
  if (!trigger) return { triggerId: null, steps: [] };
  const next = new Map<string, string>();
  for (const e of rf.edges) if (!next.has(e.source)) next.set(e.source, e.target);
  const steps: string[] = [];
  const seen = new Set<string>([trigger.id]);
  let at = next.get(trigger.id);
  while (at && !seen.has(at)) {
    seen.add(at);
    steps.push(at);
    at = next.get(at);
  }
  return { triggerId: trigger.id, steps };
}

function triggerProblems(node: CanvasLike['nodes'][number], ctx: CampaignValidationContext): CampaignProblem[] {
  const d = node.data;
  if (node.type === 'OneTimeTriggerNode') {
    if (d.retarget) return [];
    const segmentId = str(d.segmentId);
    if (!segmentId) return [{ nodeId: node.id, message: messages.selectSegment }];
    if (ctx.segmentIds && !ctx.segmentIds.includes(segmentId)) return [{ nodeId: node.id, message: 'The selected segment no longer exists' }];
    return [];
  }
  const mapping = Array.isArray(d.attributeMapping) ? (d.attributeMapping as { objectKey?: string; attributeId?: string }[]) : [];
  const problems: CampaignProblem[] = [];
  mapping.forEach((m, i) => {
    if (!m.objectKey || !m.attributeId) problems.push({ nodeId: node.id, message: `Mapping row ${i + 1}: ${messages.fieldEmpty}` });
    else if (ctx.attributeIds && !ctx.attributeIds.includes(m.attributeId)) {
      problems.push({ nodeId: node.id, message: `Mapping row ${i + 1}: the attribute no longer exists` });
    }
  });
  return problems;
}

function sendProblems(node: CanvasLike['nodes'][number], ctx: CampaignValidationContext): CampaignProblem[] {
  const d = node.data;
  const accountId = str(d.whatsappAccountId);
  const templateId = str(d.whatsappTemplateId);
  if (!accountId || !templateId) return [{ nodeId: node.id, message: `Choose a WhatsApp number and a template: ${messages.fieldEmpty}` }];
  if (ctx.whatsappAccountIds && !ctx.whatsappAccountIds.includes(accountId)) {
    return [{ nodeId: node.id, message: 'The WhatsApp number of this step is not connected' }];
  }
  if (!ctx.templates) return [];
  const tpl = ctx.templates.find((t) => t.id === templateId);
  if (!tpl) return [{ nodeId: node.id, message: 'The template of this step no longer exists' }];
  if (tpl.whatsappAccountId !== accountId) return [{ nodeId: node.id, message: `Template ${tpl.name} belongs to another WhatsApp number` }];
  if (tpl.status !== 'APPROVED') return [{ nodeId: node.id, message: `Template ${tpl.name} is ${tpl.status}; only approved templates can be sent` }];
  const mappings = Array.isArray(d.variables) ? (d.variables as TemplateVariableMapping[]) : [];
  const problems: CampaignProblem[] = [];
  const media = templateMediaHeader(tpl.components);
  const link = str(d.headerMediaLink).trim();
  if (media && link) {
    const bad = headerMediaLinkProblem(link);
    if (bad) problems.push({ nodeId: node.id, message: bad });
  } else if (media && 'mediaUrl' in tpl && !tpl.mediaUrl) {
    problems.push({ nodeId: node.id, message: `Give a link to the ${media.toLowerCase()} of the template's header` });
  }
  for (const slot of templateVariableSlots(tpl.components)) {
    const what = slot.component === 'BUTTON' ? `the URL of button ${Number(slot.variable) + 1}` : `{{${slot.variable}}} in the ${slot.component.toLowerCase()}`;
    const m = mappings.find((x) => x.component === slot.component && x.variable === slot.variable);
    if (!m || !m.value.trim()) problems.push({ nodeId: node.id, message: `Map ${what} to a contact field, an attribute or fixed text` });
    else if (m.source === 'field' && !(contactVariableFields as readonly string[]).includes(m.value)) {
      problems.push({ nodeId: node.id, message: `${what}: ${m.value} is not a contact field` });
    } else if (m.source === 'attribute' && ctx.attributeIds && !ctx.attributeIds.includes(m.value)) {
      problems.push({ nodeId: node.id, message: `${what}: the attribute no longer exists` });
    }
  }
  return problems;
}

function delayProblems(node: CanvasLike['nodes'][number]): CampaignProblem[] {
  const waitFor = node.data.waitFor;
  const unit = node.data.waitForUnit;
  if (typeof waitFor !== 'number' || waitFor <= 0 || (unit !== 'hours' && unit !== 'days')) {
    return [{ nodeId: node.id, message: `Set how long to wait: ${messages.fieldEmpty}` }];
  }
  const hours = unit === 'days' ? waitFor * 24 : waitFor;
  if (hours > limits.campaign.maxDelayHours) return [{ nodeId: node.id, message: `A delay can be at most ${limits.campaign.maxDelayHours / 24} days` }];
  return [];
}

/** Every problem that keeps the canvas from deploying as a campaign of `type`; empty when it can deploy. */
export function validateCampaign(type: CampaignKind, rf: CanvasLike, ctx: CampaignValidationContext = {}): CampaignProblem[] {
  const triggers = rf.nodes.filter((n) => isTrigger(n.type));
  const wrongKind = triggers.filter((n) => n.type !== triggerOf[type]);
  const problems: CampaignProblem[] = wrongKind.map((n) => ({
    nodeId: n.id,
    message: type === 'oneTime' ? 'A one-time campaign starts with a one-time trigger' : 'A recurring campaign starts with a recurring trigger',
  }));
  const own = triggers.filter((n) => n.type === triggerOf[type]);
  if (own.length === 0) problems.push({ nodeId: null, message: 'Add a trigger: a campaign starts with exactly one trigger' });
  if (own.length > 1) own.slice(1).forEach((n) => problems.push({ nodeId: n.id, message: 'A campaign has exactly one trigger' }));
  if (!rf.nodes.some((n) => n.type === 'SendWhatsappNode')) problems.push({ nodeId: null, message: 'Add at least one Send WhatsApp step' });
  if (own.length >= 1) problems.push(...chainProblems(rf, own[0].id));
  for (const n of rf.nodes) {
    if (n.type === triggerOf[type] && n === own[0]) problems.push(...triggerProblems(n, ctx));
    if (n.type === 'SendWhatsappNode') problems.push(...sendProblems(n, ctx));
    if (n.type === 'DelayNode') problems.push(...delayProblems(n));
  }
  return problems;
}
