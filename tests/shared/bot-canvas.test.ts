import { describe, it, expect } from 'vitest';
import {
  BotNode,
  BotRfInstance,
  ConditionNode,
  HTTPRequestNode,
  ListButtonNode,
  ListNode,
  MediaNode,
  ReplyButtonNode,
  ReplyNode,
  SendEmailNode,
  StartNode,
  WhatsappFlowNode,
  limits,
} from '../../src/shared';
import type { z } from 'zod';
import { expectFail, expectOk, str } from './helpers';
import { botNodeTypes } from '../support/contract-helpers';

const pos = { x: 10, y: 20 };
const condition = { id: 'c1', attributeId: 'attr-1', operator: 'EQUALS', value: 'yes' };
const branch = { id: 'b1', label: 'Yes', type: 'Normal', conditions: [condition] };

/** One minimal valid node per kind. */
const fixtures = {
  StartNode: { id: 'start', type: 'StartNode', position: pos, data: { label: 'Start' } },
  CollectInputNode: {
    id: 'collect',
    type: 'CollectInputNode',
    position: pos,
    data: { label: 'Ask name', body: 'What is your name?', variableId: 'attr-name' },
  },
  ConditionNode: { id: 'cond', type: 'ConditionNode', position: pos, data: { label: 'Check', branches: [branch] } },
  ConditionBranchNode: { id: 'cb', type: 'ConditionBranchNode', position: pos, data: { label: 'Else', type: 'Default' } },
  SendEmailNode: {
    id: 'mail',
    type: 'SendEmailNode',
    position: pos,
    data: { label: 'Mail', to: ['ops@acme.io'], cc: [], bcc: [], subject: 'New lead', body: 'A lead arrived' },
  },
  HumanHandoffNode: {
    id: 'handoff',
    type: 'HumanHandoffNode',
    position: pos,
    data: { label: 'Handoff', assigneeMemberId: 'mem-1', messageOnChatAssigned: 'An agent will answer shortly' },
  },
  HTTPRequestNode: {
    id: 'http',
    type: 'HTTPRequestNode',
    position: pos,
    data: { label: 'Call', url: 'https://api.acme.io/hook', method: 'POST', headers: [{ key: 'X-Key', value: '1' }], bodyType: 'raw' },
  },
  ListNode: {
    id: 'list',
    type: 'ListNode',
    position: pos,
    data: { label: 'Menu', body: 'Pick one', buttonName: 'Options', errorMessage: 'Please pick an option' },
  },
  ListButtonNode: { id: 'lb', type: 'ListButtonNode', position: pos, data: { label: 'Item' } },
  MediaNode: {
    id: 'media',
    type: 'MediaNode',
    position: pos,
    data: { label: 'Photo', mediaLink: 'https://cdn.acme.io/a.png', mediaType: 'image' },
  },
  SendMessageNode: {
    id: 'msg',
    type: 'SendMessageNode',
    position: pos,
    data: { label: 'Hello', messageBlocks: [{ id: 'mb1', type: 'text', text: 'Hello there' }] },
  },
  ReplyNode: {
    id: 'reply',
    type: 'ReplyNode',
    position: pos,
    data: { label: 'Ask', body: 'Yes or no?', errorMessage: 'Please tap a button' },
  },
  ReplyButtonNode: { id: 'rb', type: 'ReplyButtonNode', position: pos, data: { label: 'Yes' } },
  WhatsappFlowNode: {
    id: 'flow',
    type: 'WhatsappFlowNode',
    position: pos,
    data: {
      label: 'Flow',
      body: 'Book an appointment',
      errorMessage: 'Please complete the form',
      flowCTA: 'Book now',
      flowId: 'flow-1',
      attributeMapping: [{ id: 'am1', objectKey: 'date', attributeId: 'attr-date' }],
    },
  },
};
type Kind = keyof typeof fixtures;

function withData<K extends Kind>(kind: K, patch: Record<string, unknown>) {
  return { ...fixtures[kind], data: { ...fixtures[kind].data, ...patch } };
}
function withoutData<K extends Kind>(kind: K, key: string) {
  const data: Record<string, unknown> = { ...fixtures[kind].data };
  delete data[key];
  return { ...fixtures[kind], data };
}
/** Checks `min`..`max` on a text field of a node: both bounds accepted, one past each refused. */
function bounds(schema: z.ZodType, kind: Kind, field: string, min: number, max: number) {
  expectOk(schema, withData(kind, { [field]: str(max, 'x') }));
  expectOk(schema, withData(kind, { [field]: str(Math.max(min, 1), 'x') }));
  expectFail(schema, withData(kind, { [field]: str(max + 1, 'x') }));
  if (min > 0) expectFail(schema, withData(kind, { [field]: str(min - 1, 'x') }));
  // The same through the union every canvas uses.
  expectFail(BotNode, withData(kind, { [field]: str(max + 1, 'x') }));
}

describe('bot node kinds', () => {
  it('has exactly 14 node kinds, each covered by a fixture', () => {
    expect(botNodeTypes).toHaveLength(14);
    expect(new Set(botNodeTypes).size).toBe(14);
    expect([...botNodeTypes].sort()).toEqual(Object.keys(fixtures).sort());
  });

  it.each(Object.entries(fixtures))('parses a minimal %s', (type, node) => {
    const r = BotNode.safeParse(node);
    expect(r.success ? [] : r.error.issues).toEqual([]);
    expect(r.success && r.data.type).toBe(type);
  });

  it('defaults deletable to true on ordinary nodes', () => {
    const r = BotNode.parse(fixtures.ReplyNode);
    expect(r.deletable).toBe(true);
  });

  it('refuses an unknown node kind', () => {
    expectFail(BotNode, { ...fixtures.ReplyNode, type: 'GotoNode' });
  });

  it('refuses a node without position', () => {
    const { position: _omit, ...rest } = fixtures.ReplyNode;
    expectFail(BotNode, rest);
  });
});

describe('StartNode', () => {
  it('parses with deletable false by default', () => {
    expect(StartNode.parse(fixtures.StartNode).deletable).toBe(false);
    expect(BotNode.parse(fixtures.StartNode).deletable).toBe(false);
  });
  it('refuses deletable true', () => {
    expectFail(StartNode, { ...fixtures.StartNode, deletable: true });
  });
  it('accepts an optional variableId', () => {
    expectOk(StartNode, withData('StartNode', { variableId: 'attr-1' }));
  });
});

describe('SendEmailNode (spec 5/9: subject 60, body 1024)', () => {
  it('subject: 60 ok, 61 refused', () => {
    expect(limits.bot.emailSubjectMax).toBe(60);
    bounds(SendEmailNode, 'SendEmailNode', 'subject', 0, 60);
  });
  it('body: 1024 ok, 1025 refused', () => {
    expect(limits.bot.emailBodyMax).toBe(1024);
    bounds(SendEmailNode, 'SendEmailNode', 'body', 0, 1024);
  });
  it('recipients must be e-mail addresses', () => {
    expectFail(SendEmailNode, withData('SendEmailNode', { to: ['not-an-email'] }));
    expectFail(SendEmailNode, withData('SendEmailNode', { cc: ['x@'] }));
    expectFail(SendEmailNode, withData('SendEmailNode', { bcc: ['nobody'] }));
    expectOk(SendEmailNode, withData('SendEmailNode', { cc: ['a@acme.io'], bcc: ['b@acme.io'] }));
  });
});

describe('ListNode (spec 5/9)', () => {
  it('header: 60 ok, 61 refused; optional', () => {
    expect(limits.bot.headerMax).toBe(60);
    bounds(ListNode, 'ListNode', 'header', 0, 60);
  });
  it('footer: 60 ok, 61 refused; optional', () => {
    expect(limits.bot.footerMax).toBe(60);
    bounds(ListNode, 'ListNode', 'footer', 0, 60);
  });
  it('body: 1024 ok, 1025 refused', () => {
    expect(limits.bot.bodyMax).toBe(1024);
    bounds(ListNode, 'ListNode', 'body', 1, 1024);
  });
  it('buttonName: 1..20 (0 and 21 refused)', () => {
    expect(limits.bot.listButtonName).toEqual({ min: 1, max: 20 });
    bounds(ListNode, 'ListNode', 'buttonName', 1, 20);
    expectFail(ListNode, withData('ListNode', { buttonName: '' }));
    expectFail(ListNode, withoutData('ListNode', 'buttonName'));
  });
});

describe('ListButtonNode label 1..24', () => {
  it('1 and 24 ok, 0 and 25 refused', () => {
    expect(limits.bot.listItemLabel).toEqual({ min: 1, max: 24 });
    bounds(ListButtonNode, 'ListButtonNode', 'label', 1, 24);
    expectFail(ListButtonNode, withData('ListButtonNode', { label: '' }));
  });
});

describe('ReplyNode (spec 5/9)', () => {
  it('header: 60 ok, 61 refused', () => bounds(ReplyNode, 'ReplyNode', 'header', 0, 60));
  it('footer: 60 ok, 61 refused', () => bounds(ReplyNode, 'ReplyNode', 'footer', 0, 60));
  it('body: 1024 ok, 1025 refused', () => bounds(ReplyNode, 'ReplyNode', 'body', 1, 1024));
});

describe('ReplyButtonNode label 1..20', () => {
  it('1 and 20 ok, 0 and 21 refused', () => {
    expect(limits.bot.replyButtonLabel).toEqual({ min: 1, max: 20 });
    bounds(ReplyButtonNode, 'ReplyButtonNode', 'label', 1, 20);
    expectFail(ReplyButtonNode, withData('ReplyButtonNode', { label: '' }));
  });
});

describe('WhatsappFlowNode', () => {
  it('flowCTA: 1 and 20 ok, 0 and 21 refused', () => {
    expect(limits.bot.flowCta).toEqual({ min: 1, max: 20 });
    bounds(WhatsappFlowNode, 'WhatsappFlowNode', 'flowCTA', 1, 20);
    expectFail(WhatsappFlowNode, withData('WhatsappFlowNode', { flowCTA: '' }));
  });
  it('header and footer: 60 ok, 61 refused', () => {
    bounds(WhatsappFlowNode, 'WhatsappFlowNode', 'header', 0, 60);
    bounds(WhatsappFlowNode, 'WhatsappFlowNode', 'footer', 0, 60);
  });
  it('body: 1024 ok, 1025 refused', () => bounds(WhatsappFlowNode, 'WhatsappFlowNode', 'body', 1, 1024));
});

describe('MediaNode mediaLink must be a URL', () => {
  it('accepts an https URL', () => {
    expectOk(MediaNode, withData('MediaNode', { mediaLink: 'https://cdn.acme.io/file.pdf', mediaType: 'document' }));
  });
  it.each(['not a url', 'cdn.acme.io/a.png', ''])('refuses %j', (mediaLink) => {
    expectFail(MediaNode, withData('MediaNode', { mediaLink }));
  });
  it('mediaType is image, video or document', () => {
    for (const mediaType of ['image', 'video', 'document']) expectOk(MediaNode, withData('MediaNode', { mediaType }));
    expectFail(MediaNode, withData('MediaNode', { mediaType: 'audio' }));
  });
});

describe('HTTPRequestNode', () => {
  it('url must be a URL', () => {
    expectOk(HTTPRequestNode, withData('HTTPRequestNode', { url: 'http://localhost:8080/x?y=1' }));
    expectFail(HTTPRequestNode, withData('HTTPRequestNode', { url: 'api.acme.io/hook' }));
    expectFail(HTTPRequestNode, withData('HTTPRequestNode', { url: 'just words' }));
  });
  it.each(['GET', 'POST', 'PUT', 'PATCH'])('accepts method %s', (method) => {
    expectOk(HTTPRequestNode, withData('HTTPRequestNode', { method }));
  });
  it.each(['DELETE', 'HEAD', 'OPTIONS', 'get', ''])('refuses method %j', (method) => {
    expectFail(HTTPRequestNode, withData('HTTPRequestNode', { method }));
  });
  it('bodyType is raw or form', () => {
    expectOk(HTTPRequestNode, withData('HTTPRequestNode', { bodyType: 'form', body: 'a=1' }));
    expectFail(HTTPRequestNode, withData('HTTPRequestNode', { bodyType: 'json' }));
  });
});

describe('ConditionNode (spec 5: at least one branch, each with at least one condition)', () => {
  it('refuses a node with no branches', () => {
    expectFail(ConditionNode, withData('ConditionNode', { branches: [] }));
  });
  it('refuses a branch with no conditions', () => {
    expectFail(ConditionNode, withData('ConditionNode', { branches: [{ ...branch, conditions: [] }] }));
    expectFail(ConditionNode, withData('ConditionNode', { branches: [branch, { ...branch, id: 'b2', conditions: [] }] }));
  });
  it('accepts several branches and conditions', () => {
    expectOk(
      ConditionNode,
      withData('ConditionNode', {
        branches: [branch, { ...branch, id: 'b2', conditions: [condition, { ...condition, id: 'c2', operator: 'NOT_EQUALS' }] }],
      }),
    );
  });
  it.each(['EQUALS', 'NOT_EQUALS'])('accepts operator %s', (operator) => {
    expectOk(ConditionNode, withData('ConditionNode', { branches: [{ ...branch, conditions: [{ ...condition, operator }] }] }));
  });
  it.each(['CONTAINS', 'IS', 'equals', 'GREATER_THAN'])('refuses operator %s', (operator) => {
    expectFail(ConditionNode, withData('ConditionNode', { branches: [{ ...branch, conditions: [{ ...condition, operator }] }] }));
  });
  it('a branch is of type Normal', () => {
    expectFail(ConditionNode, withData('ConditionNode', { branches: [{ ...branch, type: 'Default' }] }));
  });
});

describe('BotRfInstance', () => {
  const edge = (id: string, source: string, target: string) => ({ id, source, target, style: { stroke: '#888' } });
  const canvas = {
    nodes: [fixtures.StartNode, fixtures.ReplyNode, fixtures.ReplyButtonNode],
    edges: [edge('e1', 'start', 'reply'), { ...edge('e2', 'reply', 'rb'), sourceHandle: 'h1' }],
  };

  it('accepts a canvas without viewport (viewport optional)', () => {
    expectOk(BotRfInstance, canvas);
  });
  it('accepts a viewport x, y, zoom and refuses an incomplete one', () => {
    expectOk(BotRfInstance, { ...canvas, viewport: { x: 1, y: -2, zoom: 0.75 } });
    expectFail(BotRfInstance, { ...canvas, viewport: { x: 1, y: -2 } });
  });
  it('accepts every node kind together', () => {
    expectOk(BotRfInstance, { nodes: Object.values(fixtures), edges: [] });
  });
  it('refuses an edge whose source or target is missing', () => {
    expectFail(BotRfInstance, { ...canvas, edges: [edge('e1', 'start', 'ghost')] });
    expectFail(BotRfInstance, { ...canvas, edges: [edge('e1', 'ghost', 'reply')] });
  });
  it('refuses duplicate node ids', () => {
    expectFail(BotRfInstance, { ...canvas, nodes: [...canvas.nodes, { ...fixtures.ListButtonNode, id: 'reply' }] });
  });
  it("accepts React Flow's presentational keys (measured, selected, dragging)", () => {
    const shown = { ...fixtures.ReplyNode, measured: { width: 240, height: 120 }, selected: true, dragging: false };
    expectOk(BotNode, shown);
    expectOk(BotRfInstance, { ...canvas, nodes: [fixtures.StartNode, shown, fixtures.ReplyButtonNode] });
  });
  it('refuses unknown node keys', () => {
    expectFail(BotNode, { ...fixtures.ReplyNode, color: 'red' });
    expectFail(BotNode, withData('ReplyNode', { colour: 'red' }));
    expectFail(BotRfInstance, { ...canvas, nodes: [fixtures.StartNode, { ...fixtures.ReplyNode, foo: 1 }, fixtures.ReplyButtonNode] });
  });
  it('refuses unknown top-level keys', () => {
    expectFail(BotRfInstance, { ...canvas, zoom: 1 });
  });
});
