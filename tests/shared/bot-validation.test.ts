/** The shared check of a bot canvas (editor summary and deploy) and the lenient draft schema. */
import { describe, expect, it } from 'vitest';
import { BotDraftRfInstance, BotRfInstance, validateBotCanvas } from '../../src/shared';

const pos = { x: 0, y: 0 };
const start = { id: 'start', type: 'StartNode', position: pos, data: { label: 'Start' }, deletable: false };
const e = (source: string, target: string, sourceHandle?: string) => ({ id: `${source}-${target}`, source, target, ...(sourceHandle ? { sourceHandle } : {}) });
const attributes = [{ id: 'a-choice', name: 'choice' }];

function canvas(nodes: unknown[], edges: unknown[]) {
  return BotDraftRfInstance.parse({ nodes: [start, ...nodes], edges });
}

describe('validateBotCanvas', () => {
  it('accepts a complete canvas', () => {
    const rf = canvas(
      [
        { id: 'reply', type: 'ReplyNode', position: pos, data: { label: 'Ask', body: 'Yes?', errorMessage: 'Tap a button', selectedAttributeId: 'a-choice' } },
        { id: 'yes', type: 'ReplyButtonNode', position: pos, data: { label: 'Yes' } },
        { id: 'msg', type: 'SendMessageNode', position: pos, data: { label: 'Hi', messageBlocks: [{ id: 'b', type: 'text', text: 'You chose {{choice}}' }] } },
      ],
      [e('start', 'reply'), e('reply', 'yes'), e('yes', 'msg')],
    );
    expect(validateBotCanvas(rf, { attributes, memberIds: [] })).toEqual([]);
    expect(BotRfInstance.safeParse(rf).success).toBe(true);
  });

  it('lists every problem with the node to select', () => {
    const rf = canvas(
      [
        { id: 'reply', type: 'ReplyNode', position: pos, data: { label: 'Ask', body: '', errorMessage: '' } },
        ...['1', '2', '3', '4'].map((i) => ({ id: `b${i}`, type: 'ReplyButtonNode', position: pos, data: { label: `B${i}` } })),
        { id: 'cond', type: 'ConditionNode', position: pos, data: { label: 'Cond', branches: [{ id: 'br', label: 'X', type: 'Normal', conditions: [{ id: 'c', attributeId: 'gone', operator: 'EQUALS', value: '1' }] }] } },
        { id: 'hand', type: 'HumanHandoffNode', position: pos, data: { label: 'Hand', assigneeMemberId: 'nobody', messageOnChatAssigned: '{{missing}}' } },
      ],
      [e('start', 'reply'), e('reply', 'b1'), e('reply', 'b2'), e('reply', 'b3'), e('reply', 'b4'), e('b1', 'cond'), e('cond', 'hand')],
    );
    const problems = validateBotCanvas(rf, { attributes, memberIds: ['m1'] });
    const of = (id: string) => problems.filter((p) => p.nodeId === id).map((p) => p.message);
    expect(of('reply')).toContain('Ask: Body: This field cannot be empty');
    expect(of('reply')).toContain('Ask: At most 3 reply buttons are allowed');
    expect(of('cond')).toContain('Cond: A condition needs exactly one Default branch');
    expect(of('cond')).toContain('Cond: Branch "X" is not connected to a branch node');
    expect(of('cond')).toContain('Cond: The attribute gone does not exist');
    expect(of('hand')).toContain('Hand: The member nobody is not in this workspace');
    expect(of('hand')).toContain('Hand: The variable {{missing}} is not an attribute of this workspace');
  });

  it('knows {{variables}} of attributes whose names hold spaces, and flags a misspelt one', () => {
    const rf = canvas(
      [{ id: 'msg', type: 'SendMessageNode', position: pos, data: { label: 'Hi', messageBlocks: [{ id: 'b', type: 'text', text: 'Hello {{First name}}, or is it {{Frist name}}?' }] } }],
      [e('start', 'msg')],
    );
    const problems = validateBotCanvas(rf, { attributes: [...attributes, { id: 'a-first', name: 'First name' }], memberIds: [] }).map((p) => p.message);
    expect(problems).toEqual(['Hi: The variable {{Frist name}} is not an attribute of this workspace']);
  });

  it('flags unreachable steps and a Start leading nowhere', () => {
    const rf = canvas([{ id: 'm', type: 'SendMessageNode', position: pos, data: { label: 'Orphan', messageBlocks: [] } }], []);
    const messages = validateBotCanvas(rf).map((p) => p.message);
    expect(messages).toContain('Start: Connect the Start node to the first step');
    expect(messages).toContain('Orphan: This step cannot be reached from Start');
  });
});

describe('BotDraftRfInstance', () => {
  it('saves unfinished nodes but keeps length limits', () => {
    expect(BotDraftRfInstance.safeParse({ nodes: [start, { id: 'l', type: 'ListNode', position: pos, data: {} }], edges: [] }).success).toBe(true);
    expect(BotDraftRfInstance.safeParse({ nodes: [start, { id: 'l', type: 'ListNode', position: pos, data: { buttonName: 'x'.repeat(21) } }], edges: [] }).success).toBe(false);
    expect(BotDraftRfInstance.safeParse({ nodes: [start, { id: 'l', type: 'ListNode', position: pos, data: { nope: 1 } }], edges: [] }).success).toBe(false);
  });
});
