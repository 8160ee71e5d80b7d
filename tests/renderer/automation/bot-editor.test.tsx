// @vitest-environment happy-dom
// The bot editor at /automation/{botId} against a fake server: Start cannot be deleted, a Reply added from the
// palette comes with its buttons (at most 3), the canvas autosaves as a draft, a refused deploy lists every
// problem and selects the step of one, discard puts the published canvas back, and the preview shows the bot's
// messages as WhatsApp would, takes a tap, highlights the current step and shows the collected attributes.
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Answer, defaultAnswers, now, polyfillDom, renderApp, workspace } from '../support/app';

beforeAll(() => {
  polyfillDom();
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
});

const botId = '99999999-9999-4999-8999-999999999999';
const start = { id: 'start', type: 'StartNode', position: { x: 0, y: 0 }, data: { label: 'Start' }, deletable: false };
const list = { id: 'list', type: 'ListNode', position: { x: 0, y: 150 }, data: { label: 'Menu', body: 'What can we do?', buttonName: 'Choose', errorMessage: 'Pick one' } };
const sales = { id: 'sales', type: 'ListButtonNode', position: { x: 0, y: 300 }, data: { label: 'Sales' } };
const canvas = {
  nodes: [start, list, sales],
  edges: [
    { id: 'e1', source: 'start', target: 'list' },
    { id: 'e2', source: 'list', target: 'sales' },
  ],
  viewport: { x: 10, y: 10, zoom: 1 },
};
const bot = (over: Record<string, unknown> = {}) => ({
  id: botId,
  title: 'Front desk',
  createdAt: now,
  lastDeployedAt: null,
  isActive: false,
  channel: 'WhatsApp',
  rfInstance: canvas,
  memberId: 'm1',
  workspaceId: workspace.id,
  whatsappAccountId: null,
  publishedVersionId: null,
  hasUnpublishedChanges: true,
  ...over,
});

function answers(extra: Record<string, Answer> = {}) {
  const a = defaultAnswers();
  a[`GET /bot/${botId}`] = { status: 200, body: bot() };
  a[`PATCH /bot/${botId}`] = ({ body }) => ({ status: 200, body: bot({ rfInstance: (body as { rfInstance?: unknown }).rfInstance ?? canvas }) });
  return Object.assign(a, extra);
}

const steps = () => screen.getByRole('region', { name: /^Steps/ });
const side = () => screen.getByRole('complementary', { name: 'Step and preview' });

describe('bot editor', () => {
  it('keeps Start, adds a Reply with its buttons (at most 3) and saves the draft', async () => {
    const { calls } = await renderApp(`/automation/${botId}`, { answers: answers() });
    expect(await screen.findByRole('heading', { level: 1, name: /Front desk/ })).toBeInTheDocument();
    expect(within(steps()).getByRole('button', { name: 'Delete Start' })).toBeDisabled();
    await userEvent.click(within(steps()).getByRole('button', { name: 'Start' }));
    expect(within(side()).queryByRole('button', { name: 'Delete Start' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Reply buttons' }));
    expect(await within(side()).findByRole('textbox', { name: 'Button 1' })).toHaveValue('Yes');
    expect(within(side()).getByRole('textbox', { name: 'Button 2' })).toHaveValue('No');
    await userEvent.click(within(side()).getByRole('button', { name: 'Add button' }));
    expect(within(side()).getByRole('textbox', { name: 'Button 3' })).toBeInTheDocument();
    expect(within(side()).getByRole('button', { name: 'Add button' })).toBeDisabled();
    expect(within(steps()).getAllByRole('button', { name: /^Button( · .*)?$/ })).toHaveLength(3);

    await waitFor(
      () => {
        const saved = calls.filter((c) => c.method === 'PATCH' && c.path === `/bot/${botId}`).at(-1)?.body as { rfInstance: typeof canvas } | undefined;
        expect(saved?.rfInstance.nodes.filter((n) => n.type === 'ReplyButtonNode')).toHaveLength(3);
        // Each button hangs off the reply by an edge (as the validator and the runtime read it).
        const reply = saved!.rfInstance.nodes.find((n) => n.type === 'ReplyNode')!;
        expect(saved!.rfInstance.edges.filter((e) => e.source === reply.id)).toHaveLength(3);
      },
      { timeout: 5000 },
    );

    // Deleting the reply deletes its buttons with it (no orphaned children).
    await userEvent.click(within(steps()).getByRole('button', { name: 'Edit Reply buttons' }));
    await userEvent.click(within(side()).getByRole('button', { name: 'Delete Reply buttons' }));
    expect(within(steps()).getByRole('heading')).toHaveTextContent('Steps (3)');
  });

  it("adds back a Condition's deleted Default branch from the condition's form, joined to the condition", async () => {
    const cond = { id: 'cond', type: 'ConditionNode', position: { x: 0, y: 150 }, data: { label: 'Which', branches: [{ id: 'vip', label: 'VIP', type: 'Normal', conditions: [] }] } };
    const vip = { id: 'vip', type: 'ConditionBranchNode', position: { x: 0, y: 300 }, data: { label: 'VIP', type: 'Normal' } };
    const noDefault = { nodes: [start, cond, vip], edges: [{ id: 'e1', source: 'start', target: 'cond' }, { id: 'e2', source: 'cond', target: 'vip', sourceHandle: 'vip' }], viewport: canvas.viewport };
    const { calls } = await renderApp(`/automation/${botId}`, {
      answers: answers({
        [`GET /bot/${botId}`]: { status: 200, body: bot({ rfInstance: noDefault }) },
        [`PATCH /bot/${botId}`]: ({ body }) => ({ status: 200, body: bot({ rfInstance: (body as { rfInstance?: unknown }).rfInstance ?? noDefault }) }),
      }),
    });
    await userEvent.click(await within(steps()).findByRole('button', { name: 'Edit Condition · Which' }));
    expect(await within(side()).findByText(/This condition has no Default branch/)).toBeInTheDocument();
    await userEvent.click(within(side()).getByRole('button', { name: 'Add Default branch' }));
    expect(within(side()).getByText('Default branch: taken when no branch above holds.')).toBeInTheDocument();
    expect(within(side()).queryByRole('button', { name: 'Add Default branch' })).not.toBeInTheDocument();
    await waitFor(
      () => {
        const saved = calls.filter((c) => c.method === 'PATCH' && c.path === `/bot/${botId}`).at(-1)?.body as { rfInstance: typeof noDefault } | undefined;
        const fallback = saved?.rfInstance.nodes.find((n) => n.type === 'ConditionBranchNode' && (n.data as { type: string }).type === 'Default');
        expect(fallback).toBeDefined();
        expect(saved!.rfInstance.edges).toContainEqual(expect.objectContaining({ source: 'cond', target: fallback!.id }));
        // The Default branch is a child node only, not an entry of the condition's branches.
        const condition = saved!.rfInstance.nodes.find((n) => n.id === 'cond')!;
        expect((condition.data as { branches: unknown[] }).branches).toHaveLength(1);
      },
      { timeout: 5000 },
    );
  });

  it('lists every problem of a refused deploy and goes to the step of one', async () => {
    const problems = [
      { nodeId: 'list', message: 'Menu: Add at least 1 list item' },
      { nodeId: null, message: 'Connect the Start node to the first step' },
    ];
    await renderApp(`/automation/${botId}`, {
      answers: answers({
        [`PATCH /bot/${botId}`]: ({ body }) =>
          (body as { isActive?: boolean }).isActive
            ? { status: 400, body: { statusCode: 400, message: problems.map((p) => p.message), error: 'Bad Request', problems } }
            : { status: 200, body: bot() },
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Deploy' }));
    const dialog = await screen.findByRole('dialog', { name: 'The bot cannot be deployed yet' });
    expect(within(dialog).getByText('Connect the Start node to the first step')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Menu: Add at least 1 list item' }));
    expect(await within(side()).findByRole('heading', { name: 'List' })).toBeInTheDocument();
    expect(within(side()).getByRole('textbox', { name: 'Body' })).toHaveValue('What can we do?');
  });

  it('shows unpublished changes and discards them', async () => {
    const published = { ...canvas, nodes: [start] , edges: [] };
    await renderApp(`/automation/${botId}`, {
      answers: answers({
        [`GET /bot/${botId}`]: { status: 200, body: bot({ isActive: true, publishedVersionId: '11111111-1111-4111-8111-111111111111', hasUnpublishedChanges: true }) },
        [`POST /bot/${botId}/discardChanges`]: { status: 200, body: bot({ isActive: true, rfInstance: published, publishedVersionId: '11111111-1111-4111-8111-111111111111', hasUnpublishedChanges: false }) },
      }),
    });
    expect(await screen.findByText('Unpublished changes')).toBeInTheDocument();
    expect(within(steps()).getByRole('heading')).toHaveTextContent('Steps (3)');
    await userEvent.click(screen.getByRole('button', { name: 'Discard' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(within(steps()).getByRole('heading')).toHaveTextContent('Steps (1)'));
    expect(screen.queryByText('Unpublished changes')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Publish' })).toBeDisabled();
  });

  it('previews the bot: a list as WhatsApp shows it, a tap, the current step and the collected attributes', async () => {
    const session = { currentNodeId: 'list', step: 2, waitingFor: 'list', invalidAnswers: 0, variables: {}, ended: false };
    const msg = (over: Record<string, unknown>) => ({ nodeId: 'list', type: 'text', text: null, header: null, footer: null, mediaUrl: null, filename: null, buttons: [], actionLabel: null, ...over });
    const { calls } = await renderApp(`/automation/${botId}`, {
      answers: answers({
        [`POST /bot/${botId}/preview`]: {
          status: 200,
          body: {
            session,
            messages: [msg({ type: 'list', text: 'What can we do?', actionLabel: 'Choose', buttons: [{ id: 'sales', title: 'Sales' }] })],
            currentNodeId: 'list',
            attributes: {},
            ended: false,
            endReason: null,
          },
        },
        [`POST /bot/${botId}/preview/answer`]: {
          status: 200,
          body: {
            session: { ...session, currentNodeId: null, ended: true },
            messages: [msg({ nodeId: 'sales', type: 'note', text: 'Handed over to Ada' })],
            currentNodeId: null,
            attributes: { Topic: 'Sales' },
            ended: true,
            endReason: 'handoff',
          },
        },
      }),
    });
    await userEvent.click(await screen.findByRole('tab', { name: 'Preview' }));
    await userEvent.click(screen.getByRole('button', { name: 'Start preview' }));
    const chat = screen.getByRole('log', { name: 'Preview conversation' });
    expect(await within(chat).findByText('What can we do?')).toBeInTheDocument();
    // The step the bot waits at is highlighted on the canvas.
    await waitFor(() => expect(document.querySelector('[data-testid="bot-node-list"]')).toHaveClass('ring-sky-400/70'));
    await userEvent.click(within(chat).getByRole('button', { name: 'Choose' }));
    await userEvent.click(within(chat).getByRole('option', { name: 'Sales' }));
    expect(await within(chat).findByText('Handed over to Ada')).toBeInTheDocument();
    expect(within(chat).getByText('Sales')).toBeInTheDocument();
    const answer = calls.find((c) => c.path === `/bot/${botId}/preview/answer`)!.body as { session: unknown; answer: unknown };
    expect(answer).toEqual({ session, answer: { type: 'listRow', id: 'sales' } });
    const collected = screen.getByRole('region', { name: 'Collected attributes' });
    expect(within(collected).getByText('Topic').nextElementSibling).toHaveTextContent('Sales');
    expect(screen.getByText(/Ended: handed over to a member/)).toBeInTheDocument();
    expect(document.querySelector('[data-testid="bot-node-list"]')).not.toHaveClass('ring-sky-400/70');
  });
});
