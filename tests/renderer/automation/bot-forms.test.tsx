// @vitest-environment happy-dom
// The bot node forms: spec section 5's limits and messages come from the shared zod schemas, every edit reaches
// the canvas store, `{{attribute}}` variables are inserted where the cursor is, and children respect their
// per-parent limits (3 reply buttons).
import '@testing-library/jest-dom/vitest';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { BotEditorContextValue, makeBotEditorContext } from '../../../src/renderer/src/features/automation/canvas/editor-context';
import { HTTPRequestForm, ConditionForm } from '../../../src/renderer/src/features/automation/components/forms/logic-forms';
import { SendEmailForm, SendMessageForm, StartForm } from '../../../src/renderer/src/features/automation/components/forms/message-forms';
import { ListForm, ReplyButtonForm } from '../../../src/renderer/src/features/automation/components/forms/question-forms';
import { polyfillDom } from '../support/app';

beforeAll(polyfillDom);

const now = '2026-11-23T09:00:00.000Z';
const attribute = (id: string, name: string) => ({ id, name, createdAt: now, description: null, type: 'contact' as const, format: 'text' as const, workspaceId: 'w1', memberId: 'm1' });
const ctx = makeBotEditorContext('b1', null, [attribute('a1', 'Email'), attribute('a2', 'Topic')], []);
const inEditor = (ui: ReactNode) => render(<BotEditorContextValue.Provider value={ctx}>{ui}</BotEditorContextValue.Provider>);

describe('bot node forms', () => {
  it('reply button labels: 1 to 20 characters, with the schema message', async () => {
    const onPatch = vi.fn();
    inEditor(<ReplyButtonForm nodeId="n1" data={{ label: 'Yes' }} onPatch={onPatch} />);
    const input = screen.getByRole('textbox', { name: 'Button label' });
    await userEvent.clear(input);
    await userEvent.type(input, 'x'.repeat(21));
    expect(await screen.findByRole('alert')).toHaveTextContent(/20/);
    expect(onPatch).toHaveBeenLastCalledWith({ label: 'x'.repeat(21) });
    await userEvent.clear(input);
    expect(await screen.findByRole('alert')).toHaveTextContent('This field cannot be empty');
  });

  it('send e-mail: each address must be valid, the subject at most 60 characters', async () => {
    const onPatch = vi.fn();
    inEditor(<SendEmailForm nodeId="n1" data={{ label: 'Mail', to: [], cc: [], bcc: [], subject: '', body: '' }} onPatch={onPatch} />);
    await userEvent.type(screen.getByRole('textbox', { name: 'To' }), 'team@acme.com, not-an-address');
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(onPatch).toHaveBeenLastCalledWith({ to: ['team@acme.com', 'not-an-address'] });
    await userEvent.type(screen.getByRole('textbox', { name: 'Subject' }), 's'.repeat(61));
    expect(await screen.findByText(/60/)).toBeInTheDocument();
  });

  it('HTTP request: the URL must be a URL; timeout and response mappings are kept', async () => {
    const onPatch = vi.fn();
    inEditor(<HTTPRequestForm nodeId="n1" data={{ label: 'Call', url: '', method: 'GET', headers: [], bodyType: 'raw' }} onPatch={onPatch} />);
    await userEvent.type(screen.getByRole('textbox', { name: 'URL' }), 'not a url');
    expect(await screen.findByText('Enter a valid URL')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('spinbutton', { name: /Timeout/ }), '50');
    expect(await screen.findByText('Enter a number of at least 100')).toBeInTheDocument();
    expect(onPatch).toHaveBeenLastCalledWith({ timeoutMs: 50 });
    await userEvent.click(screen.getByRole('button', { name: 'Add mapping' }));
    const path = screen.getByRole('textbox', { name: 'Path' });
    await userEvent.clear(path);
    await userEvent.type(path, 'data.id');
    expect(await screen.findByText('Enter a path such as $.data.id')).toBeInTheDocument();
  });

  it('condition: a branch needs at least one condition', async () => {
    const onPatch = vi.fn();
    const data = { label: 'Cond', branches: [{ id: 'b1', label: 'Sales', type: 'Normal' as const, conditions: [] }] };
    inEditor(<ConditionForm nodeId="n1" data={data} onPatch={onPatch} />);
    expect(await screen.findByText('Each branch needs at least one condition')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add condition' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'When' }), 'a2');
    await userEvent.type(screen.getByRole('textbox', { name: 'Value' }), 'Sales');
    expect(screen.queryByText('Each branch needs at least one condition')).not.toBeInTheDocument();
    const last = onPatch.mock.calls.at(-1)![0] as { branches: { conditions: unknown[] }[] };
    expect(last.branches[0].conditions).toEqual([expect.objectContaining({ attributeId: 'a2', operator: 'EQUALS', value: 'Sales' })]);
  });

  it('inserts an {{attribute}} variable at the cursor', async () => {
    const onPatch = vi.fn();
    inEditor(<SendMessageForm nodeId="n1" data={{ label: 'Hi', messageBlocks: [{ id: 'm1', type: 'text', text: 'Hello !' }] }} onPatch={onPatch} />);
    const text = screen.getByRole('textbox', { name: 'Text 1' }) as HTMLTextAreaElement;
    act(() => {
      text.focus();
      text.setSelectionRange(6, 6);
    });
    await userEvent.click(screen.getByRole('button', { name: 'Insert a variable into Text 1' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: /Email/ }));
    expect(text.value).toBe('Hello {{Email}}!');
    expect(onPatch).toHaveBeenLastCalledWith({ messageBlocks: [{ id: 'm1', type: 'text', text: 'Hello {{Email}}!' }] });
  });

  it('list: items are added up to the limit and each label is checked', async () => {
    const items = Array.from({ length: 10 }, (_, i) => ({ id: `i${i}`, type: 'ListButtonNode' as const, position: { x: 0, y: 0 }, data: { label: i === 9 ? 'y'.repeat(25) : `Item ${i}` } }));
    const add = vi.fn();
    inEditor(
      <ListForm
        nodeId="l1"
        data={{ label: 'Menu', body: 'Pick one', buttonName: 'Choose', errorMessage: 'Please pick one' }}
        onPatch={vi.fn()}
        childOps={{ items, max: 10, add, remove: vi.fn(), rename: vi.fn() }}
      />,
    );
    expect(screen.getByRole('button', { name: 'Add item' })).toBeDisabled();
    expect(screen.getByText('WhatsApp shows at most 10 items.')).toBeInTheDocument();
    const tenth = screen.getByRole('textbox', { name: 'Item 10' }).closest('div')!.parentElement!;
    expect(within(tenth).getByRole('alert')).toHaveTextContent(/24/);
  });

  it('start: keywords as a start condition', async () => {
    const onPatch = vi.fn();
    inEditor(<StartForm nodeId="s" data={{ label: 'Start' }} onPatch={onPatch} />);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Start a session on' }), 'keywords');
    await userEvent.type(screen.getByRole('textbox', { name: 'Keywords' }), 'order, refund');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Match' }), 'exact');
    expect(onPatch).toHaveBeenLastCalledWith({ startCondition: { type: 'keywords', keywords: ['order', 'refund'], match: 'exact' } });
  });
});
