/**
 * The one check of a bot canvas before it goes live: the editor's validation summary runs it on every change and
 * the server runs it when `PATCH /bot/{id}` sets `isActive: true` (answering 400 with every problem). Pure: the
 * canvas in, the problems out, each tied to the node to select.
 *
 * Graph conventions it enforces (the runtime follows the same ones):
 * - List -> its ListButtonNodes (1 to 10), Reply -> its ReplyButtonNodes (1 to 3), Condition -> its
 *   ConditionBranchNodes (exactly one Default; each Normal branch of the condition's `branches` is the child whose
 *   edge has `sourceHandle` equal to the branch id, or whose node id is the branch id), each by an edge from parent to child.
 * - Every other node has at most one normal outgoing edge; the extra handles of botRuntime (noAnswer, failure,
 *   invalid) at most one each.
 */
import { botFieldName, botKindTitles } from './bot-field-labels';
import { attributeVariables } from './template-variables';
import { botNodeDataSchemas, botRuntime } from './schemas/bot-canvas';
import type { BotDraftRfInstance, BotNodeType } from './schemas/bot-canvas';

export interface BotCanvasProblem {
  /** The node to select in the editor; null for a problem of the whole canvas. */
  nodeId: string | null;
  message: string;
}

/** What the canvas may refer to; a list left out is not checked (the editor may not have loaded it yet). */
export interface BotValidationContext {
  attributes?: readonly { id: string; name: string }[];
  memberIds?: readonly string[];
}

type Canvas = Pick<BotDraftRfInstance, 'nodes' | 'edges'>;
type AnyNode = Canvas['nodes'][number];
type AnyEdge = Canvas['edges'][number];

const extraHandles = new Set<string>([botRuntime.noAnswerHandle, botRuntime.failureHandle, botRuntime.invalidHandle]);
const childKinds: Partial<Record<BotNodeType, { child: BotNodeType; min: number; max: number; noun: string }>> = {
  ListNode: { child: 'ListButtonNode', min: 1, max: 10, noun: 'list item' },
  ReplyNode: { child: 'ReplyButtonNode', min: 1, max: 3, noun: 'reply button' },
  ConditionNode: { child: 'ConditionBranchNode', min: 1, max: 51, noun: 'branch' },
};
const parentKind: Partial<Record<BotNodeType, BotNodeType>> = {
  ListButtonNode: 'ListNode',
  ReplyButtonNode: 'ReplyNode',
  ConditionBranchNode: 'ConditionNode',
};

/** The structure of a canvas the runtime and the validator share: nodes by id, edges out of each node. */
export function botGraph(rf: Canvas) {
  const nodes = new Map(rf.nodes.map((n) => [n.id, n]));
  const out = new Map<string, AnyEdge[]>();
  const into = new Map<string, AnyEdge[]>();
  for (const e of rf.edges) {
    out.set(e.source, [...(out.get(e.source) ?? []), e]);
    into.set(e.target, [...(into.get(e.target) ?? []), e]);
  }
  const outOf = (id: string) => out.get(id) ?? [];
  return {
    nodes,
    outOf,
    into: (id: string) => into.get(id) ?? [],
    start: rf.nodes.find((n) => n.type === 'StartNode'),
    /** The children of a List, Reply or Condition node (its item, button or branch nodes), in edge order. */
    children(id: string): AnyNode[] {
      const parent = nodes.get(id);
      const kind = parent && childKinds[parent.type];
      if (!kind) return [];
      return outOf(id).map((e) => nodes.get(e.target)).filter((n): n is AnyNode => n?.type === kind.child);
    },
    /** The node a normal (handle-less or ordinary handle) edge leads to, or null. */
    next(id: string): string | null {
      const e = outOf(id).find((x) => !x.sourceHandle || !extraHandles.has(x.sourceHandle));
      return e ? e.target : null;
    },
    /** The node the edge with an extra handle (noAnswer, failure, invalid) leads to, or null. */
    via(id: string, handle: string): string | null {
      return outOf(id).find((x) => x.sourceHandle === handle)?.target ?? null;
    },
  };
}
export type BotGraph = ReturnType<typeof botGraph>;

const nameOf = (n: AnyNode) => (n.data?.label?.trim() ? n.data.label : botKindTitles[n.type]);

/** Field problems: each node's data against the strict schema of its kind (spec section 5's limits and messages). */
function fieldProblems(rf: Canvas): BotCanvasProblem[] {
  const problems: BotCanvasProblem[] = [];
  for (const n of rf.nodes) {
    const r = botNodeDataSchemas[n.type].safeParse(n.data);
    if (r.success) continue;
    for (const issue of r.error.issues) {
      const field = botFieldName(n.type, issue.path);
      const where = field ? `${field}: ` : '';
      problems.push({ nodeId: n.id, message: `${nameOf(n)}: ${where}${issue.message}` });
    }
  }
  return problems;
}

function structureProblems(rf: Canvas, g: BotGraph): BotCanvasProblem[] {
  const problems: BotCanvasProblem[] = [];
  const add = (n: AnyNode | null, message: string) => problems.push({ nodeId: n?.id ?? null, message: n ? `${nameOf(n)}: ${message}` : message });
  if (!g.start) add(null, 'The bot needs a Start node');
  else if (!g.next(g.start.id)) add(g.start, 'Connect the Start node to the first step');
  // Reachability from Start along every edge.
  const seen = new Set<string>();
  const queue = g.start ? [g.start.id] : [];
  while (queue.length) {
    const id = queue.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const e of g.outOf(id)) queue.push(e.target);
  }
  for (const n of rf.nodes) {
    if (g.start && !seen.has(n.id)) add(n, 'This step cannot be reached from Start');
    const kind = childKinds[n.type];
    const normal = g.outOf(n.id).filter((e) => !e.sourceHandle || !extraHandles.has(e.sourceHandle));
    if (kind) {
      const children = g.children(n.id);
      if (children.length < kind.min) add(n, `Add at least ${kind.min} ${kind.noun}`);
      if (n.type !== 'ConditionNode' && children.length > kind.max) add(n, `At most ${kind.max} ${kind.noun}s are allowed`);
      if (normal.length > children.length) add(n, `Connect this step only to its ${kind.noun}s`);
      const labels = children.map((c) => String(c.data?.label ?? '').trim().toLowerCase());
      if (n.type !== 'ConditionNode' && new Set(labels).size !== labels.length) add(n, `Each ${kind.noun} needs a different label`);
      if (n.type === 'ConditionNode') problems.push(...branchProblems(n, children, g));
    } else if (normal.length > 1) add(n, 'A step can lead to one next step only');
    const parent = parentKind[n.type];
    if (parent && !g.into(n.id).some((e) => g.nodes.get(e.source)?.type === parent)) add(n, `Connect it to a ${parent.replace('Node', '')} step`);
    for (const h of extraHandles) if (g.outOf(n.id).filter((e) => e.sourceHandle === h).length > 1) add(n, `Only one "${h}" path is allowed`);
  }
  return problems;
}

function branchProblems(n: AnyNode, children: AnyNode[], g: BotGraph): BotCanvasProblem[] {
  const problems: BotCanvasProblem[] = [];
  const label = nameOf(n);
  const defaults = children.filter((c) => c.type === 'ConditionBranchNode' && c.data?.type === 'Default').length;
  if (defaults !== 1) problems.push({ nodeId: n.id, message: `${label}: A condition needs exactly one Default branch` });
  const branches = n.type === 'ConditionNode' ? (n.data?.branches ?? []) : [];
  for (const b of branches) {
    if (b.id && !conditionBranchChild(g, n.id, b.id)) problems.push({ nodeId: n.id, message: `${label}: Branch "${b.label || b.id}" is not connected to a branch node` });
  }
  return problems;
}

/** The branch node of a Normal branch: the child by the edge whose handle is the branch id, or whose id it is. */
export function conditionBranchChild(g: BotGraph, conditionId: string, branchId: string): string | null {
  const edges = g.outOf(conditionId);
  const byHandle = edges.find((e) => e.sourceHandle === branchId && g.nodes.get(e.target)?.type === 'ConditionBranchNode');
  if (byHandle) return byHandle.target;
  return edges.find((e) => e.target === branchId && g.nodes.get(e.target)?.type === 'ConditionBranchNode')?.target ?? null;
}

/** Attribute ids a node refers to, and the texts that may hold `{{attribute name}}` variables. */
function referencesOf(n: AnyNode): { attributeIds: string[]; texts: string[]; memberIds: string[] } {
  const d = (n.data ?? {}) as Record<string, unknown>;
  const ids: unknown[] = [d.variableId, d.selectedAttributeId];
  const texts: unknown[] = [d.body, d.header, d.footer, d.caption, d.subject, d.messageOnChatAssigned, d.url, d.errorMessage];
  if (Array.isArray(d.branches)) for (const b of d.branches as { conditions?: { attributeId?: string }[] }[]) ids.push(...(b.conditions ?? []).map((c) => c.attributeId));
  if (Array.isArray(d.attributeMapping)) ids.push(...(d.attributeMapping as { attributeId?: string }[]).map((m) => m.attributeId));
  if (Array.isArray(d.responseMappings)) ids.push(...(d.responseMappings as { attributeId?: string }[]).map((m) => m.attributeId));
  if (Array.isArray(d.messageBlocks)) texts.push(...(d.messageBlocks as { text?: string }[]).map((b) => b.text));
  if (Array.isArray(d.headers)) texts.push(...(d.headers as { value?: string }[]).map((h) => h.value));
  const str = (xs: unknown[]) => xs.filter((x): x is string => typeof x === 'string' && x !== '');
  return { attributeIds: str(ids), texts: str(texts), memberIds: str([d.assigneeMemberId]) };
}

function referenceProblems(rf: Canvas, ctx: BotValidationContext): BotCanvasProblem[] {
  const problems: BotCanvasProblem[] = [];
  const ids = ctx.attributes && new Set(ctx.attributes.map((a) => a.id));
  const names = ctx.attributes && new Set(ctx.attributes.map((a) => a.name));
  const members = ctx.memberIds && new Set(ctx.memberIds);
  for (const n of rf.nodes) {
    const refs = referencesOf(n);
    if (ids) for (const id of refs.attributeIds) if (!ids.has(id)) problems.push({ nodeId: n.id, message: `${nameOf(n)}: The attribute ${id} does not exist` });
    if (names) {
      for (const v of new Set(refs.texts.flatMap((t) => attributeVariables(t)))) {
        if (!names.has(v)) problems.push({ nodeId: n.id, message: `${nameOf(n)}: The variable {{${v}}} is not an attribute of this workspace` });
      }
    }
    if (members) for (const m of refs.memberIds) if (!members.has(m)) problems.push({ nodeId: n.id, message: `${nameOf(n)}: The member ${m} is not in this workspace` });
  }
  return problems;
}

/**
 * Every problem that keeps a canvas from being deployed: required fields and limits of each node, the structure
 * (reachable from Start, child counts, one Default branch, one next step), and references to attributes,
 * `{{variables}}` and members that do not exist. Empty when the canvas can go live.
 */
export function validateBotCanvas(rf: Canvas, ctx: BotValidationContext = {}): BotCanvasProblem[] {
  const g = botGraph(rf);
  return [...fieldProblems(rf), ...structureProblems(rf, g), ...referenceProblems(rf, ctx)];
}
