/**
 * One small executor per node kind. `enter` runs when the walk reaches the node; waiting kinds (CollectInput,
 * List, Reply, WhatsappFlow) also have `answer`, which checks the customer's answer: a fitting one is stored and
 * the walk goes on; an unfitting one gets the node's errorMessage and the question again, up to
 * botRuntime.maxInvalidAnswers, then the node's `invalid` edge if it has one, else the session ends (failed) and
 * the conversation waits for a human. A `noAnswer` (the node's no-answer timeout) follows the `noAnswer` edge.
 */
import type { BotNode, BotPreviewAnswer } from '../../shared';
import { botRuntime } from '../../shared/schemas/bot-canvas';
import { conditionBranchChild } from '../../shared/bot-validation';
import type { ExecContext, Executor, StepResult, BotMessage } from './executor-contract';
import { applyHttpOutcome, buildHttpCall } from './http-node';
import { ownValue } from '../../shared/own-value';

type Of<T extends BotNode['type']> = Extract<BotNode, { type: T }>;

const message = (nodeId: string, type: BotMessage['type'], fields: Partial<BotMessage> = {}): BotMessage => ({
  nodeId,
  type,
  text: null,
  header: null,
  footer: null,
  mediaUrl: null,
  filename: null,
  buttons: [],
  actionLabel: null,
  ...fields,
});

const next = (c: ExecContext, id: string): StepResult => ({ next: c.g.next(id) });

/** An unfitting answer: the error message and the question again, or, past the limit, the `invalid` edge or the end. */
function invalid(node: BotNode, c: ExecContext, errorMessage: string | undefined, ask: () => void): StepResult {
  c.state.invalidAnswers += 1;
  if (c.state.invalidAnswers > botRuntime.maxInvalidAnswers) {
    const via = c.g.via(node.id, botRuntime.invalidHandle);
    c.env.note(node.id, `No usable answer after ${botRuntime.maxInvalidAnswers} tries`);
    return via ? { next: via } : { end: 'failed' };
  }
  const text = c.fill(errorMessage);
  if (text.trim()) c.env.send(node.id, c.key(0), message(node.id, 'text', { text }));
  ask();
  return { wait: waitingOf[node.type]! };
}
const waitingOf: Partial<Record<BotNode['type'], 'input' | 'reply' | 'list' | 'flow'>> = {
  CollectInputNode: 'input',
  ReplyNode: 'reply',
  ListNode: 'list',
  WhatsappFlowNode: 'flow',
};

/** The no-answer timeout fired: the `noAnswer` edge (or the end, when the node has none). */
function noAnswer(node: BotNode, c: ExecContext): StepResult {
  const via = c.g.via(node.id, botRuntime.noAnswerHandle);
  return via ? { next: via } : { end: 'expired' };
}

/** The value an attribute of this format takes from a typed answer, or null when it does not fit. */
export function checkFormat(format: 'text' | 'number' | 'boolean' | undefined, raw: string): string | null {
  const v = raw.trim();
  if (!v) return null;
  if (format === 'number') return /^[-+]?\d+([.,]\d+)?$/.test(v) ? v.replace(',', '.') : null;
  if (format === 'boolean') {
    const t = v.toLowerCase();
    if (['yes', 'y', 'true', '1', 'oui', 'si', 'sí', 'ja'].includes(t)) return 'true';
    if (['no', 'n', 'false', '0', 'non', 'nein'].includes(t)) return 'false';
    return null;
  }
  return v;
}

const answerText = (a: BotPreviewAnswer): string | null => (a.type === 'text' ? a.text : null);

/** The child (item or button node) an answer picks: by its id (a tap), or a typed text equal to its label. */
function pickChild(node: BotNode, a: BotPreviewAnswer, c: ExecContext) {
  const children = c.g.children(node.id);
  if (a.type === 'button' || a.type === 'listRow') return children.find((ch) => ch.id === a.id) ?? null;
  const t = answerText(a)?.trim().toLowerCase();
  return t ? (children.find((ch) => String(ch.data?.label ?? '').trim().toLowerCase() === t) ?? null) : null;
}

function choiceAnswer(node: Of<'ListNode'> | Of<'ReplyNode'>, a: BotPreviewAnswer, c: ExecContext, ask: () => void): StepResult {
  if (a.type === 'noAnswer') return noAnswer(node, c);
  const child = pickChild(node, a, c);
  if (!child) return invalid(node, c, node.data.errorMessage, ask);
  if (node.data.selectedAttributeId) c.set(node.data.selectedAttributeId, String(child.data?.label ?? ''));
  return { next: c.g.next(child.id) };
}

function askList(node: Of<'ListNode'>, c: ExecContext) {
  const rows = c.g.children(node.id).map((ch) => ({ id: ch.id, title: String(ch.data?.label ?? '') }));
  c.env.send(node.id, c.key(1), message(node.id, 'list', {
    text: c.fill(node.data.body),
    header: node.data.header ? c.fill(node.data.header) : null,
    footer: node.data.footer ? c.fill(node.data.footer) : null,
    buttons: rows,
    actionLabel: node.data.buttonName,
  }));
}
function askReply(node: Of<'ReplyNode'>, c: ExecContext) {
  const buttons = c.g.children(node.id).map((ch) => ({ id: ch.id, title: String(ch.data?.label ?? '') }));
  c.env.send(node.id, c.key(1), message(node.id, 'reply', {
    text: c.fill(node.data.body),
    header: node.data.header ? c.fill(node.data.header) : null,
    footer: node.data.footer ? c.fill(node.data.footer) : null,
    buttons,
  }));
}
function askFlow(node: Of<'WhatsappFlowNode'>, c: ExecContext) {
  c.env.send(node.id, c.key(1), message(node.id, 'flow', {
    text: c.fill(node.data.body),
    header: node.data.header ? c.fill(node.data.header) : null,
    footer: node.data.footer ? c.fill(node.data.footer) : null,
    actionLabel: node.data.flowCTA,
    flowId: node.data.flowId,
  }));
}
const askInput = (node: Of<'CollectInputNode'>, c: ExecContext) =>
  c.env.send(node.id, c.key(1), message(node.id, 'text', { text: c.fill(node.data.body) }));

/** EQUALS / NOT_EQUALS compare trimmed values without regard to case; a missing value is the empty text. */
function holds(cond: { attributeId: string; operator: 'EQUALS' | 'NOT_EQUALS'; value: string }, c: ExecContext): boolean {
  const a = c.env.attributes.get(cond.attributeId);
  const value = ownValue(c.state.variables, cond.attributeId) ?? (a ? ownValue(c.env.known, a.name) : undefined) ?? '';
  const same = value.trim().toLowerCase() === c.fill(cond.value).trim().toLowerCase();
  return cond.operator === 'EQUALS' ? same : !same;
}

const passThrough = { enter: (n: BotNode, c: ExecContext) => next(c, n.id) };

export const executors: { [K in BotNode['type']]: Executor<Of<K>> } = {
  StartNode: passThrough,
  ListButtonNode: passThrough,
  ReplyButtonNode: passThrough,
  ConditionBranchNode: passThrough,
  SendMessageNode: {
    enter(node, c) {
      node.data.messageBlocks.forEach((b, i) => {
        const text = c.fill(b.text);
        if (text.trim()) c.env.send(node.id, c.key(i), message(node.id, 'text', { text }));
      });
      return next(c, node.id);
    },
  },
  MediaNode: {
    enter(node, c) {
      c.env.send(node.id, c.key(0), message(node.id, node.data.mediaType, {
        mediaUrl: node.data.mediaLink,
        text: node.data.caption ? c.fill(node.data.caption) : null,
        filename: node.data.filename ?? null,
      }));
      return next(c, node.id);
    },
  },
  CollectInputNode: {
    enter(node, c) {
      askInput(node, c);
      return { wait: 'input' };
    },
    answer(node, a, c) {
      if (a.type === 'noAnswer') return noAnswer(node, c);
      const attribute = c.env.attributes.get(node.data.variableId);
      const raw = a.type === 'text' ? a.text : a.type === 'flow' ? '' : (c.g.nodes.get(a.id)?.data?.label ?? '');
      const value = checkFormat(attribute?.format, String(raw));
      if (value === null) return invalid(node, c, node.data.errorMessage ?? botRuntime.defaultFormatError, () => askInput(node, c));
      c.set(node.data.variableId, value);
      return next(c, node.id);
    },
  },
  ListNode: {
    enter(node, c) {
      askList(node, c);
      return { wait: 'list' };
    },
    answer: (node, a, c) => choiceAnswer(node, a, c, () => askList(node, c)),
  },
  ReplyNode: {
    enter(node, c) {
      askReply(node, c);
      return { wait: 'reply' };
    },
    answer: (node, a, c) => choiceAnswer(node, a, c, () => askReply(node, c)),
  },
  WhatsappFlowNode: {
    enter(node, c) {
      askFlow(node, c);
      return { wait: 'flow' };
    },
    answer(node, a, c) {
      if (a.type === 'noAnswer') return noAnswer(node, c);
      if (a.type !== 'flow') return invalid(node, c, node.data.errorMessage, () => askFlow(node, c));
      for (const m of node.data.attributeMapping) {
        const v = ownValue(a.response, m.objectKey);
        if (v !== undefined && v !== null) c.set(m.attributeId, String(v));
      }
      return next(c, node.id);
    },
  },
  ConditionNode: {
    enter(node, c) {
      for (const b of node.data.branches) {
        if (b.conditions.every((cond) => holds(cond, c))) {
          const child = conditionBranchChild(c.g, node.id, b.id);
          return child ? next(c, child) : { end: 'failed' };
        }
      }
      const fallback = c.g.children(node.id).find((ch) => ch.type === 'ConditionBranchNode' && ch.data?.type === 'Default');
      return fallback ? next(c, fallback.id) : { end: 'failed' };
    },
  },
  HTTPRequestNode: {
    async enter(node, c) {
      const outcome = await c.env.http(buildHttpCall(node, c), { nodeId: node.id, key: c.key(0) });
      if (!outcome) return { pause: 'call' };
      applyHttpOutcome(node, outcome, c);
      if (outcome.ok) return next(c, node.id);
      c.env.note(node.id, `HTTP request failed: ${outcome.reason}`);
      // The failure edge when there is one; otherwise the walk goes on without the answer's values.
      return { next: c.g.via(node.id, botRuntime.failureHandle) ?? c.g.next(node.id) };
    },
  },
  SendEmailNode: {
    enter(node, c) {
      const d = node.data;
      c.env.email(node.id, c.key(0), { to: d.to, cc: d.cc, bcc: d.bcc, subject: c.fill(d.subject), text: c.fill(d.body) });
      return next(c, node.id);
    },
  },
  HumanHandoffNode: {
    enter(node, c) {
      c.env.handoff(node.id, node.data.assigneeMemberId, c.fill(node.data.messageOnChatAssigned), c.key(0));
      return { end: 'handoff' };
    },
  },
};
