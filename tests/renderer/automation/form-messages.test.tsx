// @vitest-environment happy-dom
// Every message a bot step's form shows is written for a person: each form of the 14 kinds is walked through the
// empty and the too-long state of every field it has, and no message may speak the schema (zod's "Too small:
// expected string to have >=1 characters", a path such as `messageBlocks.0.text`, a field's code name).
import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType, ReactNode } from 'react';
import type { BotNodeType } from '@shared/schemas/bot-canvas';
import { messages } from '@shared/messages';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BotEditorContextValue, makeBotEditorContext } from '../../../src/renderer/src/features/automation/canvas/editor-context';
import { botNodeKinds } from '../../../src/renderer/src/features/automation/canvas/node-kinds';
import { nodeForms } from '../../../src/renderer/src/features/automation/components/forms/node-form';
import { polyfillDom } from '../support/app';

beforeAll(polyfillDom);
afterEach(cleanup);

const now = '2026-11-23T09:00:00.000Z';
const attribute = { id: 'a1', name: 'Email', createdAt: now, description: null, type: 'contact' as const, format: 'text' as const, workspaceId: 'w1', memberId: 'm1' };
const ctx = makeBotEditorContext('b1', null, [attribute], []);
const inEditor = (ui: ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <BotEditorContextValue.Provider value={ctx}>{ui}</BotEditorContextValue.Provider>
    </QueryClientProvider>,
  );

/** Schema speech: zod's words and comparison signs, and dotted paths with an index. */
const schemaSpeech = /expected|too small|too big|invalid|>=|<=|\b[A-Za-z]+\.\d+\b/i;
/** A field's code name (variableId, messageBlocks). */
const codeName = /\b[a-z]+[A-Z][A-Za-z]*\b/;

/** Each kind's new data, with one entry in every list field so the entries' own fields are walked too. */
function walkData(type: BotNodeType): Record<string, unknown> {
  let n = 0;
  const data = botNodeKinds[type].newData(() => `id${++n}`) as Record<string, unknown>;
  const extra: Partial<Record<BotNodeType, Record<string, unknown>>> = {
    StartNode: { startCondition: { type: 'keywords', keywords: ['order'], match: 'exact' }, idleExpiryMinutes: 60 },
    ConditionNode: { branches: [{ id: 'br1', label: 'Sales', type: 'Normal', conditions: [{ id: 'c1', attributeId: 'a1', operator: 'EQUALS', value: 'x' }] }] },
    HTTPRequestNode: { headers: [{ key: 'X-Key', value: 'v' }], responseMappings: [{ id: 'r1', path: '$.id', attributeId: 'a1' }], timeoutMs: 1000 },
    WhatsappFlowNode: { attributeMapping: [{ id: 'f1', objectKey: 'name', attributeId: 'a1' }] },
    SendEmailNode: { to: ['team@acme.com'] },
    CollectInputNode: { noAnswerTimeoutMinutes: 5 },
  };
  return { ...data, ...extra[type] };
}

const child = (id: string) => ({ id, type: 'ReplyButtonNode' as const, position: { x: 0, y: 0 }, data: { label: 'One' } });

function alerts(): string[] {
  return screen.queryAllByRole('alert').map((a) => a.textContent ?? '');
}

/** Puts `value` into a field the way typing would, and gives the form a moment to validate. */
async function setField(el: HTMLElement, value: string) {
  await act(async () => {
    fireEvent.change(el, { target: { value } });
    fireEvent.blur(el);
    await new Promise((r) => setTimeout(r, 5));
  });
}

describe('bot step forms speak to a person', () => {
  const kinds = Object.keys(nodeForms) as BotNodeType[];

  it.each(kinds)('%s: empty and too-long fields', async (type) => {
    const Form = nodeForms[type] as unknown as ComponentType<Record<string, unknown>>;
    inEditor(<Form nodeId="n1" data={walkData(type)} onPatch={vi.fn()} childOps={{ items: [child('k1')], max: 3, add: vi.fn(), remove: vi.fn(), rename: vi.fn() }} />);
    const seen = new Set<string>();
    const fields = [...screen.queryAllByRole('textbox'), ...screen.queryAllByRole('spinbutton')];
    for (const field of fields) {
      const long = field.getAttribute('type') === 'number' ? '99999999' : 'x'.repeat(5000);
      for (const value of ['', long, field.getAttribute('type') === 'number' ? '-1' : ' ']) {
        await setField(field, value);
        for (const a of alerts()) seen.add(a);
      }
    }
    for (const select of screen.queryAllByRole('combobox')) {
      if ([...(select as HTMLSelectElement).options].some((o) => o.value === '')) await setField(select, '');
      for (const a of alerts()) seen.add(a);
    }
    // Every form has at least one field that cannot be empty or too long, so something was said.
    expect(seen.size, `${type} showed no message at all`).toBeGreaterThan(0);
    for (const message of seen) {
      expect(message, `${type}: "${message}"`).not.toMatch(schemaSpeech);
      expect(message, `${type}: "${message}"`).not.toMatch(codeName);
    }
  });

  it('the spec\'s own wording stays as it is spelled', async () => {
    const Form = nodeForms.CollectInputNode as unknown as ComponentType<Record<string, unknown>>;
    inEditor(<Form nodeId="n1" data={walkData('CollectInputNode')} onPatch={vi.fn()} />);
    await setField(screen.getByRole('textbox', { name: 'Question' }), 'x'.repeat(1025));
    expect(await screen.findByText('Enter at most 1,024 characters')).toBeInTheDocument();
    await setField(screen.getByRole('combobox', { name: 'Save the answer in' }), '');
    await setField(screen.getByRole('textbox', { name: 'Question' }), '');
    expect(await screen.findAllByText(messages.fieldEmpty)).toHaveLength(2);
  });
});
