/**
 * The canvas problems list speaks to a person: a bot step's field problems name the step and the field as the
 * form does ("Collect input: Save the answer in: …"), never a schema path or zod's wording, for every kind in
 * its empty and too-long states; messages the spec spells out stay as spelled.
 */
import { describe, expect, it } from 'vitest';
import { validateBotCanvas } from '../../src/shared';
import { messages, productMessages } from '../../src/shared/messages';
import type { BotNodeType } from '../../src/shared/schemas/bot-canvas';

const pos = { x: 0, y: 0 };
const start = { id: 'start', type: 'StartNode', position: pos, data: { label: 'Start' }, deletable: false };

/** A complete step of each kind, every field filled in (lists with one entry). */
const full: Record<BotNodeType, Record<string, unknown>> = {
  StartNode: { label: 'Start', variableId: 'a1', startCondition: { type: 'keywords', keywords: ['order'], match: 'exact' }, idleExpiryMinutes: 60 },
  SendMessageNode: { label: 'Hello', messageBlocks: [{ id: 'm1', type: 'text', text: 'Hi' }] },
  MediaNode: { label: 'Photo', mediaLink: 'https://acme.test/a.png', mediaType: 'image', caption: 'A', filename: 'a.png' },
  CollectInputNode: { label: 'Ask', body: 'Your e-mail?', variableId: 'a1', errorMessage: 'Again', noAnswerTimeoutMinutes: 5 },
  ListNode: { label: 'Menu', header: 'H', body: 'Pick', buttonName: 'Choose', footer: 'F', errorMessage: 'Pick one', selectedAttributeId: 'a1', noAnswerTimeoutMinutes: 5 },
  ListButtonNode: { label: 'One' },
  ReplyNode: { label: 'Ask', header: 'H', body: 'Yes?', footer: 'F', errorMessage: 'Tap', selectedAttributeId: 'a1', noAnswerTimeoutMinutes: 5 },
  ReplyButtonNode: { label: 'Yes' },
  WhatsappFlowNode: { label: 'Form', header: 'H', body: 'Fill', errorMessage: 'Fill it', footer: 'F', flowCTA: 'Open', flowId: 'f1', attributeMapping: [{ id: 'x1', objectKey: 'name', attributeId: 'a1' }], noAnswerTimeoutMinutes: 5 },
  ConditionNode: { label: 'Cond', branches: [{ id: 'b1', label: 'Sales', type: 'Normal', conditions: [{ id: 'c1', attributeId: 'a1', operator: 'EQUALS', value: 'x' }] }] },
  ConditionBranchNode: { label: 'Sales', type: 'Normal' },
  HTTPRequestNode: { label: 'Call', url: 'https://api.acme.test', method: 'GET', headers: [{ key: 'X', value: 'v' }], body: 'b', bodyType: 'raw', timeoutMs: 1000, responseMappings: [{ id: 'r1', path: '$.id', attributeId: 'a1' }] },
  SendEmailNode: { label: 'Mail', to: ['team@acme.test'], cc: ['a@acme.test'], bcc: ['b@acme.test'], subject: 'S', body: 'B' },
  HumanHandoffNode: { label: 'Hand', assigneeMemberId: 'm1', messageOnChatAssigned: 'Hi' },
};

/** Fields that hold a choice or an id the editor makes, not text a person types. */
const notTyped = new Set(['id', 'type', 'method', 'bodyType', 'mediaType', 'operator', 'match']);

/** The same data with every typed text (and every number) set by `text` / `number`. */
function each(value: unknown, key: string, text: string, number: number): unknown {
  if (notTyped.has(key)) return value;
  if (typeof value === 'string') return text;
  if (typeof value === 'number') return number;
  if (Array.isArray(value)) return value.map((v) => each(v, '', text, number));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, each(v, k, text, number)]));
  return value;
}

function problemsOf(type: BotNodeType, data: unknown): string[] {
  // Not parsed as a draft: a draft may already be longer than the step allows, which is what is checked here.
  const node = { id: 'n', type, position: pos, data };
  const rf = { nodes: type === 'StartNode' ? [node] : [start, node], edges: type === 'StartNode' ? [] : [{ id: 'e', source: 'start', target: 'n' }] };
  return validateBotCanvas(rf as unknown as Parameters<typeof validateBotCanvas>[0]).filter((p) => p.nodeId === 'n').map((p) => p.message);
}

const schemaSpeech = /expected|too small|too big|invalid|>=|<=|\b[A-Za-z]+\.\d+\b/i;
const codeName = /\b[a-z]+[A-Z][A-Za-z]*\b/;

describe('bot canvas problems are written for a person', () => {
  it.each(Object.keys(full) as BotNodeType[])('%s: empty and too long', (type) => {
    expect(problemsOf(type, full[type]).filter((m) => !/Add at least|Connect|Default branch|not connected to a branch/.test(m))).toEqual([]);
    const said = [...problemsOf(type, each(full[type], '', '', -1)), ...problemsOf(type, each(full[type], '', 'x'.repeat(5000), 10 ** 9))];
    expect(said.length).toBeGreaterThan(0);
    for (const message of said) {
      expect(message, message).not.toMatch(schemaSpeech);
      expect(message, message).not.toMatch(codeName);
    }
  });

  it('names the step and the field as the form does', () => {
    expect(problemsOf('CollectInputNode', { label: 'Collect input', body: 'Your name?', variableId: '' })).toContain(`Collect input: Save the answer in: ${messages.fieldEmpty}`);
    expect(problemsOf('SendMessageNode', { label: 'Hello', messageBlocks: [{ id: 'm1', type: 'text', text: 'ok' }, { id: 'm2', type: 'text', text: '' }] })).toContain(
      `Hello: Text 2: ${messages.fieldEmpty}`,
    );
    expect(problemsOf('ReplyButtonNode', { label: 'y'.repeat(21) })).toContain(`${'y'.repeat(21)}: Button label: Enter at most 20 characters`);
    expect(problemsOf('ListButtonNode', { label: '' })).toContain(`List item: Item label: ${messages.fieldEmpty}`);
    expect(problemsOf('HTTPRequestNode', { ...full.HTTPRequestNode, timeoutMs: 50 })).toContain('Call: Timeout (ms): Enter a number of at least 100');
  });

  it("keeps the spec's and the product's own messages as spelled", () => {
    expect(problemsOf('SendEmailNode', { ...full.SendEmailNode, to: ['nope'] })).toContain(`Mail: To address 1: ${messages.invalidEmail}`);
    expect(problemsOf('MediaNode', { ...full.MediaNode, mediaLink: 'nope' })).toContain(`Photo: Link: ${productMessages.mustBeUrl}`);
    expect(problemsOf('ConditionNode', { label: 'Cond', branches: [] })).toContain(`Cond: Branches: ${productMessages.conditionBranches}`);
  });
});
