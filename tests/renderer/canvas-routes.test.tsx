// @vitest-environment happy-dom
// The bot and campaign editor routes load their screens on first visit (kept out of the start-up bundle):
// opening one still shows the screen with its data.
import '@testing-library/jest-dom/vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultAnswers, now, polyfillDom, renderApp, workspace } from './support/app';

beforeAll(polyfillDom);

const botId = '99999999-9999-4999-8999-999999999999';
const campaignId = '88888888-8888-4888-8888-888888888888';
const canvas = { nodes: [], edges: [], viewport: { x: 0, y: 0, zoom: 1 } };

describe('canvas routes, loaded lazily', () => {
  it('opens a bot at /automation/{botId}', async () => {
    const answers = defaultAnswers();
    answers[`GET /bot/${botId}`] = {
      status: 200,
      body: { id: botId, title: 'Returns desk', createdAt: now, lastDeployedAt: null, isActive: true, channel: 'WhatsApp', rfInstance: canvas, memberId: 'm1', workspaceId: workspace.id, whatsappAccountId: null, publishedVersionId: null, hasUnpublishedChanges: true },
    };
    await renderApp(`/automation/${botId}`, { answers });
    expect(await screen.findByText('Returns desk')).toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();
    // Its canvas editor (an empty canvas here) with the deploy controls.
    expect(screen.getByRole('heading', { name: 'Steps (0)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Publish' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('link', { name: 'Back to automation' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Automation' })).toBeInTheDocument();
  });

  it('opens a campaign at /campaigns/{campaignId}', async () => {
    const answers = defaultAnswers();
    answers[`GET /campaign/${campaignId}`] = {
      status: 200,
      body: {
        id: campaignId,
        name: 'Black Friday',
        createdAt: now,
        type: 'oneTime',
        status: 'draft',
        resumeAt: null,
        rfInstance: canvas,
        memberId: 'm1',
        workspaceId: workspace.id,
        scheduledAt: null,
        deployedAt: null,
        triggerKeyHint: null,
      },
    };
    await renderApp(`/campaigns/${campaignId}`, { answers });
    expect(await screen.findByText('Black Friday')).toBeInTheDocument();
    expect(screen.getByText('One-time campaign')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Add a step' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('link', { name: 'Back to campaigns' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Campaigns' })).toBeInTheDocument();
  });
});
