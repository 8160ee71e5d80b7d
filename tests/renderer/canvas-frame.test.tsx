// @vitest-environment happy-dom
// The canvas frame the campaign and bot editors share: palette, node list, forms through the store, undo/redo,
// copy/paste, delete by keyboard, the validation summary and autosave, driven as a user would.
import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Node, NodeProps, NodeTypes } from '@xyflow/react';
import { Flag, MessageSquare } from 'lucide-react';
import { memo } from 'react';
import { Toaster } from 'sonner';
import { afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  CanvasFrame,
  CanvasNode,
  type CanvasGraph,
  type PaletteEntry,
  createCanvasStore,
  useNodeData,
} from '../../src/renderer/src/components/canvas';
import type { CanvasProblem } from '../../src/renderer/src/components/canvas/context';
import { withLayout } from './live-chat/harness';
import { polyfillDom } from './support/app';

type StartNode = Node<{ label: string; text?: string }, 'Start'>;
type TextNode = Node<{ label: string; text?: string }, 'Text'>;
type TestNode = StartNode | TextNode;

const Start = memo(function Start({ id, selected }: NodeProps<StartNode>) {
  return <CanvasNode id={id} selected={selected} icon={Flag} kind="Start" target={false} />;
});
const Text = memo(function Text({ id, selected }: NodeProps<TextNode>) {
  const { data, update, readOnly } = useNodeData<TextNode['data']>(id);
  return (
    <CanvasNode id={id} selected={selected} icon={MessageSquare} kind="Text" label={data?.label}>
      <label>
        Message of {data?.label}
        <input value={data?.text ?? ''} disabled={readOnly} onChange={(e) => update({ text: e.target.value })} />
      </label>
    </CanvasNode>
  );
});
const nodeTypes = { Start, Text } satisfies NodeTypes;
const palette: PaletteEntry<TestNode>[] = [
  { type: 'Text', label: 'Text message', icon: MessageSquare, create: () => ({ type: 'Text', data: { label: 'Text' } }) },
];
const validate = (g: CanvasGraph<TestNode>): CanvasProblem[] =>
  g.nodes.flatMap((n) => (n.type === 'Text' && !n.data.text ? [{ nodeId: n.id, message: `${n.data.label}: This field cannot be empty` }] : []));
const describeNode = (n: TestNode) => n.data.label;

beforeAll(() => {
  polyfillDom();
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function setup(save: (g: CanvasGraph<TestNode>) => Promise<unknown> = vi.fn(async (_g: CanvasGraph<TestNode>) => undefined), readOnly = false) {
  const store = createCanvasStore<TestNode>({
    nodes: [
      { id: 'start', type: 'Start', position: { x: 0, y: 0 }, data: { label: 'Start' }, deletable: false },
      { id: 'a', type: 'Text', position: { x: 0, y: 200 }, data: { label: 'Hello', text: 'Hi there' } },
    ],
    edges: [{ id: 'e1', source: 'start', target: 'a' }],
  }, { onlyOnce: (n) => (n.type === 'Start' ? 'A bot has one Start step' : null) });
  render(
    <div style={{ width: 1000, height: 700, display: 'flex' }}>
      <Toaster />
      <CanvasFrame
        store={store}
        nodeTypes={nodeTypes}
        palette={palette}
        validate={validate}
        save={save}
        describeNode={describeNode}
        label="Test steps"
        linear
        readOnly={readOnly}
        readOnlyReason="Locked"
      />
    </div>,
  );
  return { store, save: save as ReturnType<typeof vi.fn> };
}

const nodeNames = (store: ReturnType<typeof setup>['store']) => store.getState().nodes.map((n) => n.data.label);

describe('canvas frame', () => {
  it('adds a step from the palette after the selected one, edits it through its form, and lists its problem until fixed', async () => {
    const { store } = setup();
    const steps = screen.getByRole('region', { name: /Steps/ });
    await userEvent.click(within(steps).getByRole('button', { name: 'Hello' }));
    await userEvent.click(screen.getByRole('button', { name: 'Text message' }));
    expect(nodeNames(store)).toEqual(['Start', 'Hello', 'Text']);
    const added = store.getState().nodes[2];
    // Joined after the selected step.
    expect(store.getState().edges).toContainEqual(expect.objectContaining({ source: 'a', target: added.id }));
    // The new step is incomplete: the summary names it; its button selects it.
    const problems = screen.getByRole('list', { name: 'Problems' });
    expect(within(problems).getByText('Text: This field cannot be empty')).toBeInTheDocument();
    await userEvent.click(within(steps).getByRole('button', { name: 'Hello' }));
    await userEvent.click(within(problems).getByRole('button', { name: 'Text: This field cannot be empty' }));
    expect(store.getState().selectedId).toBe(added.id);

    await userEvent.type(screen.getByLabelText('Message of Text'), 'Welcome');
    expect(store.getState().nodes[2].data).toEqual({ label: 'Text', text: 'Welcome' });
    expect(screen.queryByRole('list', { name: 'Problems' })).not.toBeInTheDocument();
    expect(screen.getByText('Ready to deploy')).toBeInTheDocument();
  });

  it('undoes and redoes a form edit as one step, with the buttons and the keyboard', async () => {
    const { store } = setup();
    await userEvent.type(screen.getByLabelText('Message of Hello'), '!!');
    expect(store.getState().nodes[1].data.text).toBe('Hi there!!');
    await userEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(store.getState().nodes[1].data.text).toBe('Hi there');
    await userEvent.click(screen.getByRole('button', { name: 'Redo' }));
    expect(store.getState().nodes[1].data.text).toBe('Hi there!!');
    screen.getByRole('button', { name: 'Fit view' }).focus();
    await userEvent.keyboard('{Control>}z{/Control}');
    expect(store.getState().nodes[1].data.text).toBe('Hi there');
    await userEvent.keyboard('{Control>}{Shift>}z{/Shift}{/Control}');
    expect(store.getState().nodes[1].data.text).toBe('Hi there!!');
  });

  it('deletes the selected step with the Delete key but never a non-deletable one; undo brings it back', async () => {
    const { store } = setup();
    const steps = screen.getByRole('region', { name: /Steps/ });
    await userEvent.click(within(steps).getByRole('button', { name: 'Start' }));
    await userEvent.keyboard('{Delete}');
    expect(nodeNames(store)).toEqual(['Start', 'Hello']);
    expect(within(steps).getByRole('button', { name: 'Delete Start' })).toBeDisabled();

    await userEvent.click(within(steps).getByRole('button', { name: 'Hello' }));
    await userEvent.keyboard('{Delete}');
    expect(nodeNames(store)).toEqual(['Start']);
    expect(store.getState().edges).toEqual([]);
    await userEvent.keyboard('{Control>}z{/Control}');
    expect(nodeNames(store)).toEqual(['Start', 'Hello']);
    expect(store.getState().edges).toHaveLength(1);
  });

  it('copies and pastes a step as a new node with its data beside the others; the start node is left out, and it says so', async () => {
    const { store } = setup();
    const steps = screen.getByRole('region', { name: /Steps/ });
    await userEvent.click(within(steps).getByRole('button', { name: 'Hello' }));
    await userEvent.keyboard('{Control>}c{/Control}{Control>}v{/Control}{Control>}v{/Control}');
    const nodes = store.getState().nodes;
    expect(nodes.map((n) => n.data)).toEqual([{ label: 'Start' }, ...Array(3).fill({ label: 'Hello', text: 'Hi there' })]);
    expect(nodes[2].id).not.toBe('a');
    // No pasted card covers another (cards are 288 x 160 until measured).
    const box = (n: TestNode) => ({ x: n.position.x, y: n.position.y, r: n.position.x + 288, b: n.position.y + 160 });
    for (const [i, n] of nodes.entries()) {
      for (const m of nodes.slice(i + 1)) {
        const [p, q] = [box(n), box(m)];
        expect(p.x < q.r && q.x < p.r && p.y < q.b && q.y < p.b, `${n.id} overlaps ${m.id}`).toBe(false);
      }
    }

    // Everything, Start included: the copies come without a second Start, and a toast says why.
    await userEvent.click(within(steps).getByRole('button', { name: 'Start' }));
    await userEvent.keyboard('{Control>}a{/Control}');
    expect(store.getState().nodes.every((n) => n.selected)).toBe(true);
    await userEvent.keyboard('{Control>}c{/Control}{Control>}v{/Control}');
    expect(store.getState().nodes.filter((n) => n.type === 'Start')).toHaveLength(1);
    expect(store.getState().nodes).toHaveLength(7);
    expect(await screen.findByText('Not pasted: A bot has one Start step')).toBeInTheDocument();
  });

  it('moving the view or opening a step without changing it saves nothing', async () => {
    const { store, save } = setup();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    act(() => {
      store.getState().setViewport({ x: 120, y: -40, zoom: 0.6 });
      store.getState().select('a');
      store.getState().updateNodeData('a', { text: 'Hi there' });
    });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(save).not.toHaveBeenCalled();
    expect(screen.getByRole('status')).toHaveTextContent('All changes saved');
    // The view goes with the next real edit.
    act(() => store.getState().updateNodeData('a', { text: 'Changed' }));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(save).toHaveBeenCalledTimes(1);
    expect(save.mock.calls[0][0].viewport).toEqual({ x: 120, y: -40, zoom: 0.6 });
  });

  it('connects steps from the node list without a mouse on the canvas', async () => {
    const { store } = setup();
    await userEvent.click(screen.getByRole('button', { name: 'Text message' }));
    const added = store.getState().nodes[2];
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Next step after Hello' }), added.id);
    expect(store.getState().edges.filter((e) => e.source === 'a').map((e) => e.target)).toEqual([added.id]);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Next step after Hello' }), '');
    expect(store.getState().edges.filter((e) => e.source === 'a')).toEqual([]);
  });

  it('saves once after a burst of edits; a refused save says why in words and selects its step, then retries', async () => {
    let fail = false;
    const save = vi.fn(async (_g: CanvasGraph<TestNode>) => {
      if (fail) throw new Error('rfInstance.nodes.1.data.text: Write the message');
    });
    const { store } = setup(save);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    act(() => {
      store.getState().updateNodeData('a', { text: 'One' });
      store.getState().updateNodeData('a', { text: 'Two' });
    });
    expect(screen.getByRole('status')).toHaveTextContent('Unsaved changes');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(save).toHaveBeenCalledTimes(1);
    expect(save.mock.calls[0][0].nodes[1].data.text).toBe('Two');
    expect(screen.getByRole('status')).toHaveTextContent('All changes saved');

    fail = true;
    act(() => store.getState().updateNodeData('a', { text: 'Three' }));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByRole('alert')).toHaveTextContent(/^Changes not saved: Write the messageRetry$/);
    expect(store.getState().selectedId).toBe('a');
    // The window asks before closing on a refused change.
    const close = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(close);
    expect(close.defaultPrevented).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(save).toHaveBeenCalledTimes(3);
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(save).toHaveBeenCalledTimes(4);
    expect(save.mock.calls[3][0].nodes[1].data.text).toBe('Three');
    expect(screen.getByRole('status')).toHaveTextContent('All changes saved');
  });

  it('flushes an unsaved change at once when the editor closes (navigation)', async () => {
    const { store, save } = setup();
    act(() => store.getState().updateNodeData('a', { text: 'Last words' }));
    expect(save).not.toHaveBeenCalled();
    cleanup();
    await vi.waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    expect(save.mock.calls[0][0].nodes[1].data.text).toBe('Last words');
  });

  it('flushes on beforeunload and asks the window to stay while the save is on its way', async () => {
    const { store, save } = setup();
    act(() => store.getState().updateNodeData('a', { text: 'Closing' }));
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    await vi.waitFor(() => expect(save).toHaveBeenCalledTimes(1));
  });

  it('locks a read-only canvas: no palette, disabled fields, no delete, no save', async () => {
    const { store, save } = setup(undefined, true);
    expect(screen.queryByRole('button', { name: 'Text message' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Message of Hello')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Delete Hello' })).not.toBeInTheDocument();
    expect(screen.getByText('Locked')).toBeInTheDocument();
    const steps = screen.getByRole('region', { name: /Steps/ });
    await userEvent.click(within(steps).getByRole('button', { name: 'Hello' }));
    await userEvent.keyboard('{Delete}');
    expect(nodeNames(store)).toEqual(['Start', 'Hello']);
    expect(save).not.toHaveBeenCalled();
  });

  it('renders a long step list only where it is in view, each row with its place in the list; problems still reach their step', async () => {
    const nodes: TestNode[] = [
      { id: 'start', type: 'Start', position: { x: 0, y: 0 }, data: { label: 'Start' }, deletable: false },
      ...Array.from({ length: 199 }, (_, i): TestNode => ({ id: `n${i}`, type: 'Text', position: { x: 0, y: 200 * (i + 1) }, data: { label: `Step ${i}`, text: i === 0 ? '' : 'Hi' } })),
    ];
    const store = createCanvasStore<TestNode>({ nodes, edges: [] });
    // The DOM here has no layout: the panel is given a height, as a browser would.
    onTestFinished(withLayout());
    render(
      <div style={{ width: 1000, height: 700, display: 'flex' }}>
        <CanvasFrame store={store} nodeTypes={nodeTypes} palette={palette} validate={validate} save={async () => undefined} describeNode={describeNode} label="Test steps" />
      </div>,
    );
    const steps = screen.getByRole('region', { name: /Steps/ });
    expect(within(steps).getByRole('heading')).toHaveTextContent('Steps (200)');
    const rows = await within(steps).findAllByRole('listitem');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(200);
    expect(rows[0]).toHaveAttribute('aria-setsize', '200');
    expect(rows[0]).toHaveAttribute('aria-posinset', '1');
    // The one problem is listed and names its step; the first rows are rendered.
    expect(within(screen.getByRole('list', { name: 'Problems' })).getByRole('button', { name: /Step 0: This field cannot be empty/ })).toBeInTheDocument();
    expect(within(steps).getByRole('button', { name: 'Delete Start' })).toBeDisabled();
  });
});
