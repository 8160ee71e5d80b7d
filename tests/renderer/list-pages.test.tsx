// @vitest-environment happy-dom
// The bots and campaigns screens: their list, their empty state with its "New …" action, and what agents see.
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultAnswers, now, polyfillDom, renderApp, workspace } from './support/app';

beforeAll(polyfillDom);

const botId = '99999999-9999-4999-8999-999999999999';
const campaignId = '88888888-8888-4888-8888-888888888888';
const canvas = { nodes: [], edges: [], viewport: { x: 0, y: 0, zoom: 1 } };
const bot = { id: botId, title: 'Returns desk', createdAt: now, lastDeployedAt: null, isActive: true, channel: 'WhatsApp', rfInstance: canvas, memberId: 'm1', workspaceId: workspace.id, whatsappAccountId: null, publishedVersionId: null, hasUnpublishedChanges: true };
const campaign = { id: campaignId, name: 'Black Friday', createdAt: now, type: 'oneTime', status: 'draft', resumeAt: null, rfInstance: canvas, memberId: 'm1', workspaceId: workspace.id, CampaignLogs: [], logCounts: { success: 0, failed: 0 },
  // Campaign additions.
  scheduledAt: null, deployedAt: null, triggerKeyHint: null,
  counts: { recipients: 0, pending: 0, sent: 0, delivered: 0, read: 0, replied: 0, failed: 0, unknown: 0, optedOut: 0 } };

const log = (n: number, messageStatus: 'success' | 'failed') => ({
  id: `7777777${n}-7777-4777-8777-777777777777`,
  createdAt: now,
  phoneNumber: `+1415555010${n}`,
  templateName: 'black_friday',
  messageStatus,
  reason: messageStatus === 'failed' ? 'Number not on WhatsApp' : null,
  campaignId,
});

describe('bots', () => {
  it('an empty list offers "New bot"; creating one opens it', async () => {
    const answers = defaultAnswers();
    answers['POST /bot'] = { status: 201, body: bot };
    answers[`GET /bot/${botId}`] = { status: 200, body: bot };
    const { calls, history } = await renderApp('/automation', { answers });
    expect(await screen.findByRole('heading', { name: 'No bots yet' })).toBeInTheDocument();
    // One in the header, one in the empty state.
    expect(screen.getAllByRole('button', { name: 'New bot' })).toHaveLength(2);

    const user = userEvent.setup();
    await user.click(screen.getAllByRole('button', { name: 'New bot' })[1]);
    const dialog = await screen.findByRole('dialog', { name: 'New bot' });
    await user.type(within(dialog).getByLabelText('Name'), 'Returns desk');
    await user.click(within(dialog).getByRole('button', { name: 'Create bot' }));
    await waitFor(() => expect(history.location.pathname).toBe(`/automation/${botId}`));
    expect(calls.find((c) => c.method === 'POST' && c.path === '/bot')?.body).toEqual({ workspaceId: workspace.id, title: 'Returns desk' });
  });

  it('lists bots with a link to each; agents get no "New bot" and no delete', async () => {
    const answers = defaultAnswers('agent');
    answers['GET /workspace/w1/bots'] = { status: 200, body: { items: [bot], nextCursor: null } };
    await renderApp('/automation', { answers });
    const table = await screen.findByRole('table', { name: 'Bots' });
    expect(within(table).getByRole('link', { name: 'Returns desk' })).toHaveAttribute('href', `/automation/${botId}`);
    expect(within(table).getByText('Active')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New bot' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Returns desk' })).toBeNull();
  });
});

describe('campaigns', () => {
  it('an empty list offers "New campaign" to admins only', async () => {
    await renderApp('/campaigns');
    expect(await screen.findByRole('heading', { name: 'No campaigns yet' })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'New campaign' })).toHaveLength(2);
  });

  it('creates a recurring campaign (the Type hint follows the choice) and opens it', async () => {
    const answers = defaultAnswers();
    answers['POST /campaign'] = { status: 201, body: { ...campaign, type: 'recurring' } };
    answers[`GET /campaign/${campaignId}`] = { status: 200, body: { ...campaign, type: 'recurring' } };
    const { calls, history } = await renderApp('/campaigns', { answers });
    const user = userEvent.setup();
    await user.click((await screen.findAllByRole('button', { name: 'New campaign' }))[0]);
    const dialog = await screen.findByRole('dialog', { name: 'New campaign' });
    await user.type(within(dialog).getByLabelText('Name'), 'Restock alert');
    const type = within(dialog).getByRole('combobox', { name: 'Type' });
    expect(type).toHaveAccessibleDescription('Sent once to a segment.');
    await user.click(type);
    await user.click(await screen.findByRole('option', { name: 'Recurring' }));
    expect(type).toHaveAccessibleDescription('Sent whenever your systems call its trigger.');
    await user.click(within(dialog).getByRole('button', { name: 'Create campaign' }));
    await waitFor(() => expect(history.location.pathname).toBe(`/campaigns/${campaignId}`));
    expect(calls.find((c) => c.method === 'POST' && c.path === '/campaign')?.body).toEqual({ workspaceId: workspace.id, name: 'Restock alert', type: 'recurring' });
  });

  it('lists campaigns with their counts (of every log, not only the embedded ones), and a delete button for admins', async () => {
    const answers = defaultAnswers();
    answers['GET /workspace/w1/campaigns'] = {
      status: 200,
      // The list embeds the newest logs only; counts  count them all.
      body: {
        items: [
          {
            ...campaign,
            CampaignLogs: [log(1, 'success'), log(2, 'failed'), log(3, 'success')],
            logCounts: { success: 1250, failed: 37 },
            counts: { ...campaign.counts, recipients: 1287, sent: 1250, failed: 37 },
          },
        ],
        nextCursor: null,
      },
    };
    await renderApp('/campaigns', { answers });
    const table = await screen.findByRole('table', { name: 'Campaigns' });
    const row = within(table).getByRole('link', { name: 'Black Friday' }).closest('tr') as HTMLElement;
    expect(within(row).getByText('One-time')).toBeInTheDocument();
    expect(within(row).getByText('1,287')).toBeInTheDocument();
    expect(within(row).getByText('1,250')).toBeInTheDocument();
    expect(within(row).getByText('37')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Delete Black Friday' })).toBeInTheDocument();
  });
});
